import ReactorTraceFormat
import Synchronization

/// One question's reading of a trace, as its asker sees it: how many events
/// its passes have read (progress), a flag that stops them (cancel), and how
/// far into the file they may read. Set around the question with
/// ``run(_:)``: every pass ``TraceFile`` makes inside (``TraceFile/forEachBatch(path:progressEvery:progress:_:)``
/// and all built on it, the index's passes included) reads under it.
///
/// `serve` asks its on-demand questions this way: the page shows the events
/// read, its Cancel button (or a client that leaves) sets the flag, and each
/// pass checks it between batches and throws, so the worker is free within a
/// batch's time; the byte limit is what its follower has read (``LiveTrace/bytesRead``),
/// so the answer is the one a pass over exactly those bytes gives, the same
/// bytes the live model and its index (``LiveTrace/index()``) describe.
public final class TracePass: Sendable {
    /// How far into the file the passes read (nil: as far as the file is long when each begins).
    public var byteLimit: Int? {
        let limit = limitStorage.load(ordering: .acquiring)
        return limit == .max ? nil : limit
    }
    private let limitStorage: Atomic<Int>
    private let cancelled = Atomic<Bool>(false)
    private let events = Atomic<Int>(0)

    /// The pass set around the current question, if any.
    @TaskLocal static var current: TracePass?

    /// A pass reading at most `byteLimit` bytes of the file (nil: all there is when it begins).
    public init(byteLimit: Int? = nil) {
        limitStorage = Atomic(byteLimit.map { max(0, $0) } ?? .max)
    }

    /// Sets how far the passes read, before the first begins (a question
    /// waiting for its worker reads what was read when it starts).
    public func limit(to byteLimit: Int?) {
        limitStorage.store(byteLimit.map { max(0, $0) } ?? .max, ordering: .releasing)
    }

    /// Runs `question` with this pass set for every read of a trace it makes (on this thread).
    public func run<Answer, Failure: Error>(_ question: () throws(Failure) -> Answer) throws(Failure) -> Answer {
        let answer = Self.$current.withValue(self) { Result { () throws(Failure) in try question() } }
        return try answer.get()
    }

    /// Stops the passes at their next batch: they throw ``TraceFileError`` (``isCancelled`` says why).
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Events read so far by every pass of the question (a second pass counts on from the first).
    public var eventsRead: Int { events.load(ordering: .relaxed) }

    /// Counts a batch read and throws once cancelled.
    func read(_ count: Int, path: String) throws(TraceFileError) {
        events.add(count, ordering: .relaxed)
        if isCancelled { throw Self.cancellation(path: path) }
    }

    /// The error a cancelled pass throws.
    static func cancellation(path: String) -> TraceFileError {
        TraceFileError(path: path, reason: .unreadable(path: path, reason: "reading was cancelled"))
    }

    /// Opens the trace at `path` for a pass: up to the current pass's byte limit, if any.
    static func reader(path: String, resumingAt point: TraceResumePoint? = nil) throws(TraceFileError) -> TraceReader {
        let pass = current
        if let pass, pass.isCancelled { throw cancellation(path: path) }
        do {
            if let point { return try TraceReader(path: path, resumingAt: point, upTo: pass?.byteLimit) }
            if let limit = pass?.byteLimit { return try TraceReader(path: path, upTo: limit) }
            return try TraceReader(path: path)
        } catch {
            throw TraceFileError(path: path, reason: error)
        }
    }
}
