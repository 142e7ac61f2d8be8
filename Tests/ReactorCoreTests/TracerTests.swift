#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
import ReactorCore
import TracerSlot

/// One trace event as the core emitted it.
enum RecordedEvent: Equatable {
    case created(UInt64, ReactorTracing.NodeKind, name: String, parent: UInt64)
    case named(UInt64, name: String, owner: UInt64)
    case stopped(UInt64)
    case depend(computation: UInt64, dependency: UInt64)
    case changed(UInt64)
    case invalidated(UInt64, ReactorTracing.InvalidationCause, source: UInt64)
    case rerunBegan(UInt64, firstRun: Bool)
    case rerunEnded(UInt64)
    case actionBegan(store: UInt64, name: String)
    case actionEnded(store: UInt64)
    case flushBegan
    case flushEnded
    case issue(ReactorTracing.IssueKind, node: UInt64)
}

/// Records every event emitted on the installing thread. The tracer is process
/// global and other suites run in parallel, so events from other threads are
/// dropped: each test sees only what its own (synchronous) body caused.
final class RecordingTracer: ReactorTracer {
    private let thread = currentThreadID()
    private let recorded = Mutex<[RecordedEvent]>([])
    private let messages = Mutex<[String]>([])

    var events: [RecordedEvent] { recorded.withLock { $0 } }
    var issueMessages: [String] { messages.withLock { $0 } }

    private func record(_ event: RecordedEvent) {
        guard currentThreadID() == thread else { return }
        recorded.withLock { $0.append(event) }
    }

    func nodeCreated(_ id: UInt64, kind: ReactorTracing.NodeKind, name: String, parent: UInt64) {
        record(.created(id, kind, name: name, parent: parent))
    }
    func nodeNamed(_ id: UInt64, name: String, owner: UInt64) { record(.named(id, name: name, owner: owner)) }
    func nodeStopped(_ id: UInt64) { record(.stopped(id)) }
    func depend(computation: UInt64, dependency: UInt64) {
        record(.depend(computation: computation, dependency: dependency))
    }
    func changed(dependency: UInt64) { record(.changed(dependency)) }
    func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        record(.invalidated(computation, cause, source: source))
    }
    func rerunBegan(computation: UInt64, firstRun: Bool) { record(.rerunBegan(computation, firstRun: firstRun)) }
    func rerunEnded(computation: UInt64) { record(.rerunEnded(computation)) }
    func actionBegan(store: UInt64, name: String, arguments: String) { record(.actionBegan(store: store, name: name)) }
    func actionEnded(store: UInt64) { record(.actionEnded(store: store)) }
    func flushBegan() { record(.flushBegan) }
    func flushEnded() { record(.flushEnded) }
    func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {
        guard currentThreadID() == thread else { return }
        messages.withLock { $0.append(message) }
        record(.issue(kind, node: node))
    }
}

private func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

private final class Thermometer {
    @Reactive var celsius = 20
}

/// Runs `body` with a fresh recording tracer installed, and removes it after.
private func tracing(_ body: (RecordingTracer) throws -> Void) rethrows {
    let tracer = RecordingTracer()
    ReactorTracing.install(tracer)
    defer { ReactorTracing.install(nil) }
    try body(tracer)
}

// Every test that installs a tracer lives in this one serialized suite: the
// tracer is process-global (and takes the events of the scenario recordings of
// other suites: `.installsTracer` keeps them apart). Without the `Tracing`
// trait nothing is emitted.
@Suite(.serialized, .installsTracer, .enabled(if: ReactorTracing.isCompiledIn))
struct TracerTests {
    @Test func installedTracerIsTheCurrentOne() {
        tracing { tracer in
            #expect(ReactorTracing.tracer === tracer)
        }
        #expect(ReactorTracing.tracer == nil)
    }

    @Test func nodeCreationWithNamesKindsAndParents() {
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            let dependency = Dependency("source")
            var inner: Computation?
            let outer = reactor.autorun("outer") { _ in
                inner = reactor.autorun("inner") { _ in }
            }
            let computed = reactor.computed("derived") { 1 }
            let thermometer = Thermometer()
            _ = thermometer.celsius
            let property = thermometer.$celsius.projectedDependency

            let events = tracer.events
            #expect(events.contains(.created(dependency.id, .dependency, name: "source", parent: 0)))
            #expect(events.contains(.created(outer.id, .computation, name: "outer", parent: 0)))
            #expect(events.contains(.created(inner!.id, .computation, name: "inner", parent: outer.id)))
            #expect(events.contains(.created(computed.id, .computed, name: "derived", parent: 0)))
            #expect(events.contains(.created(property.id, .reactiveValue, name: "", parent: 0)))
            #expect(events.contains(.named(property.id, name: "Thermometer.celsius", owner: 0)))
            // Named once, on first access.
            _ = thermometer.celsius
            #expect(tracer.events.filter { if case .named = $0 { true } else { false } }.count == 1)
        }
    }

    @Test func dependChangedInvalidatedAndRerunInOrder() {
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            let dependency = Dependency("d")
            let computation = reactor.autorun("c") { _ in
                dependency.depend()
                dependency.depend()  // not a new dependent: no second event
            }
            dependency.changed()
            reactor.flush()
            let id = computation.id
            let tail = tracer.events.drop { $0 != .rerunBegan(id, firstRun: true) }
            #expect(Array(tail) == [
                .rerunBegan(id, firstRun: true),
                .depend(computation: id, dependency: dependency.id),
                .rerunEnded(id),
                .changed(dependency.id),
                .invalidated(id, .dependency, source: dependency.id),
                .flushBegan,
                .rerunBegan(id, firstRun: false),
                .depend(computation: id, dependency: dependency.id),
                .rerunEnded(id),
                .flushEnded,
            ])
        }
    }

    @Test func invalidationCauses() {
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            var inner: Computation?
            let outer = reactor.autorun { _ in inner = reactor.autorun { _ in } }
            let innerID = inner!.id
            outer.invalidate()
            #expect(tracer.events.suffix(3) == [
                .invalidated(outer.id, .explicit, source: 0),
                .invalidated(innerID, .parent, source: outer.id),
                .stopped(innerID),
            ])
            reactor.flush()
            let single = reactor.autorun { _ in }
            single.stop()
            #expect(tracer.events.suffix(2) == [
                .invalidated(single.id, .stop, source: 0),
                .stopped(single.id),
            ])
            outer.stop()
        }
    }

    @Test func stopsByRunawayAndByErrorSaySo() {
        struct Failure: Error {}
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            reactor.issueHandler = { _ in }
            reactor.runawayLimit = 3
            let failing = reactor.autorun(onError: { _ in }) { _ in throw Failure() }
            #expect(tracer.events.suffix(2) == [
                .invalidated(failing.id, .error, source: 0),
                .stopped(failing.id),
            ])
            let runaway = reactor.autorun { c in c.invalidate() }
            reactor.flush()
            #expect(runaway.isStopped)
            #expect(tracer.events.contains(.invalidated(runaway.id, .runaway, source: 0)))
        }
    }

    @Test func nestedRerunsNest() {
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            var inner: Computation?
            let outer = reactor.autorun { _ in inner = reactor.autorun { _ in } }
            let reruns = tracer.events.filter {
                switch $0 { case .rerunBegan, .rerunEnded: true; default: false }
            }
            #expect(reruns == [
                .rerunBegan(outer.id, firstRun: true),
                .rerunBegan(inner!.id, firstRun: true),
                .rerunEnded(inner!.id),
                .rerunEnded(outer.id),
            ])
        }
    }

    @Test func reactiveWriteAndComputedEvents() {
        tracing { tracer in
            let reactor = Reactor()
            let thermometer = Thermometer()
            let fahrenheit = reactor.computed("fahrenheit") { thermometer.celsius * 9 / 5 + 32 }
            let display = reactor.autorun("display") { _ in _ = fahrenheit.value }
            let property = thermometer.$celsius.projectedDependency.id
            let start = tracer.events.count
            thermometer.celsius = 25
            let events = Array(tracer.events[start...])
            #expect(events == [
                .changed(property),
                .invalidated(fahrenheit.id, .dependency, source: property),
                .flushBegan,
                .rerunBegan(fahrenheit.id, firstRun: false),
                .depend(computation: fahrenheit.id, dependency: property),
                .rerunEnded(fahrenheit.id),
                .changed(fahrenheit.id),
                .invalidated(display.id, .dependency, source: fahrenheit.id),
                .rerunBegan(display.id, firstRun: false),
                .depend(computation: display.id, dependency: fahrenheit.id),
                .rerunEnded(display.id),
                .flushEnded,
            ])
            // An equal write emits nothing.
            let count = tracer.events.count
            thermometer.celsius = 25
            #expect(tracer.events.count == count)
        }
    }

    /// A traced run's reads of computeds: one `depend` per read, in read
    /// order, whether at the last run's cursor, repeated in a row (no event)
    /// or out of the last run's order; and the links are kept, so a write to
    /// either source reruns the reader again.
    @Test func tracedReadsRecordOneDependEachInOrderAndKeepTheirLinks() {
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            let left = Thermometer()
            let right = Thermometer()
            let first = reactor.computed("first") { left.celsius }
            let second = reactor.computed("second") { right.celsius }
            var swapped = false
            let reader = reactor.autorun("reader") { _ in
                if swapped {
                    _ = second.value
                    _ = first.value
                } else {
                    _ = first.value
                    _ = first.value
                    _ = second.value
                }
            }
            func readerDepends(after write: () -> Void) -> [RecordedEvent] {
                let start = tracer.events.count
                write()
                reactor.flush()
                return tracer.events[start...].filter {
                    if case .depend(computation: reader.id, dependency: _) = $0 { true } else { false }
                }
            }
            let inOrder: [RecordedEvent] = [.depend(computation: reader.id, dependency: first.id),
                                            .depend(computation: reader.id, dependency: second.id)]
            #expect(readerDepends { left.celsius += 1 } == inOrder)
            #expect(readerDepends { right.celsius += 1 } == inOrder)
            swapped = true
            #expect(readerDepends { left.celsius += 1 } == inOrder.reversed())
            #expect(readerDepends { right.celsius += 1 } == inOrder.reversed())
            #expect(readerDepends { left.celsius += 1 } == inOrder.reversed())
            reader.stop()
        }
    }

    @Test func issueEvents() {
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            reactor.issueHandler = { _ in }
            reactor.runawayLimit = 5
            let runaway = reactor.autorun { c in c.invalidate() }
            reactor.afterFlush { reactor.flush() }
            reactor.flush()
            let thrower = reactor.autorun { _ in throw TestError("x") }
            reactor.onInvalidate { _ in }
            let issues = tracer.events.filter { if case .issue = $0 { true } else { false } }
            #expect(issues == [
                .issue(.runaway, node: runaway.id),
                .issue(.nestedFlush, node: 0),
                .issue(.uncaughtError, node: thrower.id),
                .issue(.misuse, node: 0),
            ])
            #expect(tracer.issueMessages.count == 4)
            #expect(tracer.issueMessages[0].contains("reran 5 times"))
        }
    }

    @Test func flushEventsBracketEachFlush() {
        tracing { tracer in
            let reactor = Reactor(scheduler: .manual)
            reactor.afterFlush {}
            reactor.flush()
            reactor.flush()
            let flushes = tracer.events.filter { $0 == .flushBegan || $0 == .flushEnded }
            #expect(flushes == [.flushBegan, .flushEnded, .flushBegan, .flushEnded])
        }
    }

    @Test func nothingIsRecordedAfterUninstall() {
        let tracer = RecordingTracer()
        ReactorTracing.install(tracer)
        ReactorTracing.install(nil)
        let reactor = Reactor(scheduler: .manual)
        let dependency = Dependency()
        reactor.autorun { _ in dependency.depend() }
        dependency.changed()
        reactor.flush()
        #expect(tracer.events.isEmpty)
    }
}
