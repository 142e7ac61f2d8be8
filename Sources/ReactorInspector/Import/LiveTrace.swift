#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorTraceFormat

/// Follows a trace file while the app records it, for the live view (`top`):
/// each ``poll(maxEvents:)`` reads the chunks that have landed since
/// the last one into one ``TraceModelBuilder``, and ``model()`` is the model
/// of the trace so far — the same model every other command reads.
///
/// It waits for a file that does not exist yet (or whose header is not yet
/// written), and never takes a block written only in part for damage (see
/// ``TraceReader/init(following:)``). A header that stays incomplete for
/// `headerPatience` is damage, not a recording: the recorder writes the
/// whole header at once, as it creates the file.
///
/// It follows the file at `path`, not the one it opened: a file truncated
/// below what was read, replaced (another inode), rewritten in place (a
/// restarted app writes a header of its own) or removed is noticed at the
/// next poll, and the trace starts over (``generation`` goes up): the new
/// recording is read from its start, or, while there is no file, the status
/// says it was removed. Beside the model it keeps the most
/// recent actions with the dependencies they changed, read from the same
/// import (``ImportedEventVisitor``): actions are paired, and values resolved,
/// by the importer; nodes are named when a view draws them, by the model of
/// that moment. It makes no event lines: a line's old → new and names need
/// what a later chunk may hold (docs/METRICS.md), so a live view asks for
/// `replay`'s lines over the file as it then is (`serve`'s `/api/replay`).
///
/// Used from one thread at a time.
public final class LiveTrace {
    /// The file followed.
    public let path: String
    /// Where the recording stands.
    public private(set) var status: LiveTraceStatus
    /// Events read so far.
    public private(set) var eventsRead = 0
    /// The latest actions that ended, oldest first (at most `actionLimit`).
    public private(set) var recentActions: [LiveAction] = []
    /// Bytes of the file read so far.
    public var bytesRead: Int { reader?.bytesRead ?? 0 }
    /// The end block, once read (how the recording ended, what it lost).
    public var end: TraceEnd? { reader?.end }
    /// What the recording says about itself, once its metadata block is read.
    public var metadata: TraceMetadata { reader?.metadata ?? TraceMetadata() }
    /// A bounded recording's bound and what it overwrote, once its history block is read.
    public var history: TraceHistory? { reader?.history }
    /// Outermost actions begun so far: the N of the latest `action:N` (the importer's numbering).
    public var actionsBegun: Int { builder.outermostActionsBegun }
    /// Outermost actions ended so far.
    public var actionsEnded: Int { builder.outermostActionsEnded }
    /// How many distinct changed dependencies an action keeps.
    public static let changedLimit = 8
    /// Bumped each time the file turns out to be another recording (or gone)
    /// and the trace starts over; a view that keeps figures between polls
    /// (rates) starts them over too.
    public private(set) var generation = 0

    private var builder: TraceModelBuilder
    /// Each chunk read, where it ends and its times: the index of what was read (``index()``).
    private var collector = TraceIndexCollector()
    /// The timeline's sums of what was read (the live index's overview).
    private var overview = OverviewCollector()
    /// Snapshots of the builder as it follows (nil when its options take none, or without an index key).
    private var snapshotter: MomentSnapshotter?
    /// A fixed interval in bytes between snapshots, if given (else as the index's budget allows).
    private let snapshotInterval: UInt64?
    private let options: TraceModelOptions
    private var reader: TraceReader?
    /// What the opened file is: its device and inode, and its header's bytes.
    private var identity: (device: UInt64, inode: UInt64, header: [UInt8])?
    /// True once a file that was read is gone (until one appears again).
    private var removed = false
    /// When the file was last checked to be the one read (monotonic nanoseconds).
    private var lastIdentityCheck: UInt64 = 0
    /// How long a file may hold less than a whole header, without growing.
    private let headerPatience: Duration
    /// The size of a file seen without its whole header, and since when.
    private var incompleteHeader: (size: Int, since: ContinuousClock.Instant)?
    private let actionLimit: Int
    /// Open actions per thread: the innermost last.
    private var openActions: [UInt32: [OpenAction]] = [:]

    /// What an open action has changed so far.
    private struct OpenAction {
        var ordinal: Int
        var store: UInt64
        var name: String
        var arguments: String
        var beganAt: UInt64
        var changed: [UInt64] = []
        var values: [String?] = []
        var changeCount = 0
    }

    /// Hands the importer's events to the trace.
    private struct Feed: ImportedEventVisitor {
        unowned let trace: LiveTrace
        func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) { trace.take(event, importer) }
    }

    /// Follows the trace at `path` (which need not exist yet), keeping its latest
    /// `actionLimit` actions. A file that holds less than a whole header and has
    /// not grown for `headerPatience` is refused as truncated.
    ///
    /// With the default options the follower snapshots its builder as it reads,
    /// as the pass that builds a finished trace's index does (``index()``):
    /// every `snapshotInterval` bytes of the trace when given, else after at least
    /// 1 MiB and 25 times the last snapshot's size, into an unnamed temporary file.
    public init(path: String, options: TraceModelOptions = TraceModelOptions(), actionLimit: Int = 20,
                headerPatience: Duration = .seconds(2), snapshotInterval: UInt64? = nil) {
        self.path = path
        self.headerPatience = headerPatience
        // Values are tracked for the actions' changes.
        var options = options
        options.tracksValues = true
        self.options = options
        // Actions numbered, as an index's pass numbers them: its snapshots say how many had begun.
        let builder = TraceModelBuilder(options: options, numbersActions: true)
        self.builder = builder
        self.snapshotInterval = snapshotInterval ?? MomentSnapshotter.fixedInterval
        snapshotter = MomentSnapshotter(builder: builder, interval: self.snapshotInterval)
        self.actionLimit = max(0, actionLimit)
        status = .waiting("waiting for \(path) to appear")
    }

    /// Reads everything the file holds now, up to its current size (not what
    /// lands meanwhile: a fast recorder could keep a slow reader going forever).
    public func catchUp() throws(TraceFileError) {
        var information = stat()
        let size = stat(path, &information) == 0 ? Int(information.st_size) : 0
        // At least one poll, also of a finished trace: it notices a file replaced, rewritten or removed.
        while true {
            let before = (bytesRead, generation)
            try poll(maxEvents: 1 << 16)
            // Done at the size seen, or when nothing more is complete (a block still being written).
            if status.isOver || bytesRead >= size || (bytesRead == before.0 && generation == before.1) { break }
        }
    }

    /// The model of everything read so far.
    public func model() -> TraceModel {
        // Counted as a whole-file read counts them, so the totals match `summary`'s.
        var model = builder.finish()
        model.skippedEvents = reader?.skippedEvents ?? 0
        model.clockEvents = reader?.clockEvents ?? 0
        return model
    }

    /// The index of what was read so far: where each chunk ends and the times
    /// it holds, the figures a pass over the same bytes (``bytesRead``)
    /// reports, and the follower's snapshots so far. Given to such a pass
    /// (``TraceIndexUse/given(_:)`` with a ``TracePass`` of that byte limit), a
    /// question about a moment starts from the latest snapshot before it and
    /// reads only up to the chunk the moment needs, as with the index beside a
    /// finished trace; nil before the trace is opened. It may be used on
    /// another thread while the follower reads on.
    public func index() -> TraceIndex? {
        guard let reader else { return nil }
        let stillRecording = !reader.isFinished
        let report = TraceReadReport(path: path, events: eventsRead, truncation: reader.truncation,
                                     skippedEvents: reader.skippedEvents, clockEvents: reader.clockEvents,
                                     trailingBytesOffset: reader.trailingBytesOffset, end: reader.end,
                                     stillRecording: stillRecording, metadata: reader.metadata, history: reader.history)
        // Named by the bytes read: never compared with a file's identity, never written.
        var index = collector.index(identity: TraceIndex.Identity(size: UInt64(reader.bytesRead), headCRC: 0, tailCRC: 0),
                                    report: report)
        index.stillRecording = stillRecording
        if let moments = snapshotter?.moments(names: collector.names) { index.moments = moments }
        index.overview = overview.overview(open: TraceTimelineBuilder.open(in: builder, threads: builder.threadIndexes))
        return index
    }

    /// Reads what has landed since the last poll, up to about `maxEvents`
    /// events (whole chunks), and returns how many events it read. Throws for
    /// a file that can never be read as a trace (foreign, a newer major
    /// version, a directory, a header cut short that stopped growing); a
    /// missing file or an unfinished header is waited for.
    @discardableResult
    public func poll(maxEvents: Int = .max) throws(TraceFileError) -> Int {
        if reader != nil { checkIdentity() }
        guard let reader = try openedReader() else { return 0 }
        var count = 0
        while count < maxEvents, (try? reader.nextBatch({ batch in
            consume(batch)
            collector.add(batch)
            count += batch.count
        })) == true {
            let batch = collector.finishBatch(endOffset: UInt64(reader.bytesRead))
            snapshotter?.ended(batch, builder: builder, reader: reader)
        }
        eventsRead += count
        if let truncation = reader.truncation {
            status = .damaged("reading stopped at byte \(truncation.offset): \(truncation)")
        } else if reader.isFinished {
            status = .finished
        } else if count == 0, !Self.processExists(reader.header.processID) {
            status = .stalled("the recording process (pid \(reader.header.processID)) is gone and the trace has no end block")
        }
        return count
    }

    /// Whether a process with this pid exists on this machine (`kill(pid, 0)`: no such
    /// process is ESRCH; one of another user's is EPERM, and exists). A trace written in
    /// another pid namespace (a container) or on another machine names a pid that means
    /// nothing here: with no such process, such a file reads as stalled once read to its end.
    static func processExists(_ pid: UInt32) -> Bool {
        guard pid > 0, pid <= UInt32(Int32.max) else { return false }
        return kill(pid_t(pid), 0) == 0 || errno != ESRCH
    }

    private func openedReader() throws(TraceFileError) -> TraceReader? {
        if let reader { return reader }
        var information = stat()
        guard stat(path, &information) == 0 else {
            status = .waiting(removed ? "the trace was removed: waiting for a new recording at \(path)" : "waiting for \(path) to appear")
            return nil
        }
        do {
            let opened = try TraceReader(following: path)
            reader = opened
            identity = (UInt64(information.st_dev), UInt64(information.st_ino), Self.firstBytes(of: path, count: opened.header.length))
            removed = false
            status = .recording
            return opened
        } catch {
            switch error {
            case .empty, .truncatedHeader:
                if headerStopped(growingAt: Int(information.st_size)) { throw TraceFileError(path: path, reason: error) }
                status = .waiting("waiting for the recorder to write \(path)'s header")
            default:
                throw TraceFileError(path: path, reason: error)
            }
        }
        return nil
    }

    /// Starts over when the file at `path` is no longer the recording being
    /// read: gone, another inode, shorter than what was read, or with another
    /// header (a recorder that truncated and rewrote it). At most every 50 ms:
    /// a reader catching up polls in a tight loop.
    private func checkIdentity() {
        let now = Self.monotonicNanoseconds()
        guard now &- lastIdentityCheck >= 50_000_000, let identity, let reader else { return }
        lastIdentityCheck = now
        var information = stat()
        guard stat(path, &information) == 0 else {
            startOver()
            removed = true
            return
        }
        let replaced = UInt64(information.st_dev) != identity.device || UInt64(information.st_ino) != identity.inode
        let shortened = Int(information.st_size) < reader.bytesRead
        if replaced || shortened || Self.firstBytes(of: path, count: identity.header.count) != identity.header {
            startOver()
        }
    }

    /// Forgets the recording read so far: the next poll opens the file anew.
    private func startOver() {
        reader = nil
        identity = nil
        incompleteHeader = nil
        builder = TraceModelBuilder(options: options, numbersActions: true)
        collector = TraceIndexCollector()
        overview = OverviewCollector()
        snapshotter = MomentSnapshotter(builder: builder, interval: snapshotInterval)
        openActions = [:]
        recentActions = []
        eventsRead = 0
        generation += 1
        status = .waiting("waiting for \(path) to appear")
    }

    /// The first `count` bytes of the file at `path` (fewer if it is shorter; none if it cannot be read).
    private static func firstBytes(of path: String, count: Int) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        return Array(bytes.prefix(max(0, got)))
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// True once the file has held the same incomplete header for `headerPatience`.
    private func headerStopped(growingAt size: Int) -> Bool {
        let now = ContinuousClock.now
        if let seen = incompleteHeader, seen.size == size { return seen.since.duration(to: now) >= headerPatience }
        incompleteHeader = (size, now)
        return false
    }

    private func consume(_ batch: borrowing TraceEventBatch) {
        var feed = Feed(trace: self)
        builder.consume(batch, visiting: &feed, marking: &overview)
        overview.took(events: batch.count)
    }

    /// Takes the next event as the importer resolved it.
    private func take(_ event: ImportedEvent, _ importer: TraceModelBuilder) {
        let thread = event.thread
        switch event.record {
        case let .actionBegan(store, name, arguments):
            // The importer's number, as for `action:N`; an action inside another shares the outermost one's.
            let outer = openActions[thread]?.first?.ordinal
            openActions[thread, default: []].append(
                OpenAction(ordinal: outer ?? importer.outermostActionsBegun, store: store, name: importer.string(name),
                           arguments: importer.string(arguments), beganAt: event.time))
        case let .actionEnded(store):
            // Where the importer paired the end with its beginning.
            guard let slice = event.slice, var stack = openActions[thread],
                  let index = stack.lastIndex(where: { $0.store == store }) else { break }
            let open = stack.remove(at: index)
            openActions[thread] = stack
            finish(open, duration: slice.durationNanoseconds)
        case let .changed(dependency):
            guard var stack = openActions[thread], !stack.isEmpty else { break }
            let top = stack.count - 1
            stack[top].changeCount += 1
            // The value the write recorded, as the importer resolved it: the latest one wins.
            let value = event.value == .changed ? importer.value(ofNode: event.node) : nil
            if let position = stack[top].changed.firstIndex(of: dependency) {
                if let value { stack[top].values[position] = value }
            } else if stack[top].changed.count < Self.changedLimit {
                stack[top].changed.append(dependency)
                stack[top].values.append(value)
            }
            openActions[thread] = stack
        default:
            break
        }
    }

    private func finish(_ open: OpenAction, duration: UInt64) {
        guard actionLimit > 0 else { return }
        recentActions.append(LiveAction(ordinal: open.ordinal, store: open.store, name: open.name, arguments: open.arguments,
                                        beganAt: open.beganAt, durationNanoseconds: duration,
                                        changed: open.changed, changeCount: open.changeCount, values: open.values))
        if recentActions.count > actionLimit { recentActions.removeFirst(recentActions.count - actionLimit) }
    }
}
