/// The importer's flush tracker: each thread's open flushes and the finished
/// flushes' statistics. Flushes nest per thread; an end closes the innermost.
struct FlushTracker {
    /// Per thread, when each open flush began, innermost last.
    private(set) var openBegins: [[UInt64]] = []
    /// The finished flushes.
    private(set) var stats = FlushStats()

    init() {}

    /// The tracker as a checkpoint kept it.
    init(openBegins: [[UInt64]], stats: FlushStats) {
        self.openBegins = openBegins
        self.stats = stats
    }

    mutating func began(thread: Int, at time: UInt64) {
        if thread >= openBegins.count { openBegins.append(contentsOf: repeatElement([], count: thread - openBegins.count + 1)) }
        openBegins[thread].append(time)
    }

    /// Ends the innermost flush open on `thread`; returns when it began, or nil if none was open.
    mutating func ended(thread: Int, at time: UInt64) -> UInt64? {
        guard thread < openBegins.count, let begin = openBegins[thread].popLast() else { return nil }
        stats.record(time &- begin)
        return begin
    }

    /// Flushes begun and not ended, on every thread.
    var unfinished: Int { openBegins.reduce(0) { $0 + $1.count } }

    /// When each flush still open on `thread` began, outermost first.
    func open(onThread thread: Int) -> [UInt64] {
        thread < openBegins.count ? openBegins[thread] : []
    }
}
