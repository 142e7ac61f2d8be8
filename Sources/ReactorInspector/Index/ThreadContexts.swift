import ReactorTraceFormat

/// The reader's context of each thread for reading chunks alone from their light points
/// (``IndexedLightPoints``): a chunk that does not open a fresh context (strings, times)
/// continues the one its thread's chunk before it left, so reading it needs that context:
/// the one kept from reading that chunk, or else rebuilt by reading quietly the thread's
/// chunks since its latest one that opened a fresh context.
struct ThreadContexts {
    /// Per chunk, the previous chunk of its thread (-1: none).
    private let previousOfThread: [Int]
    /// Per chunk, whether it opens a fresh context.
    private let fresh: [Bool]
    /// Per thread, the reader's point after the last chunk of it read, and which chunk that was.
    private var contexts: [UInt32: (chunk: Int, point: TraceResumePoint)] = [:]

    /// The contexts of the chunks `chunks` (each chunk's thread and whether it opens a fresh context, in order).
    init(_ chunks: some Sequence<(thread: UInt32, fresh: Bool)>) {
        var previousOfThread: [Int] = [], fresh: [Bool] = []
        var lastOfThread: [UInt32: Int] = [:]
        for (position, chunk) in chunks.enumerated() {
            previousOfThread.append(lastOfThread[chunk.thread] ?? -1)
            fresh.append(chunk.fresh)
            lastOfThread[chunk.thread] = position
        }
        self.previousOfThread = previousOfThread
        self.fresh = fresh
    }

    /// Why a context could not be had.
    enum Failure: Error, CustomStringConvertible {
        /// The chunks say a chunk continues a context no chunk before it opened.
        case noContext
        /// A chunk read quietly is not the one the index holds.
        case mismatch

        var description: String {
            switch self {
            case .noContext: TraceIndexError.damaged("a chunk with no context to read it in").description
            case .mismatch: "does not match the trace"
            }
        }
    }

    /// The context to read chunk `position` of `thread` in (nil: it opens a fresh one). When
    /// the chunk before it on its thread was not the last read of it, reads the thread's
    /// chunks since its latest fresh one with `readQuietly` (a chunk and the context it
    /// continues; the reader's point after it, nil when it is not the index's).
    func context(for position: Int, of thread: UInt32,
                 readQuietly: (Int, TraceResumePoint?) -> TraceResumePoint?) -> Result<TraceResumePoint?, Failure> {
        guard !fresh[position] else { return .success(nil) }
        if let known = contexts[thread], known.chunk == previousOfThread[position] { return .success(known.point) }
        var back = previousOfThread[position], replay: [Int] = []
        while back >= 0 {
            replay.append(back)
            if fresh[back] { break }
            back = previousOfThread[back]
        }
        guard back >= 0 else { return .failure(.noContext) }
        var previous: TraceResumePoint?
        for earlier in replay.reversed() {
            guard let after = readQuietly(earlier, previous) else { return .failure(.mismatch) }
            previous = after
        }
        return .success(previous)
    }

    /// Chunk `position` of `thread` was read, leaving the reader at `point`.
    mutating func read(_ position: Int, of thread: UInt32, leaving point: TraceResumePoint) {
        contexts[thread] = (position, point)
    }
}
