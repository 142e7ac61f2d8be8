import Testing
import ReactorCore

/// A store with a secret, as in DESIGN.md's "Values and secrets".
final class SessionStore: Store, @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive(redacted: true) var token = ""
    @Reactive var user = ""

    func login(_ user: String, _ password: Redacted<String>) {
        action(user, password) {
            self.user = user
            token = "token-for-\(password.value)"
        }
    }
}

/// A type with its own short trace description.
struct Point: TraceValueDescribable, Equatable {
    var x: Int
    var y: Int
    var traceDescription: String { "(\(x), \(y))" }
}

// Members of the serialized `TracerTests` suite (they install the process-wide tracer).
extension TracerTests {
    private func values(_ events: [SignalTraceRecorder.Event], of node: UInt64) -> [String] {
        events.compactMap { if case let .value(id, text) = $0, id == node { text } else { nil } }
    }

    @Test func valuesOffDescribeNothingAndActionsCarryNoArguments() {
        let tracer = SignalTraceRecorder()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let store = SessionStore()
        store.login("ada", Redacted("hunter2"))
        let property = ReactiveProperty(initialValue: 1)
        property.value = 2
        let events = tracer.events
        #expect(!events.contains { if case .value = $0 { true } else { false } })
        #expect(events.contains(.actionBegan(store: store.traceID, name: "login(_:_:)", arguments: "")))
    }

    @Test func everyKindOfWriteRecordsItsNewValueBeforeItsChange() {
        let tracer = SignalTraceRecorder(valueLengthLimit: 100)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()

        let store = TodoStore(name: "todos")
        store.filter = .active
        let filterNode = store.$filter.projectedDependency.id
        #expect(values(tracer.events, of: filterNode) == ["ReactorCoreTests.VisibilityFilter.all",
                                                          "ReactorCoreTests.VisibilityFilter.active"])
        let events = tracer.events
        let lastValue = events.lastIndex(of: .value(filterNode, "ReactorCoreTests.VisibilityFilter.active"))
        let change = events.lastIndex(of: .changed(filterNode))
        #expect(lastValue != nil && change != nil && lastValue! + 1 == change!)

        let property = ReactiveProperty(initialValue: "a")
        property.value = "b"
        #expect(values(tracer.events, of: property.id) == ["\"a\"", "\"b\""])

        let subject = PassthroughSubject<Int>()
        subject.send(7)
        let behavior = BehaviorSubject(value: Point(x: 1, y: 2))
        behavior.send(Point(x: 3, y: 4))
        #expect(values(tracer.events, of: subject.id) == ["7"])
        #expect(values(tracer.events, of: behavior.id) == ["(1, 2)", "(3, 4)"])

        // A computed: its first value, then only values that changed.
        let source = ReactiveProperty(initialValue: 1)
        let parity = reactor.computed("parity") { source.value % 2 == 0 ? "even" : "odd" }
        let reader = reactor.autorun { _ in _ = parity.value }
        source.value = 3
        source.value = 4
        reactor.flush()
        let computedNodes = tracer.events.compactMap { event -> UInt64? in
            if case let .created(id, .computed, "parity", _) = event { id } else { nil }
        }
        let computedNode = computedNodes.first ?? 0
        #expect(values(tracer.events, of: computedNode) == ["\"odd\"", "\"even\""])
        reader.stop()
    }

    @Test func actionArgumentsAreDescribedBoundedAndRedacted() {
        let tracer = SignalTraceRecorder(valueLengthLimit: 24)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let store = SessionStore()
        store.login("ada", Redacted("hunter2"))
        store.action(String(repeating: "é", count: 30), name: "long(_:)") {}
        let events = tracer.events
        #expect(events.contains(.actionBegan(store: store.traceID, name: "login(_:_:)", arguments: "\"ada\", ‹redacted›")))
        let long = events.compactMap { if case let .actionBegan(_, "long(_:)", arguments) = $0 { arguments } else { nil } }
        // 24 bytes: the quote, ten two-byte characters, the three-byte marker.
        #expect(long == ["\"éééééééééé…"])
        // The redacted property: every value it held is written as ‹redacted›.
        let tokenNode = store.$token.projectedDependency.id
        #expect(values(events, of: tokenNode) == ["‹redacted›", "‹redacted›"])
        #expect(!events.contains { if case let .value(_, text) = $0 { text.contains("hunter2") } else { false } })
    }

    @Test func redactedPropertiesAndSubjectsWriteNoValue() {
        let tracer = SignalTraceRecorder(valueLengthLimit: 100)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let secret = ReactiveProperty(initialValue: "first-secret", redacted: true)
        secret.value = "second-secret"
        let wrapped = PassthroughSubject<Redacted<String>>()
        wrapped.send(Redacted("third-secret"))
        #expect(values(tracer.events, of: secret.id) == ["‹redacted›", "‹redacted›"])
        #expect(values(tracer.events, of: wrapped.id) == ["‹redacted›"])
        #expect(String(describing: Redacted("x")) == "‹redacted›")
        #expect(String(reflecting: [Redacted("x")]) == "[‹redacted›]")
    }
}
