import Foundation
import ReactorCore
import ReactorInspector
import ReactorTrace
import Testing

/// The consumers moved onto plain-event batches (the model builder, replay's
/// formatter) against the same consumers fed one `TraceEvent` at a time, on
/// every sample's real trace: the results must be identical.
@Suite struct BatchConsumersTests {
    /// A node's every field, comparable.
    struct NodeFields: Equatable {
        var id: UInt64, kind: TraceNodeKind, givenName: String, owner: UInt64, parent: UInt64, children: [UInt64]
        var createdAt: UInt64?, stoppedAt: UInt64?, changes: Int, runs: RunStats, invalidations: InvalidationCounts

        init(_ node: TraceNode) {
            id = node.id; kind = node.kind; givenName = node.givenName; owner = node.owner; parent = node.parent
            children = node.children; createdAt = node.createdAt; stoppedAt = node.stoppedAt; changes = node.changes
            runs = node.runs; invalidations = node.invalidations
        }
    }

    static func expectSameModel(_ batched: TraceModel, _ single: TraceModel, _ sample: String) {
        #expect(batched.nodes.map(NodeFields.init) == single.nodes.map(NodeFields.init), "\(sample)")
        #expect(batched.edges == single.edges, "\(sample)")
        #expect(batched.finalEdges == single.finalEdges, "\(sample)")
        #expect(batched.snapshot == single.snapshot, "\(sample)")
        #expect(batched.actions == single.actions, "\(sample)")
        #expect(batched.eventCount == single.eventCount, "\(sample)")
        #expect(batched.eventsByKind == single.eventsByKind, "\(sample)")
        #expect(batched.firstTimestamp == single.firstTimestamp, "\(sample)")
        #expect(batched.lastTimestamp == single.lastTimestamp, "\(sample)")
        #expect(batched.threadCount == single.threadCount, "\(sample)")
        #expect(batched.flushes == single.flushes, "\(sample)")
        #expect(batched.issueCounts == single.issueCounts, "\(sample)")
        #expect(batched.issues == single.issues, "\(sample)")
        #expect(batched.explanations == single.explanations, "\(sample)")
        #expect(batched.unfinishedRuns == single.unfinishedRuns, "\(sample)")
    }

    @Test(arguments: LibraryOnSamplesTests.samples)
    func modelFromBatchesEqualsModelFromEvents(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        // Explaining every rerun computation and with a snapshot midway: every part of the builder runs.
        let (full, _) = try TraceFile.model(path: trace.path)
        let middle = full.firstTimestamp / 2 + full.lastTimestamp / 2
        let options = TraceModelOptions(snapshotAt: middle, explaining: Set(trace.reruns.keys))
        let (batched, report) = try TraceFile.model(path: trace.path, options: options)
        let builder = TraceModelBuilder(options: options)
        let eventReport = try TraceFile.forEachEvent(path: trace.path) { builder.consume($0) }
        let single = builder.finish()
        #expect(report == eventReport)
        #expect(batched.eventCount > 0)
        #expect(batched.snapshot != nil)
        Self.expectSameModel(batched, single, sample)
    }

    @Test(arguments: LibraryOnSamplesTests.samples)
    func replayLinesFromBatchesEqualLinesFromEvents(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let filters = [ReplayFilter(), ReplayFilter(names: ["a"]),
                       ReplayFilter(kinds: ReplayFilter.kinds(named: "action"), names: ["add"])]
        for style in [TextStyle.plain, .ansi] {
            for filter in filters {
                var plain = ReplayFormatter(filter: filter, style: style)
                var fromPlain: [UInt8] = []
                let report = try TraceFile.forEachBatch(path: trace.path) { batch in
                    for event in batch.events { _ = plain.write(event, strings: batch.strings, to: &fromPlain) }
                }
                var single = ReplayFormatter(filter: filter, style: style)
                var fromEvents: [UInt8] = []
                let eventReport = try TraceFile.forEachEvent(path: trace.path) { _ = single.write($0, to: &fromEvents) }
                var whole = ReplayFormatter(filter: filter, style: style)
                var fromBatches: [UInt8] = []
                _ = try TraceFile.forEachBatch(path: trace.path) { whole.write($0, to: &fromBatches) }
                #expect(report == eventReport)
                if filter == ReplayFilter() { #expect(!fromEvents.isEmpty) }
                #expect(fromPlain == fromEvents, "\(sample) \(style)")
                #expect(fromBatches == fromEvents, "\(sample) \(style) whole batches")
            }
        }
    }

    @Test func batchProgressPassesEveryMultiple() throws {
        let trace = try SampleTrace.named("stress")
        var calls: [Int] = []
        let report = try TraceFile.forEachBatch(path: trace.path, progressEvery: 1_000, progress: { calls.append($0) }) { _ in }
        #expect(calls == Array(stride(from: 1_000, through: report.events, by: 1_000)))
    }
}
