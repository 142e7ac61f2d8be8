import TraceForgery
import BuiltProducts
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
        /// Runs of operator and binding stages: one per value each handled.
        var stageRuns: [String: Int] = [:]
        var writes = 0
        /// `changed` events of `ReactiveProperty` nodes and of subjects.
        var propertyWrites = 0
        var subjectChanges = 0
        var actions: [String] = []
        var issues = 0
        var truncation: TraceTruncation?
        var events = 0
    }

    static func counts(ofTraceAt path: String) throws -> TraceCounts {
        let reader = try TraceReader(path: path)
        var names: [UInt64: String] = [:]
        var properties: Set<UInt64> = []
        var kinds: [UInt64: TraceNodeKind] = [:]
        var counts = TraceCounts()
        for event in reader {
            counts.events += 1
            switch event.record {
            case let .nodeCreated(id, kind, name, _):
                names[id] = name
                kinds[id] = kind
                if kind == .reactiveValue { properties.insert(id) }
            case let .rerunBegan(id, _) where kinds[id] == .operator || kinds[id] == .binding:
                counts.stageRuns[names[id] ?? "#\(id)", default: 0] += 1
            case let .rerunBegan(id, firstRun) where !firstRun:
                counts.reruns[names[id] ?? "#\(id)", default: 0] += 1
            case let .changed(dependency) where properties.contains(dependency):
                counts.writes += 1
            case let .changed(dependency) where kinds[dependency] == .reactiveProperty:
                counts.propertyWrites += 1
            case let .changed(dependency) where kinds[dependency] == .subject:
                counts.subjectChanges += 1
            case let .actionBegan(_, name, arguments):
                counts.actions.append(arguments.isEmpty ? name : "\(name) \(arguments)")
            case .issue:
                counts.issues += 1
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
        let run = try BuiltProducts.run("counter", ["--trace", path])
        let (output, status) = (run.stdout, run.status)
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
        #expect(try BuiltProducts.run("counter", ["--trace", path, "--increments", "10"]).status == 0)
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
        #expect(try BuiltProducts.run("counter", ["--increments", "5"], environment: ["REACTOR_TRACE": path]).status == 0)
        let trace = try Self.counts(ofTraceAt: path)
        #expect(trace.truncation == nil)
        #expect(trace.reruns == ["label": 5])
        #expect(trace.writes == 5)
    }

    @Test func stressTraceMatchesItsOwnCounts() throws {
        let path = TraceFixtures.temporaryPath("stress-sample")
        defer { unlink(path) }
        let run = try BuiltProducts.run("stress", ["--computations", "80", "--writes", "300", "--trace", path])
        let (output, status) = (run.stdout, run.status)
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

    @Test func todosTraceMatchesItsOwnCounts() throws {
        let path = TraceFixtures.temporaryPath("todos-sample")
        defer { unlink(path) }
        let run = try BuiltProducts.run("todos", ["--trace", path])
        let (output, status) = (run.stdout, run.status)
        #expect(status == 0)
        let json = try SampleProcess.json(output.trimmingCharacters(in: .whitespacesAndNewlines))
        let reruns = try #require(json["reruns"] as? [String: Int])
        #expect(Set(reruns.keys) == ["list", "countLabel", "remainingCount"])
        let trace = try Self.counts(ofTraceAt: path)
        #expect(trace.truncation == nil)
        #expect(trace.reruns == reruns)
        #expect(trace.writes == json["writes"] as? Int)
        #expect(trace.actions.count == json["actions"] as? Int)
        // Recorded without values: no argument reaches the file.
        #expect(trace.actions.first == "addTodo(_:)")
        #expect(trace.actions.contains("clearCompleted()"))
        #expect(trace.issues == 0)   // requireActions, and every write is in an action
        // The store's state is named after the store and owned by its node.
        let events = Array(try TraceReader(path: path))
        let storeID = try #require(events.lazy.compactMap { event -> UInt64? in
            if case let .nodeCreated(id, .store, "TodoStore", _) = event.record { return id } else { return nil }
        }.first)
        #expect(events.contains { event in
            if case .nodeNamed(_, "TodoStore.todos", storeID) = event.record { return true } else { return false }
        })
    }

    @Test func profileTraceMatchesItsOwnCounts() throws {
        let path = TraceFixtures.temporaryPath("profile-sample")
        defer { unlink(path) }
        let run = try BuiltProducts.run("profile", ["--trace", path])
        let (output, status) = (run.stdout, run.status)
        #expect(status == 0)
        let json = try SampleProcess.json(output.trimmingCharacters(in: .whitespacesAndNewlines))
        let reruns = try #require(json["reruns"] as? [String: Int])
        #expect(json["greetings"] as? Int == 1)
        let trace = try Self.counts(ofTraceAt: path)
        #expect(trace.truncation == nil)
        #expect(trace.reruns == reruns)
        #expect(trace.propertyWrites == json["writes"] as? Int)
        // Each send into the text field's subject, and its completion.
        #expect(trace.subjectChanges == (json["sends"] as? Int).map { $0 + 1 })
        // Each stage ran once per value it received: the field's binding per
        // send; the streams of the username per write, plus the value they
        // start with; distinctUntilChanged until take(3) had three values.
        let sends = try #require(json["sends"] as? Int)
        #expect(trace.stageRuns == [
            "usernameField.bind(to: Profile.username)": sends,
            "Profile.username.map": sends + 1,
            "Profile.username.map.bind(to: Label)": sends + 1,
            "Profile.username.distinctUntilChanged": 4,   // "", josh, josh, joshaber
            "Profile.username.distinctUntilChanged.take(3)": 3,
            "Profile.username.distinctUntilChanged.take(3).filter": 3,
        ])
    }

    /// The profile sample's password ("swordfish") is in a redacted property, a
    /// `Redacted` action argument and a redacted `@Reactive` token: whether values
    /// are recorded or not, its bytes appear nowhere in the file.
    @Test(arguments: [[], ["--trace-values", "200"]])
    func secretsNeverReachTheTraceBytes(valueOptions: [String]) throws {
        let path = TraceFixtures.temporaryPath("profile-secrets")
        defer { unlink(path) }
        let run = try BuiltProducts.run("profile", ["--trace", path] + valueOptions)
        #expect(run.status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        func contains(_ text: String) -> Bool {
            let needle = Array(text.utf8)
            return bytes.indices.contains { start in bytes[start...].starts(with: needle) }
        }
        #expect(!contains("swordfish"))
        let events = try TraceFixtures.readAll(bytes).events
        let values = events.compactMap { if case let .value(_, text) = $0.record { text } else { nil } }
        let login = events.compactMap { if case let .actionBegan(_, "login(_:_:)", arguments) = $0.record { arguments } else { nil } }
        if valueOptions.isEmpty {
            #expect(values.isEmpty)
            #expect(login == [""])
        } else {
            // Values are written (so the absence above is not for want of values).
            #expect(values.contains("\"joshaber\""))
            #expect(values.filter { $0 == "‹redacted›" }.count == 4)   // password and token, initial and new
            #expect(login == ["\"josh\", ‹redacted›"])
        }
    }
}
