/// Where a ``TraceReader`` stands between two chunks: the offset of the next
/// block and each thread's decoding context (registers and tables, which a
/// chunk without the fresh-context flag continues), with the counts read so
/// far. A reader opened with ``TraceReader/init(path:resumingAt:)`` reads on
/// from there as the reader it was taken from would: an index can start a
/// question in the middle of a trace.
///
/// Its bytes (``encoded()``) hold the strings the contexts defined: names,
/// sites and values the trace itself holds, nothing else.
public struct TraceResumePoint: Sendable, Equatable {
    /// The file offset of the next block.
    public let offset: Int
    /// Events handed out so far (``TraceReader/eventsRead``).
    public let eventsRead: Int
    /// ``TraceReader/skippedEvents`` so far.
    public let skippedEvents: Int
    /// ``TraceReader/clockEvents`` so far.
    public let clockEvents: Int
    /// ``TraceReader/chunksRead`` so far.
    public let chunksRead: Int
    /// ``TraceReader/definitionEvents`` so far.
    public let definitionEvents: Int
    let contexts: [UInt32: ChunkDecoder.Context]

    init(offset: Int, eventsRead: Int, skippedEvents: Int, clockEvents: Int, chunksRead: Int, definitionEvents: Int,
         contexts: [UInt32: ChunkDecoder.Context]) {
        self.offset = offset
        self.eventsRead = eventsRead
        self.skippedEvents = skippedEvents
        self.clockEvents = clockEvents
        self.chunksRead = chunksRead
        self.definitionEvents = definitionEvents
        self.contexts = contexts
    }

    /// Threads with a context.
    public var threadCount: Int { contexts.count }

    /// The point as bytes: varints, and each context's strings as UTF-8.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        func put(_ value: UInt64) { Varint.append(value, to: &bytes) }
        func put(_ value: Int) { put(UInt64(max(0, value))) }
        put(offset); put(eventsRead); put(skippedEvents); put(clockEvents); put(chunksRead); put(definitionEvents)
        put(contexts.count)
        for (thread, context) in contexts.sorted(by: { $0.key < $1.key }) {
            put(UInt64(thread)); put(UInt64(context.nextSequence)); put(context.time); put(context.eventTime)
            put(context.computation); put(context.dependency); put(context.node); put(context.valueNode)
            put(context.strings.count)
            for string in context.strings {
                let utf8 = Array(string.utf8)
                put(utf8.count)
                bytes.append(contentsOf: utf8)
            }
            for table in [context.stringEntries, context.valueEntries, context.siteEntries] {
                put(table.count)
                for entry in table { put(UInt64(entry)) }
            }
        }
        return bytes
    }

    /// Decodes ``encoded()`` bytes; nil for bytes that are not such a point
    /// (cut short, bytes left over, a count larger than the bytes left, a table
    /// entry naming no string). Never traps on any input.
    public init?(encoded bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        func next() -> UInt64? { reader.readVarint() }
        func int(atMost limit: Int = Int.max) -> Int? {
            guard let value = next(), value <= UInt64(limit) else { return nil }
            return Int(value)
        }
        guard let offset = int(), let eventsRead = int(), let skipped = int(), let clocks = int(),
              let chunks = int(), let definitions = int(), let threads = int(atMost: reader.readableBytes)
        else { return nil }
        var contexts: [UInt32: ChunkDecoder.Context] = [:]
        for _ in 0..<threads {
            guard let thread = int(atMost: Int(UInt32.max)), contexts[UInt32(thread)] == nil,
                  let sequence = int(atMost: Int(UInt32.max)), let time = next(), let eventTime = next(),
                  let computation = next(), let dependency = next(), let node = next(), let valueNode = next(),
                  let stringCount = int(atMost: reader.readableBytes)
            else { return nil }
            var context = ChunkDecoder.Context(nextSequence: UInt32(sequence), eventTime: eventTime)
            context.time = time
            context.computation = computation
            context.dependency = dependency
            context.node = node
            context.valueNode = valueNode
            context.strings.reserveCapacity(stringCount)
            for _ in 0..<stringCount {
                guard let length = int(atMost: reader.readableBytes), let string = reader.readString(length) else {
                    return nil
                }
                context.strings.append(string)
            }
            var tables: [[UInt32]] = []
            for _ in 0..<3 {
                guard let count = int(atMost: reader.readableBytes) else { return nil }
                var table: [UInt32] = []
                table.reserveCapacity(count)
                for _ in 0..<count {
                    // An entry names one of the context's strings: the decoder indexes them unchecked.
                    guard stringCount > 0, let entry = int(atMost: stringCount - 1) else { return nil }
                    table.append(UInt32(entry))
                }
                tables.append(table)
            }
            context.stringEntries = tables[0]
            context.valueEntries = tables[1]
            context.siteEntries = tables[2]
            contexts[UInt32(thread)] = context
        }
        guard reader.readableBytes == 0 else { return nil }
        self.init(offset: offset, eventsRead: eventsRead, skippedEvents: skipped, clockEvents: clocks,
                  chunksRead: chunks, definitionEvents: definitions, contexts: contexts)
    }
}
