import Dispatch
import Foundation
import ReactorCore
import Synchronization
import Testing

/// A write that waits too long for the runtime's lock reports who holds it.
/// Deterministic: the holder blocks until the test has seen the report.
@Suite(.serialized)
struct LockWaitThreadTests {
    @Test func aWriteThatWaitsPastTheThresholdNamesTheComputationHoldingTheLock() throws {
        // The issue's fields: `ReactorIssue` is not Sendable (it may carry a computation).
        let reports = LockWaitReports()
        let reported = DispatchSemaphore(value: 0)
        let savedThreshold = Reactor.lockWaitThreshold, savedHandler = Reactor.lockWaitHandler
        Reactor.lockWaitThreshold = .milliseconds(20)
        Reactor.lockWaitHandler = { issue in
            guard case let .lockWait(holder, _, waited) = issue else { return }
            let description = issue.description
            reports.append((holder, waited, description))
            reported.signal()
        }
        defer {
            Reactor.lockWaitThreshold = savedThreshold
            Reactor.lockWaitHandler = savedHandler
        }

        let reactor = Reactor(scheduler: .manual)
        let dependency = Dependency("shared")
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holderID = HolderID()
        let holder = Thread {
            // Its first run holds the lock until the test lets it go.
            reactor.autorun("blocking") { computation in
                holderID.value.store(computation.id, ordering: .releasing)
                entered.signal()
                release.wait()
            }
        }
        holder.start()
        entered.wait()
        let writer = Thread {
            dependency.changed()  // waits for the lock the autorun holds
        }
        writer.start()
        // Wait for a report naming the holder (other suites' threads may contend too).
        let id = holderID.value.load(ordering: .acquiring)
        while true {
            reported.wait()
            let named = reports.all.contains { $0.holder == id }
            if named { break }
        }
        release.signal()
        let issue = try #require(reports.all.first { $0.holder == id })
        // Named by the autorun's name, not its id.
        #expect(issue.description.contains("held by the thread running computation 'blocking'"), "\(issue.description)")
        #expect(!issue.description.contains("#\(id)"))
        #expect(issue.description.contains("deadlock"))
        #expect(issue.waited == .milliseconds(20))
    }

    @Test func theThresholdIsConfigurableAndZeroTurnsItOff() {
        let saved = Reactor.lockWaitThreshold
        defer { Reactor.lockWaitThreshold = saved }
        #expect(saved == .seconds(1))
        Reactor.lockWaitThreshold = .milliseconds(250)
        #expect(Reactor.lockWaitThreshold == .milliseconds(250))
        Reactor.lockWaitThreshold = .zero
        #expect(Reactor.lockWaitThreshold == .zero)
    }
}

/// The lock-wait reports a test collects, behind an `NSLock` (a pthread mutex,
/// which ThreadSanitizer sees; it does not see inside `Synchronization.Mutex`).
/// `@unchecked Sendable`: `reports` is only touched with `lock` held.
final class LockWaitReports: @unchecked Sendable {
    typealias Report = (holder: UInt64, waited: Duration, description: String)
    private let lock = NSLock()
    private var reports: [Report] = []

    func append(_ report: Report) { lock.withLock { reports.append(report) } }
    var all: [Report] { lock.withLock { reports } }
}

/// The holding autorun's id, published by its thread (an atomic: ThreadSanitizer sees it).
final class HolderID: Sendable {
    let value = Atomic<UInt64>(0)
}
