#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import ReactorCore
import TracerSlot
import Synchronization

/// Records the trace events emitted on the installing thread (the tracer is
/// process-wide and other suites run in parallel), with action arguments and,
/// when `valueLengthLimit` is above 0, values.
final class SignalTraceRecorder: IgnoringTracer {
    enum Event: Equatable {
        case created(UInt64, ReactorTracing.NodeKind, String, parent: UInt64)
        case named(UInt64, String, owner: UInt64)
        case stopped(UInt64)
        case depend(computation: UInt64, dependency: UInt64)
        case changed(UInt64)
        case invalidated(UInt64, ReactorTracing.InvalidationCause, source: UInt64)
        case began(UInt64, firstRun: Bool)
        case ended(UInt64)
        case actionBegan(store: UInt64, name: String, arguments: String)
        case actionEnded(store: UInt64)
        case issue(ReactorTracing.IssueKind, node: UInt64)
        case value(UInt64, String)
        case other
    }

    private let thread = pthread_self()
    /// Records every thread's events (a timer's task), not only the installer's.
    private let allThreads: Bool
    private let storage = LockedValue<[Event]>([])
    var events: [Event] { storage.withLock { $0 } }

    let valueLengthLimit: Int

    init(allThreads: Bool = false, valueLengthLimit: Int = 0) {
        self.allThreads = allThreads
        self.valueLengthLimit = valueLengthLimit
    }

    private func record(_ event: Event) {
        guard allThreads || pthread_equal(pthread_self(), thread) != 0 else { return }
        storage.withLock { $0.append(event) }
    }

    func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {
        record(.created(id, kind, name, parent: parent))
    }
    func nodeNamed(_ id: UInt64, name: String, owner: UInt64) { record(.named(id, name, owner: owner)) }
    func nodeStopped(_ id: UInt64) { record(.stopped(id)) }
    func depend(computation: UInt64, dependency: UInt64) { record(.depend(computation: computation, dependency: dependency)) }
    func changed(dependency: UInt64) { record(.changed(dependency)) }
    func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        record(.invalidated(computation, cause, source: source))
    }
    func rerunBegan(computation: UInt64, firstRun: Bool) { record(.began(computation, firstRun: firstRun)) }
    func rerunEnded(computation: UInt64) { record(.ended(computation)) }
    func actionBegan(store: UInt64, name: String, arguments: String) {
        record(.actionBegan(store: store, name: name, arguments: arguments))
    }
    func actionEnded(store: UInt64) { record(.actionEnded(store: store)) }
    func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) { record(.issue(kind, node: node)) }
    func value(_ node: UInt64, description: String) { record(.value(node, description)) }
}

// Members of the serialized `TracerTests` suite, where every test that
// installs the process-wide tracer lives.
extension TracerTests {
    @Test func signalsSubjectsPropertiesAndStoresAppearInTheTrace() throws {
        let tracer = SignalTraceRecorder(valueLengthLimit: 200)
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

    @Test func aSendIsTracedThroughEachStageToTheAutorunItReruns() throws {
        let tracer = SignalTraceRecorder()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let field = PassthroughSubject<Int>(name: "field")
        let property = ReactiveProperty(initialValue: 0, name: "model.value")
        let binding = field.signal.map { $0 * 2 }.filter { $0 > 0 }.bind(to: property)
        let label = reactor.autorun("label") { _ in _ = property.value }
        field.send(0)   // filtered out: the binding does not run
        field.send(2)
        binding.cancel()
        label.stop()

        let events = tracer.events
        func created(_ kind: ReactorTracing.NodeKind, _ name: String) throws -> UInt64 {
            try #require(events.lazy.compactMap { event -> UInt64? in
                if case let .created(id, kind2, name2, 0) = event, kind2 == kind, name2 == name { id } else { nil }
            }.first)
        }
        let map = try created(.operator, "field.map")
        let filter = try created(.operator, "field.map.filter")
        let bind = try created(.binding, "field.map.filter.bind(to: model.value)")
        // The first edge is known at subscription.
        #expect(events.contains(.depend(computation: map, dependency: field.id)))

        let sends = events.indices.filter { events[$0] == .changed(field.id) }
        try #require(sends.count == 2)
        // 0: map runs and sends, filter runs and drops it.
        #expect(Array(events[sends[0]..<sends[1]]) == [
            .changed(field.id),
            .invalidated(map, .dependency, source: field.id), .began(map, firstRun: false),
            .changed(map),
            .invalidated(filter, .dependency, source: map), .began(filter, firstRun: false),
            .ended(filter),
            .ended(map),
        ])
        // 2: through both operators into the binding, whose write invalidates the autorun.
        #expect(Array(events[sends[1]...].prefix(16)) == [
            .changed(field.id),
            .invalidated(map, .dependency, source: field.id), .began(map, firstRun: false),
            .changed(map),
            .invalidated(filter, .dependency, source: map), .began(filter, firstRun: false),
            .changed(filter),
            .invalidated(bind, .dependency, source: filter), .began(bind, firstRun: false),
            .changed(property.id),
            .invalidated(label.id, .dependency, source: property.id),
            .ended(bind),
            .ended(filter),
            .ended(map),
            .began(label.id, firstRun: false),
            .depend(computation: label.id, dependency: property.id),
        ])
        // Each stage's node ends with its subscription.
        for stage in [map, filter, bind] { #expect(events.contains(.stopped(stage))) }
    }

    @Test func aBridgedSignalIsTheSourceOfTheStagesItFeeds() throws {
        let tracer = SignalTraceRecorder()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let property = ReactiveProperty(initialValue: 1, name: "count")
        let subscription = reactor.signal("total") { property.value }.map { $0 + 1 }.subscribe()
        property.value = 2
        subscription.cancel()

        let events = tracer.events
        let total = try #require(events.lazy.compactMap { event -> UInt64? in
            if case let .created(id, .signal, "total", 0) = event { id } else { nil }
        }.first)
        let map = try #require(events.lazy.compactMap { event -> UInt64? in
            if case let .created(id, .operator, "total.map", 0) = event { id } else { nil }
        }.first)
        // The first value and the one after the write: each a change of the
        // signal's node, received by the map stage from it.
        #expect(events.filter { $0 == .changed(total) }.count == 2)
        #expect(events.filter { $0 == .invalidated(map, .dependency, source: total) }.count == 2)
    }

    @Test func stagesSubscribedWithoutATracerRecordNothing() {
        let subject = PassthroughSubject<Int>(name: "quiet")
        var received: [Int] = []
        let subscription = subject.signal.map { $0 + 1 }.subscribe(next: { received.append($0) })
        let tracer = SignalTraceRecorder()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        subject.send(1)
        subscription.cancel()
        #expect(received == [2])
        // The subject's send is recorded; the stage, created untraced, is not a node.
        let events = tracer.events
        #expect(events.first == .changed(subject.id))
        #expect(!events.contains { event in
            switch event {
            case .created, .invalidated, .began, .ended: true
            default: false
            }
        })
    }

    @Test func aDebouncedSendIsARunOfTheStageCausedByTheSubject() async throws {
        let tracer = SignalTraceRecorder(allThreads: true)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let clock = ManualClock()
        let field = PassthroughSubject<String>(name: "query")
        let probe = EventProbe<String>()
        let subscription = probe.subscribe(field.signal.debounce(for: .seconds(1), clock: clock).map { $0 })
        field.send("a")
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        #expect(await probe.next() == .value("a"))
        subscription.cancel()

        // Other suites' events are recorded too: look at this pipeline's nodes only.
        let events = tracer.events
        let debounce = try #require(events.lazy.compactMap { event -> UInt64? in
            if case let .created(id, .operator, "query.debounce(for: 1.0 seconds)", 0) = event { id } else { nil }
        }.first)
        let map = try #require(events.lazy.compactMap { event -> UInt64? in
            if case let .created(id, .operator, "query.debounce(for: 1.0 seconds).map", 0) = event { id } else { nil }
        }.first)
        let runs = events.filter { event in
            switch event {
            case let .invalidated(id, _, _), let .began(id, _), let .ended(id): id == debounce || id == map
            case let .changed(id): id == debounce
            default: false
            }
        }
        #expect(runs == [
            // The send: the stage runs and holds the value.
            .invalidated(debounce, .dependency, source: field.id), .began(debounce, firstRun: false), .ended(debounce),
            // The timer: a run caused by the subject again, which sends the value on.
            .invalidated(debounce, .dependency, source: field.id), .began(debounce, firstRun: false),
            .changed(debounce), .invalidated(map, .dependency, source: debounce), .began(map, firstRun: false),
            .ended(map), .ended(debounce),
        ])
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
