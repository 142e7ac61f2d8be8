#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import ReactorCore
import ReactorTraceFormat
import Synchronization

/// Records the trace events emitted on the installing thread (the tracer is
/// process-wide and other suites run in parallel), with action arguments.
final class SignalTraceRecorder: ReactorTracer {
    enum Event: Equatable {
        case created(UInt64, TraceNodeKind, String, parent: UInt64)
        case named(UInt64, String, owner: UInt64)
        case stopped(UInt64)
        case depend(computation: UInt64, dependency: UInt64)
        case changed(UInt64)
        case actionBegan(store: UInt64, name: String, arguments: String)
        case actionEnded(store: UInt64)
        case issue(TraceIssueKind, node: UInt64)
        case other
    }

    private let thread = pthread_self()
    private let storage = Mutex<[Event]>([])
    var events: [Event] { storage.withLock { $0 } }

    private func record(_ event: Event) {
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
        storage.withLock { $0.append(event) }
    }

    func nodeCreated(_ id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64) {
        record(.created(id, kind, name, parent: parent))
    }
    func nodeNamed(_ id: UInt64, name: String, owner: UInt64) { record(.named(id, name, owner: owner)) }
    func nodeStopped(_ id: UInt64) { record(.stopped(id)) }
    func depend(computation: UInt64, dependency: UInt64) { record(.depend(computation: computation, dependency: dependency)) }
    func changed(dependency: UInt64) { record(.changed(dependency)) }
    func invalidated(computation: UInt64, cause: InvalidationCause, source: UInt64) {}
    func rerunBegan(computation: UInt64, firstRun: Bool) {}
    func rerunEnded(computation: UInt64) {}
    func actionBegan(store: UInt64, name: String, arguments: String) {
        record(.actionBegan(store: store, name: name, arguments: arguments))
    }
    func actionEnded(store: UInt64) { record(.actionEnded(store: store)) }
    func flushBegan() {}
    func flushEnded() {}
    func issue(_ kind: TraceIssueKind, node: UInt64, message: String) { record(.issue(kind, node: node)) }
}

// Members of the serialized `TracerTests` suite, where every test that
// installs the process-wide tracer lives.
extension TracerTests {
    @Test func signalsSubjectsPropertiesAndStoresAppearInTheTrace() throws {
        let tracer = SignalTraceRecorder()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }

        // A property: created with its kind and name; a read in a computation
        // is a depend of its node, a write a changed.
        let reactor = Reactor()
        let property = ReactiveProperty(initialValue: 1, name: "Profile.username")
        let computation = reactor.autorun("reader") { _ in _ = property.value }
        property.value = 2

        // A subject: created, its subscriptions are nodes under it, sends are changed.
        let subject = PassthroughSubject<Int>(name: "clicks")
        let subscription = subject.signal.subscribe()
        subject.send(1)
        subscription.cancel()

        // A store: created, its state named with the store as owner, actions begin and end.
        let store = TodoStore(name: "todos")
        store.action("buy milk", 3, name: "addTodo(_:_:)") { store.todos.append(Todo(text: "buy milk")) }

        // The bridge: a signal node.
        let bridged = reactor.signal("greeting") { property.value }.subscribe()
        bridged.cancel()
        computation.stop()

        let events = tracer.events
        #expect(events.contains(.created(property.id, .reactiveProperty, "Profile.username", parent: 0)))
        #expect(events.contains(.depend(computation: computation.id, dependency: property.id)))
        #expect(events.contains(.changed(property.id)))

        #expect(events.contains(.created(subject.id, .subject, "clicks", parent: 0)))
        #expect(events.contains(.changed(subject.id)))
        let subscriptionNodes = events.compactMap { event -> UInt64? in
            if case let .created(id, .subscription, "clicks subscriber", parent) = event, parent == subject.id { id } else { nil }
        }
        #expect(subscriptionNodes.count == 1)
        if let node = subscriptionNodes.first { #expect(events.contains(.stopped(node))) }

        #expect(events.contains(.created(store.traceID, .store, "todos", parent: 0)))
        #expect(events.contains { if case let .named(_, "TodoStore.todos", owner) = $0 { owner == store.traceID } else { false } })
        let began = try #require(events.firstIndex(of: .actionBegan(store: store.traceID, name: "addTodo(_:_:)",
                                                                      arguments: "\"buy milk\", 3")))
        let ended = try #require(events.firstIndex(of: .actionEnded(store: store.traceID)))
        #expect(began < ended)

        #expect(events.contains { if case .created(_, .signal, "greeting", 0) = $0 { true } else { false } })
    }

    @Test func writeOutsideActionIsTracedAsAnIssue() {
        let tracer = SignalTraceRecorder()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        reactor.issueHandler = { _ in }
        let store = TodoStore(name: "strict", reactor: reactor, requireActions: true)
        store.filter = .completed
        #expect(tracer.events.contains { if case .issue(.writeOutsideAction, _) = $0 { true } else { false } })
    }
}
