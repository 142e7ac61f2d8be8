import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

/// A thread's full buffers, once the writer has shipped and written them, come
/// back to it as spares, and its next rotation takes one instead of allocating;
/// the trace still holds every event, in order.
@Suite struct SegmentReuseTests {
    /// The buffer the calling thread is recording into.
    static func currentSegment(of recorder: TraceRecorder) -> ObjectIdentifier {
        var segment: ObjectIdentifier?
        recorder.withThread { segment = ObjectIdentifier($0.segment) }
        return segment!
    }

    /// The spare the calling thread's next rotation takes, if any (held by the
    /// spare list, so its identity cannot be that of a freed and reallocated object).
    static func nextSpare(of recorder: TraceRecorder) -> ObjectIdentifier? {
        var spare: ObjectIdentifier?
        recorder.withThread { thread in spare = thread.handoff.withLock { $0.spare.last.map(ObjectIdentifier.init) } }
        return spare
    }

    @Test func writtenSegmentsAreReusedAndTheTraceStaysWhole() throws {
        var written: UInt64 = 0
        var reused = 0
        let rotations = 20
        let options = TraceRecorder.Options(segmentCapacity: 256, flushInterval: .milliseconds(1))
        let bytes = try TraceFixtures.record(options: options) { recorder in
            recorder.changed(dependency: 1)
            written = 1
            for _ in 0..<rotations {
                // Fill the current buffer until the thread moves to another one.
                let start = Self.currentSegment(of: recorder)
                var spare = Self.nextSpare(of: recorder)
                while Self.currentSegment(of: recorder) == start {
                    written += 1
                    recorder.changed(dependency: written)
                }
                if spare != nil, Self.currentSegment(of: recorder) == spare { reused += 1 }
                // Let the writer ship the full buffer and hand it back.
                var polls = 0
                spare = Self.nextSpare(of: recorder)
                while spare == nil, polls < 5_000 {
                    usleep(1000)
                    polls += 1
                    spare = Self.nextSpare(of: recorder)
                }
                try #require(spare != nil, "the writer gave no buffer back")
            }
        }
        // The first rotation had no spare yet; every later one reused one.
        #expect(reused == rotations - 1)
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(reader.truncation == nil)
        #expect(events.map(\.record) == (1...written).map { TraceRecord.changed(dependency: $0) })
    }
}
