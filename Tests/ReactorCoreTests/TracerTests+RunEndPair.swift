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

/// A tracer that implements `rerunEnded(computation:changed:)` and records it
/// as one event: it shows which call the core made. Events of other threads
/// are dropped, as in `RecordingTracer`.
final class RunEndPairTracer: IgnoringTracer {
    enum Event: Equatable {
        case event(RecordedEvent)
        case rerunEndedChanged(UInt64, output: UInt64)
        case value(UInt64)
    }

    let valueLengthLimit: Int
    private let thread = pthread_self()
    private let recorded = Mutex<[Event]>([])

    init(valueLengthLimit: Int) { self.valueLengthLimit = valueLengthLimit }

    var events: [Event] { recorded.withLock { $0 } }

    private func record(_ event: Event) {
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
        recorded.withLock { $0.append(event) }
    }

    func depend(computation: UInt64, dependency: UInt64) {
        record(.event(.depend(computation: computation, dependency: dependency)))
    }
    func changed(dependency: UInt64) { record(.event(.changed(dependency))) }
    func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        record(.event(.invalidated(computation, cause, source: source)))
    }
    func rerunBegan(computation: UInt64, firstRun: Bool) { record(.event(.rerunBegan(computation, firstRun: firstRun))) }
    func rerunEnded(computation: UInt64) { record(.event(.rerunEnded(computation))) }
    func rerunEnded(computation: UInt64, changed output: UInt64) {
        record(.rerunEndedChanged(computation, output: output))
    }
    func value(_ node: UInt64, description: String) { record(.value(node)) }
}

private final class Kettle {
    @Reactive var celsius = 20
}

extension TracerTests {
    /// What a tracer with `valueLengthLimit` receives when a kettle's
    /// temperature changes under a computed `fahrenheit` read by an autorun `display`.
    private static func eventsOfOneWrite(valueLengthLimit: Int)
        -> (events: [RunEndPairTracer.Event], fahrenheit: UInt64, display: UInt64, property: UInt64, firstRunEnded: Bool) {
        let tracer = RunEndPairTracer(valueLengthLimit: valueLengthLimit)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let kettle = Kettle()
        let fahrenheit = reactor.computed("fahrenheit") { kettle.celsius * 9 / 5 + 32 }
        let display = reactor.autorun("display") { _ in _ = fahrenheit.value }
        let firstRunEnded = tracer.events.contains(.event(.rerunEnded(fahrenheit.id)))
        let start = tracer.events.count
        kettle.celsius = 25
        let events = Array(tracer.events[start...])
        display.stop()
        return (events, fahrenheit.id, display.id, kettle.$celsius.projectedDependency.id, firstRunEnded)
    }

    /// A computed recomputed to a new value ends its run and announces the
    /// change in one call, when no value event goes between the two.
    @Test func aNewValueEndsTheRunAndChangesInOneCall() {
        let (events, fahrenheit, display, property, firstRunEnded) = Self.eventsOfOneWrite(valueLengthLimit: 0)
        // The first run has no change to announce.
        #expect(firstRunEnded)
        #expect(events == [
            .event(.changed(property)),
            .event(.invalidated(fahrenheit, .dependency, source: property)),
            .event(.rerunBegan(fahrenheit, firstRun: false)),
            .event(.depend(computation: fahrenheit, dependency: property)),
            .rerunEndedChanged(fahrenheit, output: fahrenheit),
            .event(.invalidated(display, .dependency, source: fahrenheit)),
            .event(.rerunBegan(display, firstRun: false)),
            .event(.depend(computation: display, dependency: fahrenheit)),
            .event(.rerunEnded(display)),
        ])
    }

    /// With value capture on, the new value's event goes between the run's
    /// end and the change: the core makes the two calls.
    @Test func withValuesTheValueGoesBetweenTheRunEndAndTheChange() {
        let (events, fahrenheit, _, _, _) = Self.eventsOfOneWrite(valueLengthLimit: 64)
        let ended = events.firstIndex(of: .event(.rerunEnded(fahrenheit)))
        #expect(ended != nil)
        if let ended {
            #expect(Array(events[ended...].prefix(3)) == [
                .event(.rerunEnded(fahrenheit)), .value(fahrenheit), .event(.changed(fahrenheit)),
            ])
        }
        #expect(!events.contains { if case .rerunEndedChanged = $0 { true } else { false } })
    }
}
