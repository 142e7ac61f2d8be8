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
        let reports = Mutex<[(holder: UInt64, waited: Duration, description: String)]>([])
        let reported = DispatchSemaphore(value: 0)
        let savedThreshold = Reactor.lockWaitThreshold, savedHandler = Reactor.lockWaitHandler
        Reactor.lockWaitThreshold = .milliseconds(20)
        Reactor.lockWaitHandler = { issue in
            guard case let .lockWait(holder, waited) = issue else { return }
            let description = issue.description
            reports.withLock { $0.append((holder, waited, description)) }
            reported.signal()
        }
        defer {
            Reactor.lockWaitThreshold = savedThreshold
            Reactor.lockWaitHandler = savedHandler
        }

        let reactor = Reactor(scheduler: .manual)
        let dependency = Dependency("shared")
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holderID = Mutex<UInt64>(0)
        let holder = Thread {
            // Its first run holds the lock until the test lets it go.
            reactor.autorun("blocking") { computation in
                holderID.withLock { $0 = computation.id }
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
        let id = holderID.withLock { $0 }
        while true {
            reported.wait()
            let named = reports.withLock { issues in issues.contains { $0.holder == id } }
            if named { break }
        }
        release.signal()
        let issue = try #require(reports.withLock { issues in issues.first { $0.holder == id } })
        #expect(issue.description.contains("computation #\(id)"))
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
