import Foundation

/// The thread that inserts the import pass's rows into SQLite while the pass
/// goes on decoding: the pass hands it full ``RowBlock``s (``send(_:)``), it
/// inserts them in order through one ``SQLiteBulkInsert`` per table, and
/// ``finish()`` waits until every block is in. At most ``queueLimit`` blocks
/// wait, so a slow database holds the pass back instead of filling memory.
///
/// `@unchecked Sendable`: the connection and the inserters are used by the
/// thread alone from ``start()`` until ``finish()`` returns (the caller does
/// not touch the connection in between); the queue, the flags and the first
/// failure are guarded by `condition`.
final class TableInsertThread: @unchecked Sendable {
    /// Blocks waiting at most: about 16 MB of rows.
    static let queueLimit = 16

    private let inserters: [SQLiteBulkInsert]
    private let condition = NSCondition()
    private var queue: [RowBlock?] = []
    private var head = 0
    private var closed = false
    private var running = false
    private var failure: TraceSQLError?

    init(inserters: [SQLiteBulkInsert]) {
        self.inserters = inserters
    }

    /// Starts the thread.
    func start() {
        condition.withLock { running = true }
        let thread = Thread { [self] in run() }
        thread.name = "reactor-inspect sql insert"
        thread.start()
    }

    /// Hands a block on, waiting while ``queueLimit`` blocks wait.
    func send(_ block: RowBlock) {
        condition.withLock {
            while queue.count - head >= Self.queueLimit && running { condition.wait() }
            guard running else { return }
            queue.append(block)
            condition.broadcast()
        }
    }

    /// Waits until every block sent is inserted and the thread has ended;
    /// throws the first insert's failure. Safe to call more than once.
    func finish() throws(TraceSQLError) {
        let failed: TraceSQLError? = condition.withLock {
            closed = true
            condition.broadcast()
            while running { condition.wait() }
            return failure
        }
        if let failed { throw failed }
    }

    /// Drops the blocks still waiting and waits until the thread has ended
    /// (the import failed: what it would insert is rolled back).
    func cancel() {
        condition.withLock {
            queue.removeAll()
            head = 0
            closed = true
            condition.broadcast()
            while running { condition.wait() }
        }
    }

    private func run() {
        while let block = next() {
            do {
                try inserters[block.table].insert(block)
            } catch {
                condition.withLock {
                    if failure == nil { failure = error }
                    // Nothing more goes in: the import fails with this.
                    running = false
                    condition.broadcast()
                }
                return
            }
        }
        condition.withLock {
            running = false
            condition.broadcast()
        }
    }

    /// The next block, or nil once closed and drained (or failed).
    private func next() -> RowBlock? {
        condition.withLock {
            while head == queue.count && !closed && running { condition.wait() }
            guard running, head < queue.count else { return nil }
            let block = queue[head]
            queue[head] = nil
            head += 1
            if head > 64 {
                queue.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            return block
        }
    }
}
