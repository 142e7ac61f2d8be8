import Testing
import ReactorCore

@Suite struct IssueTests {
    @Test func nestedFlushFromAnAfterFlushCallbackIsReportedAndIgnored() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let dependency = Dependency()
        var runs = 0
        reactor.autorun { _ in dependency.depend(); runs += 1 }
        reactor.afterFlush {
            dependency.changed()
            reactor.flush()  // ignored: the outer flush reruns the computation
            #expect(runs == 1)
        }
        reactor.flush()
        #expect(runs == 2)
        #expect(log.kinds == ["nestedFlush"])
    }

    @Test func flushInsideAComputationIsReportedAndIgnored() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let dependency = Dependency()
        var otherRuns = 0
        reactor.autorun { _ in dependency.depend(); otherRuns += 1 }
        dependency.changed()
        reactor.autorun { _ in reactor.flush() }
        #expect(otherRuns == 1)
        #expect(log.kinds == ["flushInsideComputation"])
        // Also inside nonreactive within a computation (Tracker's inCompute).
        reactor.autorun { _ in reactor.nonreactive { reactor.flush() } }
        #expect(log.kinds == ["flushInsideComputation", "flushInsideComputation"])
        reactor.flush()
        #expect(otherRuns == 2)
    }

    @Test func flushInsideAComputedIsReportedAndIgnored() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let dependency = Dependency()
        var otherRuns = 0
        reactor.autorun { _ in dependency.depend(); otherRuns += 1 }
        dependency.changed()
        let flushing = reactor.computed { () -> Int in
            reactor.flush()
            return 1
        }
        #expect(flushing.value == 1)
        #expect(otherRuns == 1)
        #expect(log.kinds == ["flushInsideComputation"])
        let flushingUntracked = reactor.computed { () -> Int in
            reactor.nonreactive { reactor.flush() }
            return 2
        }
        #expect(flushingUntracked.value == 2)
        #expect(log.kinds == ["flushInsideComputation", "flushInsideComputation"])
        reactor.flush()
        #expect(otherRuns == 2)
    }

    /// A computed that checks its sources runs no body of its own: a flush
    /// from a callback its check runs is inside a computation only if a
    /// computed below it on the refresh is deriving.
    @Test func flushFromACallbackDuringARefreshIsInsideAComputationOnlyBelowADerivingComputed() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let dependency = Dependency()
        var otherRuns = 0
        reactor.autorun { _ in dependency.depend(); otherRuns += 1 }
        let leafSource = Dependency()
        var leafValue = 0
        let leaf = reactor.computed { () -> Int in
            leafSource.depend()
            return leafValue
        }
        var flushesInCallback = 0
        let checking = reactor.computed { () -> Int in
            // Runs when `leaf`'s change reaches this computed while it checks.
            reactor.currentComputation?.onInvalidate { _ in
                flushesInCallback += 1
                reactor.flush()
            }
            return leaf.value + 1
        }
        let outer = reactor.computed { checking.value * 10 }
        #expect(outer.value == 10)

        // Read at the top: nothing derives while `checking` checks, so the flush runs.
        dependency.changed()
        leafValue = 1
        leafSource.changed()
        #expect(checking.value == 2)
        #expect(flushesInCallback == 1)
        #expect(otherRuns == 2)
        #expect(log.kinds.isEmpty)

        // Read by `outer`'s rerun, which derives below it on the refresh: reported.
        dependency.changed()
        leafValue = 2
        leafSource.changed()
        #expect(outer.value == 30)
        #expect(flushesInCallback == 2)
        #expect(otherRuns == 2)
        #expect(log.kinds == ["flushInsideComputation"])
        reactor.flush()
        #expect(otherRuns == 3)
    }

    @Test func uncaughtErrorOnARerunLetsTheFlushGoOn() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let dependency = Dependency()
        var before = 0, after = 0
        reactor.autorun { _ in dependency.depend(); before += 1 }
        let failing = reactor.autorun("failing") { c in
            dependency.depend()
            if !c.isFirstRun { throw TestError("boom") }
        }
        reactor.autorun { _ in dependency.depend(); after += 1 }
        dependency.changed()
        reactor.flush()
        #expect(before == 2)
        #expect(after == 2)
        #expect(log.kinds == ["uncaughtError"])
        if case let .uncaughtError(error, computation) = log.issues.first {
            #expect(error as? TestError == TestError("boom"))
            #expect(computation === failing)
        }
        #expect(!failing.isStopped)
        // It still depends on what it read before throwing.
        dependency.changed()
        reactor.flush()
        #expect(log.kinds == ["uncaughtError", "uncaughtError"])
    }

    @Test func firstRunErrorStopsTheComputationAndGoesToOnError() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let dependency = Dependency()
        var errors: [String] = []
        let computation = reactor.autorun(onError: { errors.append("\($0)") }) { _ in
            dependency.depend()
            throw TestError("first")
        }
        #expect(errors == ["first"])
        #expect(computation.isStopped)
        #expect(!dependency.hasDependents)
        #expect(log.issues.isEmpty)
    }

    @Test func firstRunErrorWithoutOnErrorGoesToTheIssueHandler() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let computation = reactor.autorun("thrower") { _ in throw TestError("first") }
        #expect(computation.isStopped)
        #expect(log.kinds == ["uncaughtError"])
        if case let .uncaughtError(error, failed) = log.issues.first {
            #expect(error as? TestError == TestError("first"))
            #expect(failed === computation)
            #expect(failed.name == "thrower")
        }
    }

    @Test func defaultRunawayLimitIsTenThousand() {
        #expect(Reactor().runawayLimit == 10_000)
    }

    @Test func runawayIsReportedStoppedAndTheFlushReturns() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let dependency = Dependency()
        var otherRuns = 0
        reactor.autorun { _ in dependency.depend(); otherRuns += 1 }
        var runs = 0
        let runaway = reactor.autorun("runaway") { c in
            runs += 1
            c.invalidate()
        }
        dependency.changed()
        var afterFlushRan = false
        reactor.afterFlush { afterFlushRan = true }
        reactor.flush()
        #expect(runaway.isStopped)
        #expect(runs == 10_001)
        #expect(otherRuns == 2)
        #expect(afterFlushRan)
        #expect(log.kinds == ["runaway"])
        if case let .runaway(computation, reruns) = log.issues.first {
            #expect(computation === runaway)
            #expect(reruns == 10_000)
        }
    }

    @Test func runawayThroughTwoComputationsIsCaught() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        reactor.runawayLimit = 100
        let ping = Dependency("ping"), pong = Dependency("pong")
        reactor.autorun { _ in ping.depend(); pong.changed() }
        reactor.autorun { _ in pong.depend(); ping.changed() }
        reactor.flush()
        #expect(log.kinds == ["runaway"])
        reactor.flush()
        #expect(log.kinds == ["runaway"])
    }

    @Test func runawayLimitIsConfigurable() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        reactor.runawayLimit = 50
        #expect(reactor.runawayLimit == 50)
        var runs = 0
        reactor.autorun { c in runs += 1; c.invalidate() }
        reactor.flush()
        #expect(runs == 51)
        if case let .runaway(_, reruns) = log.issues.first {
            #expect(reruns == 50)
        } else {
            Issue.record("expected a runaway, got \(log.kinds)")
        }
        // A fresh flush starts a fresh count for another computation.
        var n = 0
        reactor.autorun { c in n += 1; if n < 40 { c.invalidate() } }
        reactor.flush()
        #expect(n == 40)
        #expect(log.issues.count == 1)
    }

    @Test func invalidationsByAfterFlushCallbacksAreNotARunaway() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        reactor.runawayLimit = 5
        var runs = 0
        let computation = reactor.autorun { _ in runs += 1 }
        for _ in 0..<20 { reactor.afterFlush { computation.invalidate() } }
        reactor.flush()
        #expect(runs == 21)
        #expect(log.issues.isEmpty)
        #expect(!computation.isStopped)
    }

    @Test func runawayWithEndOfBatchScheduling() {
        let reactor = Reactor()
        let log = IssueLog(reactor)
        reactor.runawayLimit = 20
        let computation = reactor.autorun { c in c.invalidate() }
        #expect(computation.isStopped)
        #expect(log.kinds == ["runaway"])
    }

    @Test func onInvalidateWithoutAComputationIsReported() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        var ran = false
        reactor.onInvalidate { _ in ran = true }
        #expect(!ran)
        #expect(log.kinds == ["noCurrentComputation"])
    }

    @Test func issuesHaveOneLineDescriptions() {
        let reactor = Reactor(scheduler: .manual)
        let computation = reactor.autorun("named") { _ in }
        let issues: [ReactorIssue] = [
            .nestedFlush, .flushInsideComputation,
            .uncaughtError(TestError("x"), computation: computation),
            .runaway(computation: computation, reruns: 3), .cycle(names: ["a", "b", "a"]),
            .noCurrentComputation,
        ]
        for issue in issues {
            #expect(!issue.description.isEmpty)
            #expect(!issue.description.contains("\n"))
        }
        #expect(ReactorIssue.cycle(names: ["a", "b", "a"]).description.contains("a -> b -> a"))
        #expect(ReactorIssue.runaway(computation: computation, reruns: 3).description.contains("named"))
    }
}
