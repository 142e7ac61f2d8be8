import Foundation
import Testing
@testable import ReactorTrace

/// A bounded recording (a flight recorder): the file stays within its bound, keeps the
/// latest events, reads clean from its first chunk, names every node its events refer to,
/// and says how much history it overwrote.
@Suite struct BoundedRecordingTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Ten named nodes with values, then `steps` writes of node 2, each with its step as the value.
    static func record(_ recorder: TraceRecorder, steps: Int, path: String, maxSeen: inout Int) {
        for node in UInt64(1)...10 {
            recorder.nodeCreated(node, kind: node == 1 ? .computation : .reactiveValue, name: "", parent: 0)
            recorder.nodeNamed(node, name: "Model.node\(node)", owner: 0)
            recorder.site(node, site: "Model.swift:\(node)", isActionCall: false)
            recorder.value(node, description: "initial \(node)")
        }
        for step in 0..<steps {
            recorder.value(2, description: "\(step)")
            recorder.changed(dependency: 2)
            recorder.invalidated(computation: 1, cause: .dependency, source: 2)
            recorder.rerunBegan(computation: 1, firstRun: false)
            recorder.depend(computation: 1, dependency: 2)
            recorder.rerunEnded(computation: 1)
            if step % 2_000 == 0 { maxSeen = max(maxSeen, fileSize(path)) }
        }
    }

    @Test func staysWithinItsBoundKeepsTheLatestEventsAndNamesEveryNode() throws {
        let path = TraceFixtures.temporaryPath("bounded")
        defer { unlink(path) }
        let bound = 256 << 10
        let options = TraceRecorder.Options(flushInterval: .milliseconds(1), maxBytes: bound)
        let recorder = try TraceRecorder(path: path, options: options)
        var maxSeen = 0
        Self.record(recorder, steps: 200_000, path: path, maxSeen: &maxSeen)
        let statistics = recorder.stop()
        let chunk = TraceFormat.blockHeaderLength + options.effectiveSegmentCapacity
        #expect(maxSeen <= bound + chunk)
        #expect(Self.fileSize(path) <= bound + chunk)
        #expect(statistics.eventsOverwritten > 0)

        let reader = try TraceReader(path: path, mode: .strict)
        var lastValue: String?
        var named: [UInt64: String] = [:]
        var sites: [UInt64: String] = [:]
        var referred: Set<UInt64> = []
        var events = 0
        while let event = try reader.next() {
            events += 1
            switch event.record {
            case let .nodeNamed(id, name, _): named[id] = name
            case let .site(node, site, _): sites[node] = site
            case let .value(node, value) where node == 2: lastValue = value
            case let .changed(dependency): referred.insert(dependency)
            case let .rerunBegan(computation, _): referred.insert(computation)
            default: break
            }
        }
        #expect(reader.truncation == nil)
        #expect(reader.end?.termination == .stopped)
        #expect(UInt64(events + reader.clockEvents) == reader.end?.events)
        #expect(lastValue == "199999", "the file ends at the latest events")
        for node in referred { #expect(named[node] == "Model.node\(node)") }
        #expect(sites[10] == "Model.swift:10", "a node the kept events never mention is still defined")
        #expect(reader.definitionEvents > 0)
        let history = try #require(reader.history)
        #expect(history.maxBytes == UInt64(bound))
        #expect(history.eventsOverwritten == statistics.eventsOverwritten)
        #expect(history.eventsOverwritten > 500_000, "most of 1.2 M events were overwritten")
        #expect(history.firstOverwrittenNanoseconds <= history.lastOverwrittenNanoseconds)
        #expect(history.compactions > 1)
        // Every event is in the file or counted as overwritten (restated definitions aside).
        #expect(UInt64(events + reader.clockEvents - reader.definitionEvents) + history.eventsOverwritten
                == 10 * 4 + 200_000 * 6)
    }

    @Test func anUnboundedRecordingHasNoHistoryBlock() throws {
        let bytes = try TraceFixtures.record { $0.changed(dependency: 1) }
        let (_, reader) = try TraceFixtures.readAll(bytes)
        #expect(reader.history == nil)
    }

    @Test func aSnapshotReadsOnItsOwnWhileRecordingGoesOn() throws {
        let path = TraceFixtures.temporaryPath("snapshotted")
        let copy = TraceFixtures.temporaryPath("snapshot")
        defer { unlink(path); unlink(copy) }
        let recorder = try TraceRecorder(path: path, options: .init(flushInterval: .milliseconds(1)))
        var maxSeen = 0
        Self.record(recorder, steps: 50_000, path: path, maxSeen: &maxSeen)
        let snapshot = try recorder.snapshot(to: copy, maxBytes: 64 << 10)
        recorder.value(2, description: "after the snapshot")
        recorder.changed(dependency: 2)
        recorder.stop()
        #expect(throws: TraceRecorderError.notRecording) { try recorder.snapshot(to: copy + ".late") }

        let reader = try TraceReader(path: copy, mode: .strict)
        var lastValue: String?
        var named: [UInt64: String] = [:]
        var events = 0
        while let event = try reader.next() {
            events += 1
            if case let .value(2, value) = event.record { lastValue = value }
            if case let .nodeNamed(id, name, _) = event.record { named[id] = name }
        }
        #expect(reader.end?.termination == .snapshot)
        #expect(UInt64(events + reader.clockEvents) == snapshot.events)
        #expect(lastValue == "49999", "everything published before the call is in it, nothing after")
        #expect(named[1] == "Model.node1" && named[2] == "Model.node2")
        #expect(Self.fileSize(copy) <= (64 << 10) + 2 * TraceRecorder.Options().segmentCapacity)
        #expect((reader.history?.eventsOverwritten ?? 0) > 0)
        #expect(reader.history?.maxBytes == 0, "the recording itself is unbounded")
    }

    @Test func byteCountsAcceptUnitsAndRejectTheRest() {
        #expect(TraceRecorder.parseByteCount("64M") == 64 << 20)
        #expect(TraceRecorder.parseByteCount("1G") == 1 << 30)
        #expect(TraceRecorder.parseByteCount("256k") == 256 << 10)
        #expect(TraceRecorder.parseByteCount("20MiB") == 20 << 20)
        #expect(TraceRecorder.parseByteCount(" 1048576 ") == 1_048_576)
        for bad in ["", "abc", "0", "-5", "12X", "M", "1.5G", "99999999999999999999"] {
            #expect(TraceRecorder.parseByteCount(bad) == nil, "\(bad)")
        }
        let environment = [TraceRecorder.maxBytesEnvironmentVariable: "20M"]
        #expect(TraceRecorder.options(.init(), from: environment).maxBytes == 20 << 20)
        #expect(TraceRecorder.options(.init(maxBytes: 1 << 20), from: environment).maxBytes == 1 << 20, "options win")
        #expect(TraceRecorder.options(.init(), from: [TraceRecorder.maxBytesEnvironmentVariable: "lots"]).maxBytes == nil)
        #expect(TraceRecorder.options(.init(), from: [TraceRecorder.snapshotSignalEnvironmentVariable: "1"]).snapshotsOnSIGUSR1)
        #expect(TraceRecorder.Options(maxBytes: 1000).effectiveMaxBytes == TraceRecorder.Options.minimumMaxBytes)
    }

    @Test func metadataComesFromTheEnvironmentAndTheOptions() throws {
        let path = TraceFixtures.temporaryPath("metadata")
        defer { unlink(path) }
        let options = TraceRecorder.Options(appName: "Todos", metadata: ["build": "42", "device": "sim"])
        let recorder = try TraceRecorder(path: path, options: options,
                                         environment: ["GITHUB_SHA": "ffff", TraceRecorder.commitEnvironmentVariable: "abc123",
                                                       TraceRecorder.scenarioEnvironmentVariable: "add-todo"],
                                         flushesOnFatalSignals: false, snapshotsOnSignal: false)
        recorder.changed(dependency: 1)
        recorder.stop()
        let reader = try TraceReader(path: path)
        _ = try reader.skipToEnd()
        #expect(reader.metadata.entries.map { "\($0.key)=\($0.value)" }
                == ["commit=abc123", "scenario=add-todo", "app=Todos", "build=42", "device=sim"])

        let fallback = TraceRecorder.metadata(options: .init(), environment: ["GITHUB_SHA": "ffff"])
        #expect(fallback.commit == "ffff")
        #expect(fallback.scenario == URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent)
        #expect(fallback.app == nil)
    }

    @Test func metadataBlocksRoundTripAndRejectDamage() throws {
        let metadata = TraceMetadata([("commit", "abc"), ("é", String(repeating: "x", count: 5_000))])
        let payload = metadata.encodedPayload()
        let decoded = try #require(payload.withUnsafeBufferPointer { TraceMetadata(payload: $0) })
        #expect(decoded.commit == "abc")
        #expect(decoded["é"]?.utf8.count == TraceFormat.maxStringLength)
        let cut = Array(payload.dropLast())
        #expect(cut.withUnsafeBufferPointer { TraceMetadata(payload: $0) } == nil)
        let history = TraceHistory(maxBytes: 1, eventsOverwritten: 2, chunksOverwritten: 3, firstOverwrittenNanoseconds: 4,
                                   lastOverwrittenNanoseconds: 5, compactions: 6)
        #expect(history.encodedPayload().withUnsafeBufferPointer { TraceHistory(payload: $0) } == history)
        #expect(Array(history.encodedPayload().dropLast()).withUnsafeBufferPointer { TraceHistory(payload: $0) } == nil)
    }
}

/// Several threads record into one bounded file (run by `make tsan`).
@Suite struct BoundedRecordingThreadTests {
    @Test func threadsRecordingIntoABoundedFileLeaveATraceThatReadsClean() throws {
        let path = TraceFixtures.temporaryPath("bounded-threads")
        defer { unlink(path) }
        let bound = 256 << 10
        let recorder = try TraceRecorder(path: path, options: .init(flushInterval: .milliseconds(1), maxBytes: bound))
        let threads = 4, steps = 40_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let base = UInt64(thread + 1) * 1_000
            recorder.nodeCreated(base, kind: .computation, name: "worker\(thread)", parent: 0)
            recorder.nodeCreated(base + 1, kind: .reactiveValue, name: "worker\(thread).value", parent: 0)
            for step in 0..<steps {
                recorder.value(base + 1, description: "\(step)")
                recorder.changed(dependency: base + 1)
                recorder.rerunBegan(computation: base, firstRun: false)
                recorder.rerunEnded(computation: base)
            }
        }
        recorder.stop()
        #expect(BoundedRecordingTests.fileSize(path) <= bound + 28 + TraceRecorder.Options(maxBytes: bound).effectiveSegmentCapacity * threads)
        let reader = try TraceReader(path: path, mode: .strict)
        var last: [UInt64: String] = [:]
        var names: [UInt64: String] = [:]
        while let event = try reader.next() {
            if case let .value(node, value) = event.record { last[node] = value }
            if case let .nodeCreated(id, _, name, _) = event.record { names[id] = name }
        }
        #expect(reader.end != nil)
        #expect((reader.history?.eventsOverwritten ?? 0) > 0)
        for thread in 0..<threads {
            let base = UInt64(thread + 1) * 1_000
            #expect(last[base + 1] == "\(steps - 1)")
            #expect(names[base] == "worker\(thread)")
        }
    }
}
