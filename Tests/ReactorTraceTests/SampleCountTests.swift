import Foundation
import ReactorCore
import Testing
import ReactorTrace

/// Each sample counts its own reruns and writes; the trace it records must say the same.
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
