import Foundation
import ReactorCore
import Testing
import ReactorTrace

/// Each sample counts its own reruns and writes; the trace it records must say the same.
/// The samples run as child processes: the recorder they install is process-wide,
/// and other suites of this test process install tracers of their own.
@Suite struct SampleCountTests {
    /// What a trace says: reruns (not first runs) per computation name, and
    /// `changed` events of reactive properties (the writes).
    struct TraceCounts {
        var reruns: [String: Int] = [:]
        var writes = 0
        var truncation: TraceTruncation?
        var events = 0
    }

    static func counts(ofTraceAt path: String) throws -> TraceCounts {
        let reader = try TraceReader(path: path)
        var names: [UInt64: String] = [:]
        var properties: Set<UInt64> = []
        var counts = TraceCounts()
        for event in reader {
            counts.events += 1
            switch event.record {
            case let .nodeCreated(id, kind, name, _):
                names[id] = name
                if kind == .reactiveValue { properties.insert(id) }
            case let .rerunBegan(id, firstRun) where !firstRun:
                counts.reruns[names[id] ?? "#\(id)", default: 0] += 1
            case let .changed(dependency) where properties.contains(dependency):
                counts.writes += 1
            default:
                break
            }
        }
        counts.truncation = reader.truncation
        return counts
    }

    @Test func counterTraceMatchesItsOwnCounts() throws {
        let path = TraceFixtures.temporaryPath("counter-sample")
        defer { unlink(path) }
        let (output, status) = try SampleProcess.run("counter", ["--trace", path])
        #expect(status == 0)
        let json = try SampleProcess.json(output.trimmingCharacters(in: .whitespacesAndNewlines))
        let reruns = try #require(json["reruns"] as? [String: Int])
        #expect(reruns == ["label": 100])
        #expect(json["writes"] as? Int == 100)
        let trace = try Self.counts(ofTraceAt: path)
        #expect(trace.truncation == nil)
        #expect(trace.reruns == reruns)
        #expect(trace.writes == 100)
    }

    @Test func counterTraceRecordsTheCoreTruthfully() throws {
        let path = TraceFixtures.temporaryPath("counter-events")
        defer { unlink(path) }
        #expect(try SampleProcess.run("counter", ["--trace", path, "--increments", "10"]).status == 0)
        let reader = try TraceReader(path: path)
        let events = Array(reader)
        #expect(reader.truncation == nil)
        #expect(reader.end?.events == UInt64(events.count))
        var label: UInt64 = 0
        var counter: UInt64 = 0
        for event in events {
            if case let .nodeCreated(id, .computation, "label", 0) = event.record { label = id }
            if case let .nodeNamed(id, "CounterViewModel.counter", _) = event.record { counter = id }
        }
        try #require(label != 0 && counter != 0)
        #expect(events.contains { $0.record == .nodeCreated(id: counter, kind: .reactiveValue, name: "", parent: 0) })
        #expect(events.count { $0.record == .rerunBegan(computation: label, firstRun: true) } == 1)
        #expect(events.count { $0.record == .rerunBegan(computation: label, firstRun: false) } == 10)
        #expect(events.count { $0.record == .rerunEnded(computation: label) } == 11)
        #expect(events.count { $0.record == .changed(dependency: counter) } == 10)
        #expect(events.count { $0.record == .depend(computation: label, dependency: counter) } == 11)
        // Each rerun's cause is the counter: changed -> invalidate(cause: counter) -> flush -> rerun.
        #expect(events.count { $0.record == .invalidated(computation: label, cause: .dependency, source: counter) } == 10)
        #expect(events.count { $0.record == .flushBegan } == 10)
        var order: [TraceEventKind] = []
        for event in events where [.changed, .invalidated, .flushBegan, .rerunBegan].contains(event.record.kind) {
            order.append(event.record.kind)
        }
        #expect(Array(order.suffix(4)) == [.changed, .invalidated, .flushBegan, .rerunBegan])
        // One thread, timestamps that never go backwards and a nonzero rerun duration.
        #expect(Set(events.map(\.thread)) == [0])
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        #expect(events.last!.timestamp > events.first!.timestamp)
    }

    @Test func theEnvironmentVariableStartsARecording() throws {
        let path = TraceFixtures.temporaryPath("environment")
        defer { unlink(path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try SampleProcess.executable("counter"))
        process.arguments = ["--increments", "5"]
        process.environment = ["REACTOR_TRACE": path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let trace = try Self.counts(ofTraceAt: path)
        #expect(trace.truncation == nil)
        #expect(trace.reruns == ["label": 5])
        #expect(trace.writes == 5)
    }

    @Test func stressTraceMatchesItsOwnCounts() throws {
        let path = TraceFixtures.temporaryPath("stress-sample")
        defer { unlink(path) }
        let (output, status) = try SampleProcess.run("stress", ["--computations", "80", "--writes", "300", "--trace", path])
        #expect(status == 0)
        let json = try SampleProcess.json(output.trimmingCharacters(in: .whitespacesAndNewlines))
        let reruns = try #require(json["reruns"] as? [String: Int])
        #expect(json["writes"] as? Int == 300)
        #expect(!reruns.isEmpty)
        let trace = try Self.counts(ofTraceAt: path)
        #expect(trace.truncation == nil)
        #expect(trace.reruns == reruns)
        #expect(trace.writes == 300)
    }

    @Test func samplesRejectBadArguments() throws {
        #expect(try SampleProcess.run("counter", ["--bogus"]).status != 0)
        #expect(try SampleProcess.run("stress", ["--writes", "many"]).status != 0)
        #expect(try SampleProcess.run("counter", ["--trace", "/nonexistent-dir/x.rtrace"]).status != 0)
    }
}
