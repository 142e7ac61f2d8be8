import Foundation
@testable import ReactorInspector
import ReactorTrace
import ReactorTraceFormat
import Testing

/// The index's sections found by node (mentions, positions) are gathered from the builder's own
/// walk over each batch (``BatchEventMarker``): they hold what a walk of their own over the
/// trace's events finds, for every kind of event, on the samples and on a trace whose ids are
/// 0, just past the marks' small ids, and far beyond them.
@Suite struct IndexPassCollectorTests {
    /// What the sections say of each node, found by a walk over the trace's batches (a chunk each).
    struct Expected: Equatable {
        /// Node ids in the order an event first names them (0 is no node), with the chunks naming them.
        var mentioned: [UInt64] = []
        var mentionChunks: [UInt64: [Int]] = [:]
        var creations: [UInt64: [IndexedMentions.Creation]] = [:]
        var valued: Set<UInt64> = []
        /// Node ids in the order of their first value, creation or naming event, with those events' chunks.
        var positioned: [UInt64] = []
        var positionChunks: [UInt64: [Int]] = [:]

        mutating func mention(_ id: UInt64, _ chunk: Int) {
            guard id != 0 else { return }
            if mentionChunks[id] == nil { mentioned.append(id) }
            if mentionChunks[id, default: []].last != chunk { mentionChunks[id, default: []].append(chunk) }
        }

        mutating func position(_ id: UInt64, _ chunk: Int) {
            if positionChunks[id] == nil { positioned.append(id) }
            if positionChunks[id, default: []].last != chunk { positionChunks[id, default: []].append(chunk) }
        }

        init(path: String) throws {
            var chunk = 0
            _ = try TraceFile.forEachBatch(path: path) { batch in
                for event in batch.events {
                    switch event.record {
                    case let .depend(computation, dependency):
                        mention(computation, chunk)
                        mention(dependency, chunk)
                    case let .invalidated(computation, _, source):
                        mention(computation, chunk)
                        mention(source, chunk)
                    case let .rerunBegan(computation, _), let .rerunEnded(computation):
                        mention(computation, chunk)
                    case let .changed(dependency):
                        mention(dependency, chunk)
                    case let .value(id, _):
                        mention(id, chunk)
                        position(id, chunk)
                        if id != 0 { valued.insert(id) }
                    case let .nodeCreated(id, kind, _, parent):
                        mention(id, chunk)
                        mention(parent, chunk)
                        position(id, chunk)
                        if id != 0 { creations[id, default: []].append(.init(chunk: chunk, kind: kind)) }
                    case let .nodeNamed(id, _, owner):
                        mention(id, chunk)
                        mention(owner, chunk)
                        position(id, chunk)
                    case let .nodeStopped(id), let .actionBegan(id, _, _), let .actionEnded(id), let .issue(_, id, _),
                         let .site(id, _, _):
                        mention(id, chunk)
                    case .flushBegan, .flushEnded:
                        break
                    }
                }
                chunk += 1
            }
        }

        /// What the index at hand says, in the same shape.
        init(index: TraceIndex) throws {
            let count = index.batches.count
            for node in try #require(index.mentions).nodes(batchCount: count, keeping: { _, _ in true }) {
                mentioned.append(node.id)
                let chunks = node.chunks.flatMap { Array($0) }
                if !chunks.isEmpty { mentionChunks[node.id] = chunks }
                if !node.creations.isEmpty { creations[node.id] = node.creations }
                if node.hasValues { valued.insert(node.id) }
            }
            for node in try #require(index.positions).nodes(batchCount: count) {
                positioned.append(node.id)
                positionChunks[node.id] = node.values.flatMap { Array($0) }
            }
        }
    }

    /// A trace in small chunks whose events name ids 0, 1–9, 2²² + 5 (past the marks' small ids)
    /// and 2⁴⁰, by every kind of event, values included.
    static func oddIDs() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pass-collector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("odd-ids.trace").path
        let recorder = try TraceRecorder(path: path, options: TraceRecorder.Options(segmentCapacity: 256,
                                                                                   values: .described(maxLength: 32)))
        let store: UInt64 = 1, past: UInt64 = (1 << 22) + 5, far: UInt64 = 1 << 40
        recorder.nodeCreated(store, kind: .store, name: "Store", parent: 0)
        recorder.nodeCreated(past, kind: .reactiveValue, name: "", parent: store)
        recorder.nodeNamed(past, name: "Store.past", owner: store)
        recorder.nodeCreated(far, kind: .computed, name: "far", parent: 0)
        recorder.site(far, site: "Far.swift:1", isActionCall: false)
        for round in 0..<400 {
            let computation = UInt64(2 + round % 8)
            if round < 8 { recorder.nodeCreated(computation, kind: .computation, name: "c\(round)", parent: far) }
            recorder.actionBegan(store: store, name: "set", arguments: "\(round)")
            recorder.site(store, site: "Call.swift:\(round % 3)", isActionCall: true)
            recorder.value(past, description: "\(round)")
            recorder.changed(dependency: past)
            recorder.invalidated(computation: computation, cause: .dependency, source: past)
            recorder.actionEnded(store: store)
            recorder.flushBegan()
            recorder.rerunBegan(computation: far, firstRun: round == 0)
            recorder.depend(computation: far, dependency: past)
            recorder.value(far, description: "far \(round)")
            recorder.rerunEnded(computation: far)
            recorder.rerunBegan(computation: computation, firstRun: round < 8)
            recorder.depend(computation: computation, dependency: far)
            recorder.depend(computation: computation, dependency: 0)
            recorder.rerunEnded(computation: computation)
            recorder.invalidated(computation: computation, cause: .explicit, source: 0)
            recorder.flushEnded()
            if round % 50 == 0 {
                recorder.value(0, description: "none")
                recorder.issue(.runaway, node: round % 100 == 0 ? 0 : far, message: "odd \(round)")
            }
        }
        recorder.nodeStopped(far)
        _ = recorder.stop()
        return path
    }

    @Test(arguments: ["stress", "stress-threads", "threads-values", "counter-values", "todos", "odd-ids"])
    func sectionsHoldWhatTheEventsName(sample: String) throws {
        let path = sample == "odd-ids" ? try Self.oddIDs() : try IndexCommandTests.copy(of: sample, as: "pass-collector")
        let (index, _) = try TraceIndex.build(forTrace: path)
        let expected = try Expected(path: path)
        let found = try Expected(index: index)
        #expect(found.mentioned == expected.mentioned, "\(sample)")
        #expect(found.mentionChunks == expected.mentionChunks, "\(sample)")
        #expect(found.creations == expected.creations, "\(sample)")
        #expect(found.valued == expected.valued, "\(sample)")
        #expect(found.positioned == expected.positioned, "\(sample)")
        #expect(found.positionChunks == expected.positionChunks, "\(sample)")
        if sample == "odd-ids" {
            #expect(index.batches.count > 10)
            #expect(expected.mentioned.contains(1 << 40) && expected.mentioned.contains((1 << 22) + 5))
            #expect(expected.positioned.contains(0))
        }
    }
}
