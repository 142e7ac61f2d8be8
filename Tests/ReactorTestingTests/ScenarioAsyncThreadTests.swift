import Foundation
import Testing
import ReactorCore
import ReactorInspector
@testable import ReactorTesting
import ReactorTrace
import TracerSlot
import Synchronization

/// Lets tasks through once `count` of them have arrived: recordings that meet
/// here are all in progress at the same moment.
private actor Rendezvous {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { self.count = count }

    func arrive() async {
        if waiting.count + 1 == count {
            waiting.forEach { $0.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// Writes `writes` times to a screen whose list is named `listName`, sleeping
/// (a real suspension, often resumed on another thread) between writes.
private func writeWithSleeps(_ writes: Int, listName: String) async throws {
    let screen = ListScreen(listName: listName)
    for index in 0..<writes {
        try await Task.sleep(for: .milliseconds(1))
        screen.write(["\(listName) \(index)"])
    }
}

/// Keeps the values and action arguments it gets.
private final class ValueCollector: IgnoringTracer {
    let valueLengthLimit: Int
    let values = LockedValue<[String]>([])
    let arguments = LockedValue<[String]>([])

    init(limit: Int) { valueLengthLimit = limit }

    func value(_ node: UInt64, description: String) { values.withLock { $0.append(description) } }
    func actionBegan(store: UInt64, name: String, arguments: String) { self.arguments.withLock { $0.append(arguments) } }
}

/// The tracer under the routers: what was installed before any recording began.
private func underlying(_ tracer: (any ReactorTracer)?) -> (any ReactorTracer)? {
    if let router = tracer as? ScenarioTracer { router.previous?.tracer } else { tracer }
}

/// Async bodies: their task and its child tasks are recorded across
/// suspensions, and recordings run side by side, each exact.
@Suite(.recordsScenarios) struct ScenarioAsyncThreadTests {
    @Test func anAsyncBodyIsRecordedAcrossSuspensions() async throws {
        let trace = try await ScenarioTrace.record { try await writeWithSleeps(6, listName: "suspendedList") }
        #expect(trace.reruns(of: "suspendedList") == 6)
        #expect(trace.runs(of: "suspendedList") == 7)
    }

    @Test func childTasksAreRecorded() async throws {
        let trace = try await ScenarioTrace.record {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { try await writeWithSleeps(2, listName: "groupList") } }
                try await group.waitForAll()
            }
            async let awaited: Void = writeWithSleeps(4, listName: "asyncLetList")
            try await awaited
        }
        #expect(trace.reruns(of: "groupList") == 6)
        #expect(trace.runs(of: "groupList") == 9)
        #expect(trace.reruns(of: "asyncLetList") == 4)
    }

    @Test func aDetachedTaskIsLeftOut() async throws {
        let trace = try await ScenarioTrace.record {
            try await writeWithSleeps(1, listName: "attachedList")
            try await Task.detached { try await writeWithSleeps(3, listName: "detachedList") }.value
        }
        #expect(trace.reruns(of: "attachedList") == 1)
        #expect(trace.model.computations(named: "detachedList").isEmpty)
    }

    @Test func parallelAsyncRecordingsEachCountTheirOwn() async throws {
        let rendezvous = Rendezvous(4)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for writes in [3, 5, 7, 9] {
                group.addTask {
                    try await ScenarioTrace.record {
                        await rendezvous.arrive()
                        try await writeWithSleeps(writes, listName: "parallelList")
                    }.reruns(of: "parallelList")
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.sorted() == [3, 5, 7, 9])
    }

    @Test func aSyncAndAnAsyncRecordingAtTheSameTimeEachCountTheirOwn() async throws {
        // The synchronous recording runs on a thread of its own and blocks there
        // until the async one has written; the async one writes again after it.
        let (syncInside, syncInsideSignal) = AsyncStream.makeStream(of: Void.self)
        let (syncWrote, syncWroteSignal) = AsyncStream.makeStream(of: Void.self)
        let asyncWrote = DispatchSemaphore(value: 0)
        async let syncReruns: Int = withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let trace = try ScenarioTrace.record {
                        let screen = ListScreen(listName: "sideBySideList")
                        for index in 0..<3 { screen.write(["sync \(index)"]) }
                        syncInsideSignal.yield()
                        asyncWrote.wait()
                        for index in 3..<5 { screen.write(["sync \(index)"]) }
                        syncWroteSignal.yield()
                    }
                    continuation.resume(returning: trace.reruns(of: "sideBySideList"))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        let asyncTrace = try await ScenarioTrace.record {
            var inside = syncInside.makeAsyncIterator()
            _ = await inside.next()
            let screen = ListScreen(listName: "sideBySideList")
            screen.write(["async 0"])
            asyncWrote.signal()
            var wrote = syncWrote.makeAsyncIterator()
            _ = await wrote.next()
            screen.write(["async 1"])
        }
        #expect(try await syncReruns == 5)
        #expect(asyncTrace.reruns(of: "sideBySideList") == 2)
    }

    @Test func aThrowingAsyncBodyRethrowsAndPutsThePreviousTracerBack() async throws {
        struct Stop: Error {}
        let before = underlying(ReactorTracing.tracer)
        await #expect(throws: Stop.self) {
            try await ScenarioTrace.record {
                try await writeWithSleeps(1, listName: "stoppedList")
                throw Stop()
            }
        }
        // Other tests' recordings may be in progress: then a router is installed over the same tracer.
        #expect(underlying(ReactorTracing.tracer) === before)
        let trace = try await ScenarioTrace.record { try await writeWithSleeps(2, listName: "afterStopList") }
        #expect(trace.reruns(of: "afterStopList") == 2)
    }

    @Test func recordingsDoNotNest() async throws {
        var asyncInner: (any Error)?
        var syncInner: (any Error)?
        _ = try await ScenarioTrace.record {
            do { _ = try await ScenarioTrace.record { await Task.yield() } } catch { asyncInner = error }
            do { _ = try ScenarioTrace.record {} } catch { syncInner = error }
        }
        #expect(asyncInner as? ScenarioError == .nestedRecording)
        #expect(syncInner as? ScenarioError == .nestedRecording)
    }

    @Test func recordingsAtTheSameTimeEachGetTheirOwnValues() async throws {
        let rendezvous = Rendezvous(3)
        let written = ["a value long enough to be cut", "another value, as long"]
        func record(_ values: TraceRecorder.ValueCapture) async throws -> ScenarioTrace {
            try await ScenarioTrace.record(options: TraceRecorder.Options(values: values)) {
                await rendezvous.arrive()
                let screen = ListScreen(listName: "valuesList")
                for value in written { screen.write([value]) }
            }
        }
        async let off = record(.off)
        async let short = record(.described(maxLength: 12))
        async let long = record(.described(maxLength: 200))
        let (withoutValues, cut, whole) = try await (off, short, long)
        for trace in [withoutValues, cut, whole] { #expect(trace.reruns(of: "valuesList") == 2) }
        #expect(withoutValues.model.eventsByKind[.value] == nil)
        // Every value reached both recordings that asked for values.
        #expect((cut.model.eventsByKind[.value] ?? 0) >= 3)
        #expect(cut.model.eventsByKind[.value] == whole.model.eventsByKind[.value])
    }

    @Test func aTaskRecordingBesideAProcessRecordingJudgesItsRerunsExactly() async throws {
        // Both recordings take every event of the task's thread, one after the
        // other: the task's trace must keep them on one thread, or its writes'
        // values part from their changes and reruns go unjudged.
        let rendezvous = Rendezvous(2)
        async let process = ScenarioTrace.record(scope: .process) {
            await rendezvous.arrive()
            await rendezvous.arrive()
        }
        async let task = ScenarioTrace.record(options: WasteScenarioTests.values) {
            await rendezvous.arrive()
            let reactor = Reactor()
            let store = PlainFilterStore(name: "filters", reactor: reactor)
            let label = reactor.autorun("besideProcessLabel") { _ in _ = "\(store.filter.text) \(store.filter.showsDone)" }
            for _ in 0..<10 { store.setFilter(PlainFilter(text: "all", showsDone: true)) }
            label.stop()
            await rendezvous.arrive()
        }
        let (processTrace, taskTrace) = try await (process, task)
        #expect(taskTrace.reruns(of: "besideProcessLabel") == 10)
        #expect(taskTrace.unneededReruns(of: "besideProcessLabel") == 10)
        #expect(processTrace.reruns(of: "besideProcessLabel") == 10)
    }

    @Test func theRouterCutsValuesAndArgumentsToEachRecordersLimit() {
        let off = ValueCollector(limit: 0), short = ValueCollector(limit: 12), long = ValueCollector(limit: 200)
        let router = ScenarioTracer(scenarios: [1: .init(off), 2: .init(short)], everywhere: [], previous: .init(long))
        #expect(router.valueLengthLimit == 200)
        let text = "[\"a value long enough to be cut\"]"
        for scenario: UInt64 in [0, 1, 2] {
            ScenarioTracer.$scenario.withValue(scenario) {
                router.value(7, description: text)
                router.value(7, description: TraceValueText.redacted)
                router.actionBegan(store: 3, name: "add(_:)", arguments: text)
            }
        }
        #expect(off.values.withLock { $0 } == [])
        #expect(off.arguments.withLock { $0 } == [""])
        let cut = TraceValueText.bounded(text, limit: 12)
        #expect(cut.utf8.count <= 12 && cut.hasSuffix("…"))
        #expect(short.values.withLock { $0 } == [cut, TraceValueText.redacted])
        #expect(short.arguments.withLock { $0 } == [cut])
        // Scenario 0 is no recording's: it goes to the tracer installed before, uncut.
        #expect(long.values.withLock { $0 } == [text, TraceValueText.redacted])
        #expect(long.arguments.withLock { $0 } == [text])
    }

    @Test func aProcessRecordingAlsoTakesTheEventsOfTaskRecordings() async throws {
        let rendezvous = Rendezvous(2)
        async let task = ScenarioTrace.record {
            await rendezvous.arrive()
            try await writeWithSleeps(3, listName: "sharedTaskList")
            await rendezvous.arrive()
        }
        async let process = ScenarioTrace.record(scope: .process) {
            await rendezvous.arrive()
            try await writeWithSleeps(2, listName: "sharedProcessList")
            await rendezvous.arrive()
        }
        let (taskTrace, processTrace) = try await (task, process)
        #expect(taskTrace.reruns(of: "sharedTaskList") == 3)
        #expect(taskTrace.model.computations(named: "sharedProcessList").isEmpty)
        #expect(processTrace.reruns(of: "sharedProcessList") == 2)
        #expect(processTrace.reruns(of: "sharedTaskList") == 3)
    }
}
