import Foundation

/// A second thread that runs a job at the same time as the calling thread, for
/// the two-thread benchmarks: one persistent thread woken by a semaphore, so an
/// iteration pays two semaphore hand-offs and no thread creation (and, unlike
/// `concurrentPerform`, never runs both halves on one thread).
final class ThreadPair: @unchecked Sendable {
    // Unchecked: `job` is written before `start` is signalled and read after it;
    // the semaphores order every access. The thread lives as long as the process.
    private var job: () -> Void = {}
    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [unowned self] in
            while true {
                start.wait()
                job()
                done.signal()
            }
        }
        thread.name = "benchmark.second"
        thread.start()
    }

    /// Runs `body(1)` on the second thread and `body(0)` on this one, and returns when both are done.
    func run(_ body: @escaping (Int) -> Void) {
        job = { body(1) }
        start.signal()
        body(0)
        done.wait()
    }
}
