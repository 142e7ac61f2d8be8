import Dispatch
import Testing
import ReactorCore

/// Compiles the DESIGN.md contract for the runtime, computed values and
/// `@Reactive` exactly as written (each signature bound to its declared type),
/// and checks in a line that each piece does what the contract says.
@Suite struct CoreContractTests {
    final class Person {
        @Reactive var age = 0
    }

    @Test func reactorContract() {
        let shared: Reactor = Reactor.shared
        let makeReactor: (FlushScheduler) -> Reactor = Reactor.init(scheduler:)
        let reactor = makeReactor(.manual)
        let defaultReactor = Reactor()
        // autorun and computed also take defaulted #fileID/#line (their auto
        // names), so the contract holds for calls, as written here.
        func autorun(_ name: String?, _ onError: ((any Error) -> Void)?,
                     _ body: @escaping (Computation) throws -> Void) -> Computation {
            reactor.autorun(name, onError: onError, body)
        }
        let flush: () -> Void = reactor.flush
        let afterFlush: (@escaping () -> Void) -> Void = reactor.afterFlush
        let onInvalidate: (@escaping (Computation) -> Void) -> Void = reactor.onInvalidate
        let dependency = Dependency("contract")
        var runs = 0, invalidations = 0, flushedAfter = 0
        var sawActive = false, sawCurrent = false, sawInFlush = false
        let computation = autorun("contract", nil) { computation in
            dependency.depend()
            runs += 1
            sawActive = reactor.isActive
            sawCurrent = reactor.currentComputation === computation
            if !computation.isFirstRun { sawInFlush = reactor.inFlush }
            onInvalidate { _ in invalidations += 1 }
        }
        afterFlush { flushedAfter += 1 }
        let nonreactiveValue: Int = reactor.nonreactive { reactor.isActive ? 1 : 2 }
        let batchValue: Int = reactor.batch { dependency.changed(); return 3 }
        flush()
        #expect(runs == 2 && invalidations == 1 && flushedAfter == 1)
        #expect(sawActive && sawCurrent && sawInFlush && !reactor.isActive && !reactor.inFlush)
        #expect(nonreactiveValue == 2 && batchValue == 3)
        var issues: [ReactorIssue] = []
        reactor.issueHandler = { issues.append($0) }
        let handler: (ReactorIssue) -> Void = reactor.issueHandler
        handler(.nestedFlush)
        #expect(issues.count == 1)
        computation.stop()
        withExtendedLifetime((shared, defaultReactor)) {}
    }

    @Test func schedulerAndIssueContract() {
        let schedulers: [FlushScheduler] = [.manual, .endOfBatch, .dispatch(DispatchQueue(label: "contract"))]
        let reactor = Reactor(scheduler: .manual)
        let computation = reactor.autorun { _ in }
        struct Failure: Error {}
        let issues: [ReactorIssue] = [
            .nestedFlush, .flushInsideComputation,
            .uncaughtError(Failure(), computation: computation),
            .runaway(computation: computation, reruns: 10_000),
        ]
        #expect(schedulers.count == 3 && issues.count == 4)
        computation.stop()
    }

    @Test func computationContract() {
        let reactor = Reactor(scheduler: .manual)
        var runs = 0, stops = 0, invalidations = 0
        let computation = reactor.autorun("named") { _ in runs += 1 }
        let name: String? = computation.name
        let flags: (Bool, Bool, Bool) = (computation.isFirstRun, computation.isInvalidated, computation.isStopped)
        let onInvalidate: (@escaping (Computation) -> Void) -> Void = computation.onInvalidate
        let onStop: (@escaping (Computation) -> Void) -> Void = computation.onStop
        let invalidate: () -> Void = computation.invalidate
        let flush: () -> Void = computation.flush
        let run: () -> Void = computation.run
        let stop: () -> Void = computation.stop
        onInvalidate { _ in invalidations += 1 }
        onStop { _ in stops += 1 }
        invalidate()
        #expect(computation.isInvalidated)
        flush()
        run()
        stop()
        #expect(name == "named" && flags == (false, false, false))
        #expect(runs == 3 && invalidations >= 1 && stops == 1 && computation.isStopped)
    }

    @Test func dependencyContract() {
        let reactor = Reactor(scheduler: .manual)
        let makeDependency: (String?) -> Dependency = Dependency.init
        let dependency = makeDependency("contract")
        let unnamed = Dependency()
        var newDependent: [Bool] = []
        let computation = reactor.autorun { computation in
            let depend: (Computation?) -> Bool = dependency.depend
            newDependent.append(depend(nil))
            newDependent.append(dependency.depend(computation))
        }
        let hasDependents: Bool = dependency.hasDependents
        let changed: () -> Void = dependency.changed
        changed()
        reactor.flush()
        #expect(newDependent == [true, false, true, false] && hasDependents && !unnamed.hasDependents)
        computation.stop()
    }

    @Test func computedAndReactiveContract() {
        let reactor = Reactor(scheduler: .manual)
        let person = Person()
        let doubled: Computed<Int> = reactor.computed("doubled") { person.age * 2 }
        var seen: [Int] = []
        let computation = reactor.autorun { _ in seen.append(doubled.value) }
        person.age = 21
        reactor.flush()
        let value: Int = doubled.value
        #expect(value == 42 && seen == [0, 42])
        computation.stop()
    }
}
