import Dispatch
import Foundation
import ReactorCore
import Synchronization
import CReactorTraceCrash
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The background side of a recording: one thread that wakes when a segment
/// fills up or every `flushInterval`, ships what each recording thread has
/// published as chunks, and on stop writes the end block and closes the file.
///
/// Internal storage: `@unchecked Sendable` because `threads` is behind a mutex,
/// the flags are atomic and the statistics are touched by the writer thread only
/// (read by `stop()` after joining it).
final class TraceWriter: @unchecked Sendable {
    let segmentCapacity: Int
    let maxQueuedSegments: Int
    let flushInterval: Duration
    let time: TraceTimeSource
    /// The file's path, for the one line a write error prints.
    let path: String
    /// The file being written: replaced by its bounded copy when a bounded recording reaches its bound.
    var descriptor: Int32
    /// The bound on the file's size, for a bounded recording (docs/TRACE_FORMAT.md, "Bounded recordings").
    let maxBytes: UInt64?
    /// What the recording says about itself: its metadata block.
    let metadata: TraceMetadata
    /// The file's header, as written: a bounded copy starts with it too.
    var headerBytes: [UInt8] = []
    /// Where the chunks begin (after the header, metadata and history blocks).
    var dataStart: UInt64 = 0
    /// What a bounded recording has overwritten so far (nil when unbounded).
    var history: TraceHistory?
    /// A bounded recording does not bound its file again before it reaches this size
    /// (a copy that could not shrink it enough must not be redone on every chunk).
    @exclusivity(unchecked) var nextBoundingAt: UInt64 = 0
    /// Snapshots asked for by ``snapshot(to:maxBytes:)``, served by the writer thread.
    let snapshotRequests = LockedValue<(open: Bool, pending: [SnapshotRequest])>((true, []))
    /// Whether this writer serves SIGUSR1 with a snapshot (the installed recording, when asked).
    @exclusivity(unchecked) var snapshotsOnSignal = false
    var signalSnapshots = 0
    /// A failure to bound the file was reported (once).
    var reportedBounding = false
    let threads = LockedValue<[ThreadRecorder]>([])
    private let wakeSignal = DispatchSemaphore(value: 0)
    private let finishedSignal = DispatchSemaphore(value: 0)
    /// The fatal-signal handlers are armed: the writer may write the header.
    private let armedSignal = DispatchSemaphore(value: 0)
    /// The writer thread has written the header (or failed to: ``headerWritten``).
    private let startedSignal = DispatchSemaphore(value: 0)
    /// Whether the header was written; read after ``startedSignal``.
    private var headerWritten = false
    private let stopRequested = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Staged output of the current pass: headers and other small blocks in
    /// `headers`, payloads written straight from their segments (no copy).
    @exclusivity(unchecked) private var headers: [UInt8] = []
    @exclusivity(unchecked) private var pieces: [Piece] = []
    @exclusivity(unchecked) private var stagedBytes = 0
    /// The `writev` vectors of a flush, kept to reuse their storage.
    @exclusivity(unchecked) private var vectors: [iovec] = []
    /// Full segments shipped in the current pass, with their threads: handed
    /// back for reuse once their bytes are written.
    @exclusivity(unchecked) private var shippedFull: [(segment: TraceSegment, thread: ThreadRecorder)] = []
    /// How many written segments a thread keeps for reuse; more are freed.
    static let maxSpareSegments = 2

    private struct Piece {
        var headerStart: Int
        var segment: TraceSegment?
        var start: Int
        var end: Int
        /// The chunk's events (0 for bytes not in a segment).
        var events: UInt32
    }

    /// Where a block ends in the file, with the events and chunks in the file
    /// up to there: a place a full disk can cut the file back to.
    struct BlockEnd {
        var offset: UInt64
        var events: UInt64
        var chunks: UInt64
    }
    /// The ends of the last chunks written, oldest overwritten first: enough
    /// to free an end block's bytes (a chunk takes at least 29) several times over.
    @exclusivity(unchecked) var chunkEnds = [BlockEnd](repeating: BlockEnd(offset: 0, events: 0, chunks: 0), count: 8)
    @exclusivity(unchecked) var nextChunkEnd = 0
    /// The end of the file's header: the file is never cut back further.
    var headerEnd: UInt64 = 0

    // Writer thread only until it finishes.
    // The writer's state is `@exclusivity(unchecked)`, here and in the
    // segments and threads it ships: one thread touches it at a time (the
    // writer, or a caller after `finish`), and the run-time checks of every
    // access were a third of an idle pass, which runs every flush interval.
    /// Events and chunks in the file (not those of blocks a write error cut away).
    @exclusivity(unchecked) var eventsWritten: UInt64 = 0
    @exclusivity(unchecked) var chunksWritten: UInt64 = 0
    /// Events recorded but not in the file: shipped after a write error, or
    /// dropped by a thread whose queue was full when the writer finished.
    @exclusivity(unchecked) var eventsLost: UInt64 = 0
    @exclusivity(unchecked) var bytesWritten: UInt64 = 0
    @exclusivity(unchecked) var writeError: Int32 = 0
    /// How the recording ended (the end block's termination code).
    private(set) var termination = TraceTermination.stopped
    private var threadCount: UInt32 = 0
    /// Events and chunks staged in the current batch, counted once it is written.
    @exclusivity(unchecked) private var stagedEvents: UInt64 = 0
    @exclusivity(unchecked) private var stagedChunks: UInt64 = 0
    /// Set by `finish(termination:)` before waking the writer.
    private var requestedTermination = TraceTermination.stopped

    /// The writer thread runs: from then on a write error is reported on stderr
    /// (before, it is the error `TraceRecorder.init` throws).
    var reportsWriteErrors = false
    /// This writer is the one the fatal-signal handlers wait for (set before its thread starts).
    private var handlesFatalSignals = false

    init(descriptor: Int32, path: String, time: TraceTimeSource, segmentCapacity: Int, maxQueuedSegments: Int,
         flushInterval: Duration, maxBytes: UInt64? = nil, metadata: TraceMetadata = TraceMetadata()) {
        self.descriptor = descriptor
        self.maxBytes = maxBytes
        self.metadata = metadata
        history = maxBytes.map { TraceHistory(maxBytes: $0) }
        self.path = path
        self.time = time
        self.segmentCapacity = segmentCapacity
        self.maxQueuedSegments = maxQueuedSegments
        self.flushInterval = flushInterval
    }

    /// True once the writer has begun its final pass: it drains no queue after that one.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Runs on the writer thread once ``isFinished`` holds, just before the final
    /// pass: for tests, to record events in that window. Set before `finish`.
    var beforeFinalPass: (@Sendable () -> Void)?

    /// How many recording threads the writer still follows (exited ones are dropped once shipped).
    var registeredThreads: Int { threads.withLock { $0.count } }

    /// Wakes the writer early (a segment filled up).
    func wake() { wakeSignal.signal() }

    /// Adds a recording thread; it gets the next thread index.
    func register(generation: UInt64) -> ThreadRecorder {
        threads.withLock { threads in
            let thread = ThreadRecorder(generation: generation, index: threadCount, time: time, writer: self)
            threadCount += 1
            threads.append(thread)
            return thread
        }
    }

    /// Writes the header, the metadata block and (bounded) the history block at the start of the file
    /// (the writer thread's first act).
    private func writeStart(header: [UInt8]) -> Bool {
        headerBytes = header
        stage(header)
        stage(TraceTailCopy.encodeBlock(type: TraceFormat.metadataBlock, payload: metadata.encodedPayload()))
        if let history { stage(TraceTailCopy.encodeBlock(type: TraceFormat.historyBlock, payload: history.encodedPayload())) }
        let written = flushStaging()
        headerEnd = bytesWritten
        dataStart = bytesWritten
        return written
    }

    /// Starts the writer thread, which first writes `header` (with the metadata and history
    /// blocks) and then ships what the recording threads publish; returns once the header is
    /// written, false when it could not be (``writeError`` says why; the thread has ended).
    /// With `flushesOnFatalSignals`, a fatal signal waits for this writer to write the end block:
    /// the writer starts with the signals blocked and writes the header only once the handlers
    /// are armed, so a file that has a header gets an end block from any signal after it.
    func start(header: [UInt8], flushesOnFatalSignals: Bool) -> Bool {
        handlesFatalSignals = flushesOnFatalSignals
        let thread = Thread { [self] in run(header: header) }
        thread.name = "ReactorTrace.writer"
        if flushesOnFatalSignals {
            reactor_trace_crash_block_for_writer_start()
            thread.start()
            reactor_trace_crash_arm()
            armedSignal.signal()
            reactor_trace_crash_restore_after_writer_start()
        } else {
            thread.start()
        }
        startedSignal.wait()
        return headerWritten
    }

    /// Ships everything published so far, writes the end block (saying how the
    /// recording ended), closes the file and returns once the writer thread is done.
    func finish(termination: TraceTermination = .stopped) {
        requestedTermination = termination  // published to the writer by the store below
        stopRequested.store(true, ordering: .releasing)
        wakeSignal.signal()
        finishedSignal.wait()
    }

    private func run(header: [UInt8]) {
        if handlesFatalSignals {
            reactor_trace_crash_set_writer_thread()
            // Armed right after this thread was started: no header before then, so a signal
            // that comes before the handlers wait for this writer finds no file to end.
            while reactor_trace_crash_is_armed() == 0 { _ = armedSignal.wait(timeout: .now() + .milliseconds(1)) }
        }
        headerWritten = writeStart(header: header)
        startedSignal.signal()
        guard headerWritten else {
            if handlesFatalSignals { reactor_trace_crash_disarm() }
            return
        }
        reportsWriteErrors = true
        let intervalNanoseconds = flushInterval.components.seconds * 1_000_000_000
            + flushInterval.components.attoseconds / 1_000_000_000
        var fatalSignal: Int32 = 0
        while true {
            _ = wakeSignal.wait(timeout: .now() + .nanoseconds(Int(max(1, intervalNanoseconds))))
            // A thread dying of a fatal signal waits in its handler for this flush.
            fatalSignal = handlesFatalSignals ? reactor_trace_crash_pending() : 0
            let stopping = stopRequested.load(ordering: .acquiring)
            if fatalSignal != 0 { break }
            shipPublished()
            serveSnapshots()
            if stopping {
                termination = requestedTermination
                break
            }
        }
        if fatalSignal != 0 { termination = .signal(fatalSignal) }
        // Threads that rotate from now on with a full queue drop their segment instead of waiting.
        finished.store(true, ordering: .releasing)
        beforeFinalPass?()
        shipPublished(final: true)
        serveSnapshots(closing: true)
        writeEndBlock()
        close(descriptor)
        if handlesFatalSignals { reactor_trace_crash_disarm() }
        if fatalSignal != 0 { reactor_trace_crash_flushed() }
        finishedSignal.signal()
    }

    /// One pass: for each thread, its full segments in order, then what its
    /// current segment has published. The `final` pass also closes each thread
    /// and counts what it dropped (threads registered after its snapshot start
    /// after the end of the recording).
    func shipPublished(final: Bool = false) {
        let snapshot = threads.withLock { $0 }
        var retired: [ObjectIdentifier] = []
        for thread in snapshot {
            let hasExited = thread.exited.load(ordering: .acquiring)
            // Swapped rather than copied and emptied: no list is allocated on either side.
            let (current, dropped) = thread.handoff.withLock { handoff in
                swap(&handoff.full, &thread.taken)
                handoff.closed = final
                return (handoff.current, handoff.droppedEvents)
            }
            eventsLost &+= dropped
            for segment in thread.taken {
                ship(segment, of: thread)
                shippedFull.append((segment, thread))
            }
            thread.taken.removeAll(keepingCapacity: true)
            ship(current, of: thread)
            if hasExited { retired.append(ObjectIdentifier(thread)) }
        }
        if !pieces.isEmpty { _ = flushStaging() }
        recycleShipped()
        if !retired.isEmpty {
            threads.withLock { $0.removeAll { retired.contains(ObjectIdentifier($0)) } }
        }
    }

    /// Hands the full segments shipped in this pass, now written (or dropped
    /// after a write error), back to their threads for reuse.
    private func recycleShipped() {
        guard !shippedFull.isEmpty else { return }
        for (segment, thread) in shippedFull where segment.capacity == segmentCapacity {
            segment.shippedOffset = 0
            segment.shippedEvents = 0
            segment.published.word.store(0, ordering: .relaxed)  // published to the thread by the lock
            thread.handoff.withLock { handoff in
                if handoff.spare.count < Self.maxSpareSegments { handoff.spare.append(segment) }
            }
        }
        shippedFull.removeAll(keepingCapacity: true)
    }

    /// Appends the chunk of `segment` between what was shipped and what is published.
    private func ship(_ segment: TraceSegment, of thread: ThreadRecorder) {
        let (end, events) = TraceSegment.unpack(segment.published.word.load(ordering: .acquiring))
        let start = segment.shippedOffset
        guard end > start, end <= segment.capacity else { return }
        let count = events &- segment.shippedEvents
        let freshContext = start == 0
        if let maxBytes, writeError == 0,
           bytesWritten &+ UInt64(stagedBytes + TraceFormat.blockHeaderLength + end - start) > maxBytes,
           bytesWritten &+ UInt64(stagedBytes) >= nextBoundingAt {
            if flushStaging() { bound(to: maxBytes) }
        }
        // The block header goes straight into the staging buffer (no array a
        // chunk: the writer allocates nothing in its steady state).
        let headerStart = headers.count
        headers.appendLittleEndian(TraceFormat.chunkBlock)
        headers.appendLittleEndian(UInt32(end - start))
        headers.appendLittleEndian(thread.index)
        headers.appendLittleEndian(thread.nextSequence)
        headers.appendLittleEndian(count)
        headers.append(freshContext ? TraceFormat.freshContextFlag : 0)
        headers.append(0)
        headers.append(0)
        headers.append(0)
        let payload = UnsafeRawBufferPointer(start: segment.base + start, count: end - start)
        var crc = CRC32()
        headers.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[headerStart...])) }
        crc.update(payload)
        headers.appendLittleEndian(crc.value)
        pieces.append(Piece(headerStart: headerStart, segment: segment, start: start, end: end, events: count))
        stagedBytes += TraceFormat.blockHeaderLength + end - start
        segment.shippedOffset = end
        segment.shippedEvents = events
        thread.nextSequence &+= 1
        stagedEvents &+= UInt64(count)
        stagedChunks &+= 1
        if stagedBytes >= 4 << 20 || pieces.count >= 512 { _ = flushStaging() }
    }

    /// Writes the end block. When the disk has no room for it (after a write
    /// error, or at its own), the file is cut back by whole chunks, whose
    /// events count as dropped, until it fits: a trace with losses says how
    /// many events it lost. `stop()` reports the first write error.
    private func writeEndBlock() {
        var firstError = writeError
        while true {
            let start = bytesWritten
            var block = endBlock()
            let written = block.withUnsafeMutableBytes { bytes -> Bool in
                var vector = [iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)]
                return writeAll(&vector)
            }
            if written { break }
            if firstError == 0 {
                firstError = writeError
                reportWriteError()
            }
            // The disk took the file up to `bytesWritten`: a file that ends
            // there fits. Past the chunk ends kept, only the header's end is left.
            let reached = bytesWritten
            var cut = chunkEnds.filter { end in
                end.offset >= headerEnd && end.offset < start && end.offset + UInt64(block.count) <= reached
            }.max { $0.offset < $1.offset }
            if cut == nil, start > headerEnd { cut = BlockEnd(offset: headerEnd, events: 0, chunks: 0) }
            guard let cut, cutBack(to: cut.offset) else {
                _ = cutBack(to: start)
                break
            }
            eventsLost &+= eventsWritten &- cut.events
            eventsWritten = cut.events
            chunksWritten = cut.chunks
        }
        writeError = firstError
    }

    /// The end block: what the file holds, what was dropped, how the recording ended.
    private func endBlock() -> [UInt8] {
        endBlock(events: eventsWritten, chunks: chunksWritten, dropped: eventsLost, termination: termination)
    }

    /// An end block with the given counts, at the current time.
    func endBlock(events: UInt64, chunks: UInt64, dropped: UInt64, termination: TraceTermination) -> [UInt8] {
        var payload: [UInt8] = []
        payload.appendLittleEndian(events)
        payload.appendLittleEndian(chunks)
        payload.appendLittleEndian(time.now())
        payload.appendLittleEndian(threads.withLock { _ in threadCount })
        payload.appendLittleEndian(dropped)
        payload.appendLittleEndian(termination.code)
        var block: [UInt8] = []
        block.appendLittleEndian(TraceFormat.endBlock)
        block.appendLittleEndian(UInt32(payload.count))
        block.append(contentsOf: [UInt8](repeating: 0, count: 16))
        var crc = CRC32()
        block.withUnsafeBytes { crc.update($0) }
        payload.withUnsafeBytes { crc.update($0) }
        block.appendLittleEndian(crc.value)
        return block + payload
    }

    /// Stages bytes that are not in a segment (the header).
    private func stage(_ bytes: [UInt8]) {
        pieces.append(Piece(headerStart: headers.count, segment: nil, start: 0, end: 0, events: 0))
        headers.append(contentsOf: bytes)
        stagedBytes += bytes.count
    }

    /// Writes the staged pieces in order with `writev`; after a write error,
    /// later bytes are discarded (a trace with a hole would be misread) and the
    /// error is kept for `stop()`.
    private func flushStaging() -> Bool {
        defer {
            headers.removeAll(keepingCapacity: true)
            pieces.removeAll(keepingCapacity: true)
            stagedBytes = 0
            stagedEvents = 0
            stagedChunks = 0
        }
        guard writeError == 0 else {
            eventsLost &+= stagedEvents
            return false
        }
        guard !pieces.isEmpty else { return true }
        let cleanLength = bytesWritten
        let written = headers.withUnsafeMutableBytes { headerBytes -> Bool in
            vectors.removeAll(keepingCapacity: true)
            vectors.reserveCapacity(pieces.count * 2)
            for (index, piece) in pieces.enumerated() {
                let headerEnd: Int
                if piece.segment != nil {
                    headerEnd = piece.headerStart + TraceFormat.blockHeaderLength
                } else {
                    headerEnd = index + 1 < pieces.count ? pieces[index + 1].headerStart : headerBytes.count
                }
                vectors.append(iovec(iov_base: headerBytes.baseAddress! + piece.headerStart,
                                     iov_len: headerEnd - piece.headerStart))
                if let segment = piece.segment {
                    vectors.append(iovec(iov_base: UnsafeMutableRawPointer(segment.base + piece.start),
                                         iov_len: piece.end - piece.start))
                }
            }
            return writeAll(&vectors)
        }
        if written {
            noteChunkEnds(from: cleanLength)
            eventsWritten &+= stagedEvents
            chunksWritten &+= stagedChunks
        } else {
            eventsLost &+= stagedEvents
            reportWriteError()
            _ = cutBack(to: cleanLength)
        }
        return written
    }

    /// Keeps where each chunk of the batch just written at `start` ends.
    private func noteChunkEnds(from start: UInt64) {
        var end = BlockEnd(offset: start, events: eventsWritten, chunks: chunksWritten)
        for (index, piece) in pieces.enumerated() {
            guard piece.segment != nil else {
                let next = index + 1 < pieces.count ? pieces[index + 1].headerStart : headers.count
                end.offset &+= UInt64(next - piece.headerStart)
                continue
            }
            end.offset &+= UInt64(TraceFormat.blockHeaderLength + piece.end - piece.start)
            end.events &+= UInt64(piece.events)
            end.chunks &+= 1
            chunkEnds[nextChunkEnd] = end
            nextChunkEnd = nextChunkEnd + 1 == chunkEnds.count ? 0 : nextChunkEnd + 1
        }
    }

    /// The first write error: one line on stderr.
    func reportWriteError() {
        guard reportsWriteErrors else { return }
        let line = "ReactorTrace: cannot write \(path): \(String(cString: strerror(writeError))); "
            + "the app goes on, its events are no longer recorded\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// Cuts the file back to `length`, the end of a whole block, so that what
    /// is in it reads and the end block can follow; false if it cannot be cut.
    private func cutBack(to length: UInt64) -> Bool {
        // Before the writer runs, the one write is the header's: its failure is `init`'s error.
        guard reportsWriteErrors else { return false }
        guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else { return false }
        bytesWritten = length
        return true
    }

    /// `writev` until every vector is written (partial writes and EINTR resumed).
    private func writeAll(_ vectors: inout [iovec]) -> Bool {
        var first = 0
        while first < vectors.count {
            let batch = min(vectors.count - first, 1024)
            let written = vectors.withUnsafeBufferPointer { writev(descriptor, $0.baseAddress! + first, Int32(batch)) }
            if written < 0 {
                if errno == EINTR { continue }
                writeError = errno
                return false
            }
            bytesWritten &+= UInt64(written)
            var remaining = written
            while remaining > 0, first < vectors.count {
                if remaining >= vectors[first].iov_len {
                    remaining -= vectors[first].iov_len
                    first += 1
                } else {
                    vectors[first].iov_base += remaining
                    vectors[first].iov_len -= remaining
                    remaining = 0
                }
            }
            while first < vectors.count, vectors[first].iov_len == 0 { first += 1 }
        }
        return true
    }
}
