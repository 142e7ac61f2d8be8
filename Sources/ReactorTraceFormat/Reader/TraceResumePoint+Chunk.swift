extension TraceResumePoint {
    /// A point from which a reader reads the one chunk of `thread` whose block begins at
    /// `offset`: with that thread's context of `previous` (a point after the thread's chunk
    /// before it, read the same way), else a context as the chunk before it left it for a
    /// chunk that opens a fresh one (`nextSequence`, the chunk's sequence number, and
    /// `eventTime`, the thread's latest event's time). No other thread's context: a chunk of
    /// another thread read from it fails as corrupt, never decodes wrong.
    package static func chunk(at offset: Int, thread: UInt32, continuing previous: TraceResumePoint?,
                              nextSequence: UInt32, eventTime: UInt64) -> TraceResumePoint {
        let context = previous?.contexts[thread] ?? ChunkDecoder.Context(nextSequence: nextSequence, eventTime: eventTime)
        return TraceResumePoint(offset: offset, eventsRead: 0, skippedEvents: 0, clockEvents: 0, chunksRead: 0,
                                definitionEvents: 0, contexts: [thread: context])
    }
}
