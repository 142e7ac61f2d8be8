import Foundation
import ReactorCore
import ReactorTraceFormat
import Testing
import TracerSlot
@testable import ReactorTrace

extension FastPathTests {
    /// A traced read kept in place and an invalidation are written inline
    /// through the thread's encoder only while its recording is the installed
    /// tracer: a recording replaced in the middle of a run gets none of the
    /// run's later events, which go to the new one, and each recording reads
    /// back exactly the reads and invalidations sent while it was installed.
    @Test(.installsTracer, arguments: [false, true])
    func aRecordingReplacedMidRunGetsNoneOfTheRunsLaterEvents(usesCycleCounter: Bool) throws {
        let options = TraceRecorder.Options(usesCycleCounter: usesCycleCounter)
        let firstPath = TraceFixtures.temporaryPath("first"), secondPath = TraceFixtures.temporaryPath("second")
        defer {
            unlink(firstPath)
            unlink(secondPath)
        }
        let first = try TraceRecorder(path: firstPath, options: options)
        let second = try TraceRecorder(path: secondPath, options: options)
        let reactor = Reactor()
        let inputs = (0..<4).map { ReactiveProperty(initialValue: $0, name: "input\($0)") }
        // Computeds: a reader's read of a clean one kept in place is the inline `depend`.
        let computeds = inputs.map { input in reactor.computed { input.value } }
        let watched = ReactiveProperty(initialValue: 0, name: "watched")
        let watcher = reactor.autorun("watcher") { _ in _ = watched.value }
        var runs = 0
        ReactorTracing.install(first)
        // On its third run, the second recording replaces the first between
        // the reads of computeds 1 and 2, then the run invalidates the watcher.
        let reader = reactor.autorun("reader") { _ in
            runs += 1
            _ = computeds[0].value
            _ = computeds[1].value
            if runs == 3 {
                ReactorTracing.install(second)
                watcher.invalidate()
            }
            _ = computeds[2].value
            _ = computeds[3].value
        }
        watched.value = 1     // the watcher's invalidation under the first recording
        inputs[3].value = 10  // run 2: the reads of computeds 0 to 2 kept in place
        inputs[3].value = 11  // run 3: the switch
        inputs[3].value = 12  // run 4, under the second recording
        ReactorTracing.install(nil)
        first.stop()
        second.stop()
        reader.stop()
        watcher.stop()

        let ids = computeds.map(\.id)
        func events(_ path: String) throws -> [TraceRecord] {
            try TraceFixtures.readAll([UInt8](Data(contentsOf: URL(fileURLWithPath: path)))).events.map(\.record)
        }
        /// The reader's reads, by run (a run begun under another recording starts with no begin).
        func reads(_ events: [TraceRecord]) -> [[UInt64]] {
            var runs: [[UInt64]] = []
            for event in events {
                switch event {
                case let .rerunBegan(computation, _) where computation == reader.id: runs.append([])
                case let .depend(computation, dependency) where computation == reader.id:
                    if runs.isEmpty { runs.append([]) }
                    runs[runs.count - 1].append(dependency)
                default: break
                }
            }
            return runs
        }
        func invalidations(_ events: [TraceRecord]) -> [TraceRecord] {
            events.filter {
                if case let .invalidated(computation, _, _) = $0 { return computation == watcher.id }
                return false
            }
        }
        let (firstEvents, secondEvents) = (try events(firstPath), try events(secondPath))
        #expect(reads(firstEvents) == [ids, ids, [ids[0], ids[1]]])
        #expect(reads(secondEvents) == [[ids[2], ids[3]], ids])
        #expect(invalidations(firstEvents) == [.invalidated(computation: watcher.id, cause: .dependency, source: watched.id)])
        #expect(invalidations(secondEvents) == [.invalidated(computation: watcher.id, cause: .explicit, source: 0)])
    }
}

extension FastPathTests {
    /// The events the core writes itself through an installed recorder's
    /// encoders (reads, invalidations, a computed's rederive's begin, a flush
    /// rerun's end with the next rerun's begin) read back as the same recorder's
    /// protocol methods record them when a tracer without encoders forwards
    /// to them: one graph's updates recorded both ways, ids numbered by first use.
    @Test(.installsTracer, arguments: [false, true])
    func coreInlineEventsReadBackAsTheProtocolMethodsRecordThem(usesCycleCounter: Bool) throws {
        let options = TraceRecorder.Options(usesCycleCounter: usesCycleCounter)
        let direct = try Self.recordUpdates(options: options) { $0 }
        let forwarded = try Self.recordUpdates(options: options) { ForwardingTracer(to: $0) }
        #expect(direct.count > 200)
        #expect(direct == forwarded)
    }

    /// Records a graph's updates with `tracer(recorder)` installed, and returns
    /// the recorder's events with each id replaced by its rank of first use.
    private static func recordUpdates(options: TraceRecorder.Options,
                                      installing tracer: (TraceRecorder) -> any ReactorTracer) throws -> [TraceRecord] {
        let path = TraceFixtures.temporaryPath("updates")
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path, options: options)
        ReactorTracing.install(tracer(recorder))
        let reactor = Reactor()
        let a = ReactiveProperty(initialValue: 1, name: "a"), b = ReactiveProperty(initialValue: 2, name: "b")
        let sum = reactor.computed("sum") { a.value + b.value }
        let half = reactor.computed("half") { sum.value / 2 }
        let mixed = reactor.computed("mixed") { half.value + a.value }
        let autoruns = [
            reactor.autorun("first") { _ in _ = mixed.value },
            reactor.autorun("second") { _ in _ = sum.value + half.value },
            reactor.autorun("third") { _ in _ = b.value + mixed.value },
            reactor.autorun("fourth") { _ in _ = half.value },
        ]
        for step in 0..<12 {
            if step % 3 == 0 {
                reactor.batch {
                    a.value += 1
                    b.value -= 1
                }
            } else if step % 2 == 0 {
                b.value += step
            } else {
                a.value += step
            }
        }
        ReactorTracing.install(nil)
        recorder.stop()
        for autorun in autoruns { autorun.stop() }
        let (events, _) = try TraceFixtures.readAll([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        var ranks: [UInt64: UInt64] = [0: 0]
        func rank(_ id: UInt64) -> UInt64 {
            if let known = ranks[id] { return known }
            ranks[id] = UInt64(ranks.count)
            return ranks[id]!
        }
        return events.map { event in
            switch event.record {
            case let .nodeCreated(id, kind, name, parent): .nodeCreated(id: rank(id), kind: kind, name: name, parent: rank(parent))
            case let .nodeStopped(id): .nodeStopped(id: rank(id))
            case let .depend(computation, dependency): .depend(computation: rank(computation), dependency: rank(dependency))
            case let .changed(dependency): .changed(dependency: rank(dependency))
            case let .invalidated(computation, cause, source):
                .invalidated(computation: rank(computation), cause: cause, source: rank(source))
            case let .rerunBegan(computation, firstRun): .rerunBegan(computation: rank(computation), firstRun: firstRun)
            case let .rerunEnded(computation): .rerunEnded(computation: rank(computation))
            case let .site(node, _, isActionCall): .site(node: rank(node), site: "", isActionCall: isActionCall)
            default: event.record
            }
        }
    }
}
