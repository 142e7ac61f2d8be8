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

/// A tracer that implements `rerunEnded(computation:changed:)`,
/// `rerunEnded(computation:changed:invalidated:)` and
/// `rerunEnded(computation:changed:rerunning:)` and records each as one
/// call: it shows which calls the core made, and (`events`) the events they
/// stand for. Events of other threads are dropped.
final class RunEndInvalidationTracer: IgnoringTracer {
    enum Call: Equatable {
        case event(RecordedEvent)
        case endChanged(UInt64, output: UInt64)
        case endChangedInvalidated(UInt64, output: UInt64, reader: UInt64)
        case endChangedRerunning(UInt64, output: UInt64, reader: UInt64)
    }

    private let thread = pthread_self()
    private let recorded = Mutex<[Call]>([])

    var calls: [Call] { recorded.withLock { $0 } }

    /// The calls as the events the default implementations send.
    var events: [RecordedEvent] { calls.flatMap(Self.events(of:)) }

    /// One call as the events the default implementations send.
    static func events(of call: Call) -> [RecordedEvent] {
        switch call {
        case let .event(event): [event]
        case let .endChanged(computation, output): [.rerunEnded(computation), .changed(output)]
        case let .endChangedInvalidated(computation, output, reader):
            [.rerunEnded(computation), .changed(output), .invalidated(reader, .dependency, source: output)]
        case let .endChangedRerunning(computation, output, reader):
            [.rerunEnded(computation), .changed(output), .invalidated(reader, .dependency, source: output),
             .rerunBegan(reader, firstRun: false)]
        }
    }

    private func record(_ call: Call) {
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
        recorded.withLock { $0.append(call) }
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
        record(.endChanged(computation, output: output))
    }
    func rerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64) {
        record(.endChangedInvalidated(computation, output: output, reader: reader))
    }
    func rerunEnded(computation: UInt64, changed output: UInt64, rerunning reader: UInt64) {
        record(.endChangedRerunning(computation, output: output, reader: reader))
    }
    func flushBegan() { record(.event(.flushBegan)) }
    func flushEnded() { record(.event(.flushEnded)) }
}

private final class Boiler {
    @Reactive var celsius = 20
}

extension TracerTests {
    /// One write under `half` and `double` (computeds of the temperature),
    /// read by an autorun `panel`, as the calls a `RunEndInvalidationTracer`
    /// receives and as the events a `RecordingTracer` (which implements
    /// neither combination) receives for the same scenario, both with node
    /// ids replaced by names so that the two runs compare.
    private static func oneWriteUnderTwoComputeds(panelHasCallback: Bool)
        -> (calls: [RunEndInvalidationTracer.Call], combined: [String], separate: [String], names: [UInt64: String]) {
        func scenario(events: () -> [RecordedEvent]) -> (events: [RecordedEvent], names: [UInt64: String]) {
            let reactor = Reactor()
            let boiler = Boiler()
            let half = reactor.computed("half") { boiler.celsius / 2 }
            let double = reactor.computed("double") { boiler.celsius * 2 }
            let panel = reactor.autorun("panel") { computation in
                _ = half.value
                _ = double.value
                if panelHasCallback { computation.onInvalidate { _ in } }
            }
            let names = [half.id: "half", double.id: "double", panel.id: "panel",
                         boiler.$celsius.projectedDependency.id: "celsius"]
            let start = events().count
            boiler.celsius = 30
            let written = Array(events()[start...])
            panel.stop()
            return (written, names)
        }
        func text(_ events: [RecordedEvent], _ names: [UInt64: String]) -> [String] {
            func n(_ id: UInt64) -> String { names[id] ?? "\(id)" }
            return events.map { event in
                switch event {
                case let .depend(computation, dependency): "depend(\(n(computation)), \(n(dependency)))"
                case let .changed(id): "changed(\(n(id)))"
                case let .invalidated(id, _, source): "invalidated(\(n(id)), \(n(source)))"
                case let .rerunBegan(id, _): "begin(\(n(id)))"
                case let .rerunEnded(id): "end(\(n(id)))"
                default: "\(event)"
                }
            }
        }
        let combining = RunEndInvalidationTracer()
        ReactorTracing.install(combining)
        let (combinedEvents, names) = scenario { combining.events }
        let calls = combining.calls
        ReactorTracing.install(nil)
        let separating = RecordingTracer()
        ReactorTracing.install(separating)
        let (separateEvents, separateNames) = scenario { separating.events }
        ReactorTracing.install(nil)
        return (calls, text(combinedEvents, names), text(separateEvents, separateNames), names)
    }

    /// A recomputed value's first reader that the change invalidates is
    /// sent with the run's end and the change in one call; a reader the
    /// change finds invalidated already records nothing, and the end and
    /// the change go alone. The events are those of the separate calls.
    @Test func aChangesFirstInvalidationGoesWithTheRunEnd() {
        let (calls, combined, separate, names) = Self.oneWriteUnderTwoComputeds(panelHasCallback: false)
        #expect(combined == separate)
        #expect(combined == [
            "changed(celsius)", "invalidated(half, celsius)", "invalidated(double, celsius)", "flushBegan",
            // `half` changes first: its end, change and the panel's invalidation in one call.
            "begin(half)", "depend(half, celsius)", "end(half)", "changed(half)", "invalidated(panel, half)",
            // The panel reruns and reads `double`, whose change finds no live reader.
            "begin(panel)", "depend(panel, half)",
            "begin(double)", "depend(double, celsius)", "end(double)", "changed(double)",
            "depend(panel, double)", "end(panel)", "flushEnded",
        ])
        let id = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
        guard let half = id["half"], let double = id["double"], let panel = id["panel"] else {
            Issue.record("missing nodes: \(names)")
            return
        }
        #expect(calls.contains(.endChangedInvalidated(half, output: half, reader: panel)))
        #expect(calls.contains(.endChanged(double, output: double)))
        #expect(!calls.contains(.event(.invalidated(panel, .dependency, source: half))))
    }

    /// A first reader with an `onInvalidate` callback gets its invalidation
    /// recorded on its own, after the run's end and the change: the callback
    /// runs with it, and may record events of its own.
    @Test func aReaderWithCallbacksIsInvalidatedAfterTheRunEnd() {
        let (calls, combined, separate, names) = Self.oneWriteUnderTwoComputeds(panelHasCallback: true)
        #expect(combined == separate)
        let id = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
        guard let half = id["half"], let panel = id["panel"] else {
            Issue.record("missing nodes: \(names)")
            return
        }
        #expect(!calls.contains { if case .endChangedInvalidated = $0 { true } else { false } })
        if let end = calls.firstIndex(of: .endChanged(half, output: half)) {
            #expect(calls.dropFirst(end + 1).first == .event(.invalidated(panel, .dependency, source: half)))
        } else {
            Issue.record("no end with change for half: \(calls)")
        }
    }
}

/// Records the events of the installing thread, with values on (so a
/// recomputed value's end is sent on its own, before its value, and its
/// change and invalidations follow separately).
private final class ValueRecordingTracer: IgnoringTracer {
    private let thread = pthread_self()
    private let recorded = Mutex<[RecordedEvent]>([])
    var events: [RecordedEvent] { recorded.withLock { $0 } }
    var valueLengthLimit: Int { 64 }

    private func record(_ event: RecordedEvent) {
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
        recorded.withLock { $0.append(event) }
    }

    func depend(computation: UInt64, dependency: UInt64) {
        record(.depend(computation: computation, dependency: dependency))
    }
    func changed(dependency: UInt64) { record(.changed(dependency)) }
    func invalidated(computation: UInt64, cause: ReactorTracing.InvalidationCause, source: UInt64) {
        record(.invalidated(computation, cause, source: source))
    }
    func rerunBegan(computation: UInt64, firstRun: Bool) { record(.rerunBegan(computation, firstRun: firstRun)) }
    func rerunEnded(computation: UInt64) { record(.rerunEnded(computation)) }
    func flushBegan() { record(.flushBegan) }
    func flushEnded() { record(.flushEnded) }
}

extension TracerTests {
    /// A chain `celsius → half → quarter → panel`: the write makes `half`
    /// dirty and `quarter` possibly stale; the flush checks `quarter`, which
    /// refreshes `half`, whose change `quarter` alone reads while checking
    /// (the refresh marks it dirty directly). Each reader's invalidation is
    /// recorded all the same: with values off, in one call with the run's end,
    /// the change and the begin of `quarter`'s rerun, which follows at once
    /// (`quarter` then records no begin of its own); as separate events when
    /// values are on.
    @Test func aCheckingReadersInvalidationIsRecordedWithAndWithoutValues() {
        func scenario(events: () -> [RecordedEvent]) -> (written: [String], names: [String: UInt64]) {
            let reactor = Reactor()
            let boiler = Boiler()
            let half = reactor.computed("half") { boiler.celsius / 2 }
            let quarter = reactor.computed("quarter") { half.value / 2 }
            let panel = reactor.autorun("panel") { _ in _ = quarter.value }
            let names = [half.id: "half", quarter.id: "quarter", panel.id: "panel",
                         boiler.$celsius.projectedDependency.id: "celsius"]
            func n(_ id: UInt64) -> String { names[id] ?? "\(id)" }
            let start = events().count
            boiler.celsius = 30
            let written = events()[start...].map { event -> String in
                switch event {
                case let .depend(computation, dependency): "depend(\(n(computation)), \(n(dependency)))"
                case let .changed(id): "changed(\(n(id)))"
                case let .invalidated(id, cause, source): "invalidated(\(n(id)), \(cause), \(n(source)))"
                case let .rerunBegan(id, _): "begin(\(n(id)))"
                case let .rerunEnded(id): "end(\(n(id)))"
                default: "\(event)"
                }
            }
            panel.stop()
            return (written, Dictionary(uniqueKeysWithValues: names.map { ($1, $0) }))
        }
        let expected = [
            "changed(celsius)", "invalidated(half, dependency, celsius)", "flushBegan",
            "begin(half)", "depend(half, celsius)", "end(half)", "changed(half)", "invalidated(quarter, dependency, half)",
            "begin(quarter)", "depend(quarter, half)", "end(quarter)", "changed(quarter)",
            "invalidated(panel, dependency, quarter)",
            "begin(panel)", "depend(panel, quarter)", "end(panel)", "flushEnded",
        ]
        let combining = RunEndInvalidationTracer()
        ReactorTracing.install(combining)
        let (combined, ids) = scenario { combining.events }
        let calls = combining.calls
        ReactorTracing.install(nil)
        #expect(combined == expected)
        if let half = ids["half"], let quarter = ids["quarter"] {
            #expect(calls.contains(.endChangedRerunning(half, output: half, reader: quarter)))
            #expect(!calls.contains(.event(.rerunBegan(quarter, firstRun: false))))
        } else {
            Issue.record("missing nodes: \(ids)")
        }

        let withValues = ValueRecordingTracer()
        ReactorTracing.install(withValues)
        let (separate, _) = scenario { withValues.events }
        ReactorTracing.install(nil)
        #expect(separate == expected)
    }
}

extension TracerTests {
    /// A checking reader's rerun begin recorded with its source's run end
    /// leaves nothing behind: every later rerun of a computed, in the same
    /// refresh and in later ones, records its own begin. A chain of three
    /// computeds under one write, written three times: each write reruns each
    /// computed once, begin before end.
    @Test func eachRerunOfAChainRecordsOneBeginAcrossWrites() {
        let tracer = RunEndInvalidationTracer()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let boiler = Boiler()
        let half = reactor.computed("half") { boiler.celsius / 2 }
        let quarter = reactor.computed("quarter") { half.value / 2 }
        let eighth = reactor.computed("eighth") { quarter.value / 2 }
        let panel = reactor.autorun("panel") { _ in _ = eighth.value }
        defer { panel.stop() }
        var rerunning = 0
        for celsius in [40, 80, 160] {
            let start = tracer.calls.count
            boiler.celsius = celsius
            let calls = Array(tracer.calls[start...])
            rerunning += calls.filter { if case .endChangedRerunning = $0 { true } else { false } }.count
            let events = calls.flatMap(RunEndInvalidationTracer.events(of:))
            for node in [half.id, quarter.id, eighth.id, panel.id] {
                let begins = events.indices.filter { events[$0] == .rerunBegan(node, firstRun: false) }
                let ends = events.indices.filter { events[$0] == .rerunEnded(node) }
                #expect(begins.count == 1 && ends.count == 1, "celsius \(celsius), node \(node): \(events)")
                if let begin = begins.first, let end = ends.first { #expect(begin < end) }
            }
        }
        // `quarter` and `eighth` each begin with their source's end at every write.
        #expect(rerunning == 6)
    }
}
