import Foundation
import ReactorCore
import Synchronization
import Testing
@testable import ReactorTrace

/// Many threads recording at once, each into its own buffer: every event
/// arrives, in order per thread, under its own thread index.
@Suite struct ThreadRecordingTests {
    @Test func manyThreadsEachKeepTheirEventsInOrder() throws {
        let threadCount = 8
        let perThread = 20_000
        // Small buffers and a short queue: many rotations, and backpressure.
        let options = TraceRecorder.Options(segmentCapacity: 1024, maxQueuedSegments: 2)
        let bytes = try TraceFixtures.record(options: options) { recorder in
            let group = DispatchGroup()
            for thread in 0..<threadCount {
                let base = UInt64(thread + 1) << 32
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    for index in 0..<UInt64(perThread) {
                        if index % 1000 == 0 { recorder.rerunBegan(computation: base, firstRun: index == 0) }
                        recorder.changed(dependency: base + index)
                    }
                }
            }
            group.wait()
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(reader.truncation == nil)
        var byThread: [UInt32: [UInt64]] = [:]
        var firstRuns = 0
        for event in events {
            switch event.record {
            case let .changed(dependency): byThread[event.thread, default: []].append(dependency)
            case let .rerunBegan(_, firstRun): if firstRun { firstRuns += 1 }
            default: Issue.record("unexpected \(event.record)")
            }
        }
        #expect(byThread.count == threadCount)
        #expect(firstRuns == threadCount)
        for (_, dependencies) in byThread {
            let base = try #require(dependencies.first)
            #expect(base & 0xFFFF_FFFF == 0)
            #expect(dependencies == Array(base..<base + UInt64(perThread)))
        }
        #expect(reader.end?.events == UInt64(events.count))
        #expect(reader.end?.threads == UInt32(threadCount))
    }

    @Test func successiveRecordingsOnOneThreadStaySeparate() throws {
        let first = try TraceFixtures.record { $0.changed(dependency: 1) }
        let second = try TraceFixtures.record { recorder in
            recorder.changed(dependency: 2)
            recorder.changed(dependency: 3)
        }
        #expect(try TraceFixtures.readAll(first).events.map(\.record) == [.changed(dependency: 1)])
        #expect(try TraceFixtures.readAll(second).events.map(\.record) == [.changed(dependency: 2), .changed(dependency: 3)])
    }

    /// Two recordings at once on one thread (as a process-wide scenario
    /// recording beside a task-scoped one), their events interleaved: each
    /// trace holds its events in order under one thread, not a thread a switch.
    @Test func recordingsAtOnceOnOneThreadEachKeepItAsOneThread() throws {
        let firstPath = TraceFixtures.temporaryPath(), secondPath = TraceFixtures.temporaryPath()
        defer { unlink(firstPath); unlink(secondPath) }
        let first = try TraceRecorder(path: firstPath)
        let second = try TraceRecorder(path: secondPath)
        for index in 0..<UInt64(50) {
            first.rerunBegan(computation: 1, firstRun: index == 0)
            second.changed(dependency: 100 + index)
            first.changed(dependency: 200 + index)
            second.rerunEnded(computation: 2)
        }
        first.stop()
        second.stop()
        let (firstEvents, firstReader) = try TraceFixtures.readAll(try [UInt8](Data(contentsOf: URL(fileURLWithPath: firstPath))))
        let (secondEvents, secondReader) = try TraceFixtures.readAll(try [UInt8](Data(contentsOf: URL(fileURLWithPath: secondPath))))
        #expect(firstReader.end?.threads == 1)
        #expect(secondReader.end?.threads == 1)
        #expect(Set(firstEvents.map(\.thread)).count == 1)
        #expect(Set(secondEvents.map(\.thread)).count == 1)
        var firstExpected: [TraceRecord] = [], secondExpected: [TraceRecord] = []
        for index in 0..<UInt64(50) {
            firstExpected += [.rerunBegan(computation: 1, firstRun: index == 0), .changed(dependency: 200 + index)]
            secondExpected += [.changed(dependency: 100 + index), .rerunEnded(computation: 2)]
        }
        #expect(firstEvents.map(\.record) == firstExpected)
        #expect(secondEvents.map(\.record) == secondExpected)
    }

    @Test func threadsThatExitAreShippedAndForgotten() throws {
        let path = TraceFixtures.temporaryPath("exits")
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path)
        for round in 0..<4 {
            Self.runOnJoinedThread { recorder.changed(dependency: UInt64(round + 1)) }
        }
        // The writer drops exited threads on its next pass (every 10 ms).
        var waited = 0
        while recorder.registeredThreads > 0, waited < 10_000 {
            usleep(1000)
            waited += 1
        }
        #expect(recorder.registeredThreads == 0)
        recorder.stop()
        let (events, reader) = try TraceFixtures.readAll(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(Set(events.map(\.record)) == Set((1...4).map { TraceRecord.changed(dependency: $0) }))
        #expect(Set(events.map(\.thread)).count == 4)
        #expect(reader.end?.threads == 4)
    }

    /// Records `count` events on another thread between the moment the writer
    /// has finished and its final pass (after one event there before the stop),
    /// with 256-byte buffers (about 100 events each) and a queue of one; returns
    /// the statistics, the events read back and the end block's dropped count.
    static func recordWhileStopping(_ count: Int) throws -> (TraceRecorder.Statistics, [TraceEvent], UInt64?) {
        let path = TraceFixtures.temporaryPath("stopping")
        defer { unlink(path) }
        let options = TraceRecorder.Options(segmentCapacity: 256, maxQueuedSegments: 1,
                                            flushInterval: .seconds(3600), flushesOnCrash: false)
        let recorder = try TraceRecorder(path: path, options: options)
        let attached = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let recorded = DispatchSemaphore(value: 0)
        // Every wait is bounded, so a handshake that never completes fails with a message.
        // (Not a `.timeLimit` trait: that runs the body as a child task, which waits for a
        // free cooperative thread; on 2 cores a busy test run held those for 10 minutes.)
        let waitedTooLong = Atomic<Bool>(false)
        @Sendable func waitBounded(_ semaphore: DispatchSemaphore) {
            if semaphore.wait(timeout: .now() + .seconds(60)) == .timedOut {
                waitedTooLong.store(true, ordering: .relaxed)
            }
        }
        Thread.detachNewThread {
            recorder.changed(dependency: 1)
            attached.signal()
            waitBounded(finished)
            for index in 0..<UInt64(count) { recorder.changed(dependency: index + 2) }
            recorded.signal()
        }
        waitBounded(attached)
        recorder.writer.beforeFinalPass = {
            finished.signal()
            waitBounded(recorded)
        }
        let statistics = recorder.stop()
        let met = !waitedTooLong.load(ordering: .relaxed)
        try #require(met, "the recording thread, the writer and stop() did not meet within 60 s")
        let reader = try TraceReader(bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        #expect(reader.truncation == nil)
        #expect(UInt64(events.count + reader.clockEvents) == statistics.events)
        return (statistics, events, reader.end?.eventsDropped)
    }

    /// A thread whose buffer fills while `stop()` runs, before the writer's final
    /// pass, queues it while its queue has room: the final pass writes it.
    @Test func aBufferFilledDuringTheStopIsQueuedAndWritten() throws {
        // About one buffer and a half: one rotation, into the empty queue.
        let (statistics, events, endDropped) = try Self.recordWhileStopping(150)
        #expect(statistics.eventsDropped == 0)
        #expect(endDropped == 0)
        // The thread's first event is untimed: a clock event goes before it.
        #expect(statistics.events == 152)
        #expect(events.map(\.record) == (1...151).map { TraceRecord.changed(dependency: $0) })
    }

    /// A thread whose queue is full while `stop()` runs never waits for the
    /// finished writer: it drops its buffer, and the events the writer had not
    /// shipped count as dropped, in the statistics and the end block.
    @Test func buffersDroppedDuringTheStopAreCounted() throws {
        // About twenty buffers: the first fills the queue, most of the rest are dropped.
        let (statistics, events, endDropped) = try Self.recordWhileStopping(2000)
        #expect(statistics.eventsDropped > 1000)
        #expect(endDropped == statistics.eventsDropped)
        #expect(statistics.events + statistics.eventsDropped == 2002)
        // What is written is in order: the first buffers, then the last one.
        let written = events.compactMap { event -> UInt64? in
            if case let .changed(dependency) = event.record { return dependency }
            return nil
        }
        #expect(written.count == events.count)
        #expect(written == written.sorted())
        #expect(written.first == 1)
        #expect(written.last == 2001)
    }

    /// Runs `body` on a new POSIX thread and returns once that thread has exited.
    static func runOnJoinedThread(_ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
        #expect(status == 0)
        pthread_join(thread, nil)
    }

    /// The recorder: a thread that starts after the trace and whose first event
    /// is untimed gets a clock event first, so its events read no earlier than
    /// what happened before the thread started.
    @Test func aLaterThreadsFirstUntimedEventReadsAtItsStart() throws {
        let bytes = try TraceFixtures.record { recorder in
            recorder.rerunBegan(computation: 1, firstRun: true)
            recorder.rerunEnded(computation: 1)
            let group = DispatchGroup()
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                recorder.changed(dependency: 5)
                recorder.invalidated(computation: 1, cause: .dependency, source: 5)
            }
            group.wait()
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        let started = try #require(events.first { $0.record == .rerunEnded(computation: 1) })
        let later = events.filter { $0.thread != started.thread }
        #expect(later.map(\.record) == [.changed(dependency: 5),
                                        .invalidated(computation: 1, cause: .dependency, source: 5)])
        for event in later { #expect(event.timestamp >= started.timestamp && event.timestamp > 0) }
        #expect(reader.clockEvents == 1)
        #expect(reader.end?.events == UInt64(reader.eventsRead + reader.clockEvents))
    }

    /// A thread whose first event is timed needs no clock event.
    @Test func aTimedFirstEventNeedsNoClock() throws {
        let bytes = try TraceFixtures.record { recorder in
            recorder.flushBegan()
            recorder.changed(dependency: 5)
            recorder.flushEnded()
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(events.count == 3)
        #expect(reader.clockEvents == 0)
    }
}
