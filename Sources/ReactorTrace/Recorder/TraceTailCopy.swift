import ReactorTraceFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies the most recent chunks of a trace file into a new file that reads on its own
/// (docs/TRACE_FORMAT.md, "Bounded recordings"): the header, the metadata block, a history
/// block saying what was left out, chunks restating the definitions of the nodes the
/// left-out events created (creation, name, site, latest value: what a reader needs to name
/// what the kept events refer to), then the kept chunks, renumbered, each thread's
/// starting at a fresh context. A bounded recording does it to its own file when it reaches
/// its bound (and renames the copy over it); ``TraceRecorder/snapshot(to:maxBytes:)`` does it to a new file.
///
/// Runs on the writer thread; it reads the source with `pread` and writes the copy with `write`.
struct TraceTailCopy {
    /// One block found walking the source.
    struct Block {
        var offset: UInt64
        var length: Int
        var thread: UInt32
        var events: UInt32
        var flags: UInt8
        var isChunk: Bool
        var isFresh: Bool { flags & TraceFormat.freshContextFlag != 0 }
        var isDefinitions: Bool { flags & TraceFormat.definitionsFlag != 0 }
    }

    /// What the copy holds.
    struct Result {
        /// The copy's length in bytes.
        var length: UInt64
        /// Where the copy's chunks begin (after header, metadata and history).
        var dataStart: UInt64
        /// Events and chunks in the copy (restated definitions included).
        var events: UInt64
        var chunks: UInt64
        /// The history the copy's history block holds.
        var history: TraceHistory
        /// Per thread, how many chunks of it the copy holds: its next chunk's sequence.
        var nextSequence: [UInt32: UInt32]
    }

    /// What a definition restates about one node.
    private struct Definition {
        var thread: UInt32
        var time: UInt64
        var created: (kind: TraceNodeKind, name: String, parent: UInt64)?
        var named: (name: String, owner: UInt64)?
        var site: String?
        var value: String?
    }

    let source: Int32
    let sourceLength: UInt64
    /// The header's bytes, as the source starts.
    let header: [UInt8]
    /// Where the source's chunks begin.
    let dataStart: UInt64
    let metadata: TraceMetadata
    /// What the source had already left out (nil: an unbounded recording's).
    let history: TraceHistory?
    /// The copy's bound, written in its history block.
    let maxBytes: UInt64

    /// Walks the source's blocks from `dataStart` to its end; nil when they do not end
    /// exactly there (a read failed: `errno` says why; or the source is not what the writer wrote).
    func blocks() -> [Block]? {
        var result: [Block] = []
        var offset = dataStart
        var header = [UInt8](repeating: 0, count: TraceFormat.blockHeaderLength)
        while offset + UInt64(TraceFormat.blockHeaderLength) <= sourceLength {
            guard readAll(&header, at: offset) else { break }
            func field(_ at: Int) -> UInt32 {
                UInt32(header[at]) | UInt32(header[at + 1]) << 8 | UInt32(header[at + 2]) << 16 | UInt32(header[at + 3]) << 24
            }
            let length = Int(field(4))
            guard length <= TraceFormat.maxPayloadLength,
                  offset + UInt64(TraceFormat.blockHeaderLength + length) <= sourceLength else { break }
            let (type, thread, events) = (field(0), field(8), field(16))
            result.append(Block(offset: offset, length: TraceFormat.blockHeaderLength + length, thread: thread,
                                events: events, flags: header[20], isChunk: type == TraceFormat.chunkBlock))
            offset += UInt64(TraceFormat.blockHeaderLength + length)
        }
        if offset != sourceLength && errno == 0 { errno = EIO }
        return offset == sourceLength ? result : nil
    }

    /// Which chunks to keep so that the copy's chunks take about `keepBytes` (the chunks
    /// from the first one that starts within the last `keepBytes` of the source), each
    /// thread's kept chunks starting at a fresh context. A thread in `liveThreads` with
    /// nothing that recent keeps its open context, which its next chunks continue.
    static func kept(_ blocks: [Block], keepBytes: UInt64, sourceLength: UInt64, liveThreads: Set<UInt32>) -> [Bool] {
        let cutOffset = sourceLength > keepBytes ? sourceLength - keepBytes : 0
        let cut = blocks.firstIndex { $0.offset >= cutOffset } ?? blocks.count
        var lastFresh: [UInt32: Int] = [:]
        var start: [UInt32: Int] = [:]
        for (index, block) in blocks.enumerated() where block.isChunk && !block.isDefinitions {
            if block.isFresh { lastFresh[block.thread] = index }
            if index >= cut, start[block.thread] == nil { start[block.thread] = lastFresh[block.thread] ?? index }
        }
        for (thread, index) in lastFresh where start[thread] == nil && liveThreads.contains(thread) {
            start[thread] = index
        }
        return blocks.enumerated().map { index, block in
            guard block.isChunk, !block.isDefinitions, let first = start[block.thread] else { return false }
            return index >= first
        }
    }

    /// Writes the copy to `output`, keeping the chunks `kept` marks; nil when a read or write fails (`errno` says why).
    func write(to output: Int32, blocks: [Block], kept: [Bool]) -> Result? {
        // What the left-out chunks defined and how much history they were.
        let replayer = TraceChunkReplayer()
        var definitions: [UInt64: Definition] = [:]
        var lastTime: [UInt32: UInt64] = [:]
        var history = history ?? TraceHistory(maxBytes: maxBytes)
        history.maxBytes = maxBytes
        var firstTime: UInt64?, latestTime: UInt64 = history.lastOverwrittenNanoseconds
        let overwrittenBefore = history.eventsOverwritten
        var droppedAny = false
        var payload: [UInt8] = []
        for (index, block) in blocks.enumerated() where block.isChunk && !kept[index] {
            payload = [UInt8](repeating: 0, count: block.length)
            guard readAll(&payload, at: block.offset) else { return nil }
            let counts = !block.isDefinitions
            let decoded = payload.withUnsafeBufferPointer { bytes in
                replayer.replay(UnsafeBufferPointer(rebasing: bytes[TraceFormat.blockHeaderLength...]),
                                thread: block.thread, count: Int(block.events), fresh: block.isFresh) { event in
                    Self.fold(event, into: &definitions)
                    lastTime[event.thread] = max(lastTime[event.thread] ?? 0, event.timestamp)
                    if counts {
                        firstTime = min(firstTime ?? event.timestamp, event.timestamp)
                        latestTime = max(latestTime, event.timestamp)
                    }
                }
            }
            // A chunk that does not decode (it cannot: the writer wrote it) restates nothing; its events still count.
            _ = decoded
            if counts {
                droppedAny = true
                history.eventsOverwritten &+= UInt64(block.events)
                history.chunksOverwritten &+= 1
            }
        }
        if droppedAny {
            if overwrittenBefore == 0 { history.firstOverwrittenNanoseconds = firstTime ?? 0 }
            history.lastOverwrittenNanoseconds = latestTime
            history.compactions &+= 1
        }

        var writer = OutputFile(descriptor: output)
        writer.append(header)
        writer.appendBlock(type: TraceFormat.metadataBlock, payload: metadata.encodedPayload())
        writer.appendBlock(type: TraceFormat.historyBlock, payload: history.encodedPayload())
        let dataStart = writer.length
        var sequence: [UInt32: UInt32] = [:]
        var events: UInt64 = 0, chunks: UInt64 = 0
        let keptThreads = Set(blocks.indices.filter { kept[$0] }.map { blocks[$0].thread })
        for chunk in Self.definitionChunks(definitions, lastTime: lastTime, threadsGoingOn: keptThreads) {
            let number = sequence[chunk.thread, default: 0]
            writer.appendChunk(thread: chunk.thread, sequence: number, events: chunk.encoder.count,
                               flags: TraceFormat.freshContextFlag | TraceFormat.definitionsFlag, payload: chunk.encoder.bytes)
            sequence[chunk.thread] = number + 1
            events &+= UInt64(chunk.encoder.count)
            chunks &+= 1
        }
        for (index, block) in blocks.enumerated() where kept[index] {
            payload = [UInt8](repeating: 0, count: block.length)
            guard readAll(&payload, at: block.offset) else { return nil }
            let number = sequence[block.thread, default: 0]
            writer.appendChunk(thread: block.thread, sequence: number, events: block.events, flags: block.flags,
                               payload: payload[TraceFormat.blockHeaderLength...])
            sequence[block.thread] = number + 1
            events &+= UInt64(block.events)
            chunks &+= 1
            if !writer.flushIfLarge() { return nil }
        }
        guard writer.flush() else { return nil }
        return Result(length: writer.length, dataStart: dataStart, events: events, chunks: chunks, history: history,
                      nextSequence: sequence)
    }

    /// Folds one left-out event into the definitions: what it created, named, placed or set, less what it stopped.
    private static func fold(_ event: TraceEvent, into definitions: inout [UInt64: Definition]) {
        func entry(_ id: UInt64) -> Definition { definitions[id] ?? Definition(thread: event.thread, time: event.timestamp) }
        switch event.record {
        case let .nodeCreated(id, kind, name, parent):
            var definition = Definition(thread: event.thread, time: event.timestamp)
            definition.created = (kind, name, parent)
            definition.named = definitions[id]?.named
            definitions[id] = definition
        case let .nodeNamed(id, name, owner):
            var definition = entry(id)
            definition.named = (name, owner)
            definitions[id] = definition
        case let .nodeStopped(id):
            definitions[id] = nil
        case let .value(node, value):
            var definition = entry(node)
            definition.value = value
            definitions[node] = definition
        case let .site(node, site, isActionCall) where !isActionCall:
            var definition = entry(node)
            definition.site = site
            definitions[node] = definition
        default:
            break
        }
    }

    /// The definitions as chunks, one context per thread (more when one would pass the
    /// largest payload), in each thread's order of time. A thread whose chunks go on
    /// after them ends its definitions with a clock event at its last left-out time, so
    /// that its first kept event never reads as earlier.
    private static func definitionChunks(_ definitions: [UInt64: Definition], lastTime: [UInt32: UInt64],
                                         threadsGoingOn: Set<UInt32>) -> [(thread: UInt32, encoder: TraceChunkEncoder)] {
        var byThread: [UInt32: [(id: UInt64, definition: Definition)]] = [:]
        for (id, definition) in definitions { byThread[definition.thread, default: []].append((id, definition)) }
        for thread in threadsGoingOn where byThread[thread] == nil && lastTime[thread] != nil { byThread[thread] = [] }
        var chunks: [(thread: UInt32, encoder: TraceChunkEncoder)] = []
        for thread in byThread.keys.sorted() {
            let entries = byThread[thread]!.sorted { ($0.definition.time, $0.id) < ($1.definition.time, $1.id) }
            var encoder = TraceChunkEncoder()
            encoder.clock(entries.first?.definition.time ?? lastTime[thread] ?? 0)
            for (id, definition) in entries {
                if encoder.bytes.count > TraceFormat.maxPayloadLength - 3 * TraceFormat.maxStringLength - 64 {
                    chunks.append((thread, encoder))
                    encoder = TraceChunkEncoder()
                    encoder.clock(definition.time)
                }
                if let created = definition.created {
                    encoder.created(id: id, kind: created.kind, name: created.name, parent: created.parent, at: definition.time)
                }
                if let named = definition.named { encoder.named(id: id, name: named.name, owner: named.owner) }
                if let site = definition.site { encoder.site(node: id, site) }
                if let value = definition.value { encoder.value(node: id, value) }
            }
            if threadsGoingOn.contains(thread), let last = lastTime[thread] { encoder.clock(last) }
            chunks.append((thread, encoder))
        }
        return chunks
    }

    /// Fills `buffer` from the source at `offset`; false on a short read.
    private func readAll(_ buffer: inout [UInt8], at offset: UInt64) -> Bool {
        let count = buffer.count
        return buffer.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < count {
                let read = pread(source, bytes.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { return false }
                done += read
            }
            return true
        }
    }
}

/// The copy being written: blocks are staged and written in batches of a few MiB.
private struct OutputFile {
    let descriptor: Int32
    var staged: [UInt8] = []
    private(set) var length: UInt64 = 0
    private var failed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    mutating func append(_ bytes: [UInt8]) {
        staged.append(contentsOf: bytes)
        length += UInt64(bytes.count)
    }

    /// A block that is not a chunk: thread, sequence, count and flags 0.
    mutating func appendBlock(type: UInt32, payload: [UInt8]) {
        appendHeader(type: type, length: payload.count, thread: 0, sequence: 0, events: 0, flags: 0, payload: payload[...])
    }

    mutating func appendChunk<Payload: RandomAccessCollection>(thread: UInt32, sequence: UInt32, events: UInt32,
                                                             flags: UInt8, payload: Payload) where Payload.Element == UInt8 {
        appendHeader(type: TraceFormat.chunkBlock, length: payload.count, thread: thread, sequence: sequence,
                     events: events, flags: flags, payload: payload)
    }

    private mutating func appendHeader<Payload: RandomAccessCollection>(
        type: UInt32, length: Int, thread: UInt32, sequence: UInt32, events: UInt32, flags: UInt8, payload: Payload
    ) where Payload.Element == UInt8 {
        let start = staged.count
        staged.appendLittleEndian(type)
        staged.appendLittleEndian(UInt32(length))
        staged.appendLittleEndian(thread)
        staged.appendLittleEndian(sequence)
        staged.appendLittleEndian(events)
        staged.append(contentsOf: [flags, 0, 0, 0])
        staged.append(contentsOf: payload)
        var crc = CRC32()
        staged.withUnsafeBytes { bytes in
            crc.update(UnsafeRawBufferPointer(rebasing: bytes[start..<start + 24]))
            crc.update(UnsafeRawBufferPointer(rebasing: bytes[(start + 24)...]))
        }
        staged.insert(contentsOf: withUnsafeBytes(of: crc.value.littleEndian) { Array($0) }, at: start + 24)
        self.length += UInt64(TraceFormat.blockHeaderLength + length)
    }

    mutating func flushIfLarge() -> Bool {
        staged.count >= 4 << 20 ? flush() : !failed
    }

    mutating func flush() -> Bool {
        guard !failed else { return false }
        let written = staged.withUnsafeBytes { bytes -> Bool in
            var done = 0
            while done < bytes.count {
                let result = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return false }
                done += result
            }
            return true
        }
        staged.removeAll(keepingCapacity: true)
        failed = !written
        return written
    }
}

extension TraceTailCopy {
    /// A block that is not a chunk (thread, sequence, count and flags 0), header and CRC included.
    static func encodeBlock(type: UInt32, payload: [UInt8]) -> [UInt8] {
        var file = OutputFile(descriptor: -1)
        file.appendBlock(type: type, payload: payload)
        return file.staged
    }
}
