import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

/// Records the real core through the installed tracer. Serialized: one
/// recording is installed at a time. Other suites may emit events meanwhile,
/// so assertions look only at this test's own nodes.
@Suite(.serialized) struct CoreRecordingTests {
    final class Counter {
        @Reactive var count = 0
        var label = ""
    }

    @Test func autorunCounterIsRecordedWithCausesAndNames() throws {
        let path = TraceFixtures.temporaryPath("counter")
        defer { unlink(path) }
        try TraceRecorder.start(path: path)
        let reactor = Reactor()
        let counter = Counter()
        let computation = reactor.autorun("label") { _ in counter.label = "\(counter.count)" }
        for _ in 0..<10 { counter.count += 1 }
        computation.stop()
        TraceRecorder.stop()
        #expect(counter.label == "10")

        let reader = try TraceReader(path: path)
        let events = Array(reader)
        #expect(reader.truncation == nil)
        let id = computation.id
        var dependencyID: UInt64 = 0
        for event in events {
            if case let .nodeNamed(node, "Counter.count", _) = event.record { dependencyID = node }
        }
        #expect(dependencyID != 0)
        let reruns = events.filter { $0.record == .rerunBegan(computation: id, firstRun: false) }
        #expect(reruns.count == 10)
        #expect(events.contains { $0.record == .nodeCreated(id: id, kind: .computation, name: "label", parent: 0) })
        #expect(events.contains { $0.record == .rerunBegan(computation: id, firstRun: true) })
        let changes = events.filter { $0.record == .changed(dependency: dependencyID) }
        #expect(changes.count == 10)
        let causes = events.filter { $0.record == .invalidated(computation: id, cause: .dependency, source: dependencyID) }
        #expect(causes.count == 10)
        #expect(events.contains { $0.record == .depend(computation: id, dependency: dependencyID) })
        #expect(events.contains { $0.record == .invalidated(computation: id, cause: .stop, source: 0) })
        #expect(events.contains { $0.record == .nodeStopped(id: id) })
        // Timestamps never go backwards on one thread.
        var last: [UInt32: UInt64] = [:]
        for event in events {
            #expect(event.timestamp >= last[event.thread, default: 0])
            last[event.thread] = event.timestamp
        }
    }
}
