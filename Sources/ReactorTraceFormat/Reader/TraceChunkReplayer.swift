/// Decodes chunks one at a time with each thread's context, for a writer that reads
/// back blocks it wrote (a bounded recording restating the definitions of what it drops).
package final class TraceChunkReplayer {
    private let decoder = ChunkDecoder()
    private var contexts: [UInt32: ChunkDecoder.Context] = [:]
    private var events = UnsafeMutablePointer<PlainTraceEvent>.allocate(capacity: 0)
    private var capacity = 0

    package init() {}

    deinit { events.deallocate() }

    /// Decodes a chunk's `count` events and hands each to `body`, strings resolved;
    /// false (and nothing handed) when the payload is malformed or continues a context
    /// this replayer has not seen.
    package func replay(_ payload: UnsafeBufferPointer<UInt8>, thread: UInt32, count: Int, fresh: Bool,
                        _ body: (TraceEvent) -> Void) -> Bool {
        let previous = contexts[thread]
        guard fresh || previous != nil else { return false }
        var context = fresh ? ChunkDecoder.Context(nextSequence: 0, eventTime: previous?.eventTime ?? 0) : previous!
        let needed = Swift.min(count, payload.count / 2)
        if needed > capacity {
            events.deallocate()
            capacity = Swift.max(needed, capacity * 2)
            events = .allocate(capacity: capacity)
        }
        guard count <= payload.count,
              let decoded = decoder.decode(payload, count: count, thread: thread, context: &context,
                                           into: events, capacity: needed) else { return false }
        contexts[thread] = context
        for index in 0..<decoded.stored { body(events[index].resolved(in: context.strings)) }
        return true
    }
}
