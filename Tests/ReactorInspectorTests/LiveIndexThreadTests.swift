import Foundation
import ReactorInspector
import ReactorTraceFormat
import Synchronization
import Testing

/// The live index used as `serve` uses it: the follower reads and snapshots on
/// its thread while a question on another thread resumes from the snapshots
/// the latest published index lists (run under the thread sanitizer by `make tsan`).
@Suite struct LiveIndexThreadTests {
    /// The follower, used on its thread only once that starts, and what it publishes under a lock.
    final class Following: @unchecked Sendable {
        let live: LiveTrace
        let published: Mutex<(TraceIndex, Int)?>
        let done = Atomic<Bool>(false)

        init(_ live: LiveTrace) {
            self.live = live
            published = Mutex(live.index().map { ($0, live.bytesRead) })
        }
    }

    @Test func questionsOnAnotherThreadResumeFromTheFollowersSnapshotsWhileItReads() throws {
        let bytes = try LiveIndexTests.recordedBytes(todos: 120)
        let starts = LiveTraceTests.blockStarts(bytes)
        let path = NSTemporaryDirectory() + "live-index-thread-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes[0..<starts[starts.count / 4]])))
        let live = LiveTrace(path: path, snapshotInterval: 1)
        try live.catchUp()
        let following = Following(live)
        // The follower: the rest of the trace lands in pieces, each read and published.
        let follower = Thread {
            let live = following.live
            var written = starts[starts.count / 4]
            for end in stride(from: starts.count / 4 + 4, to: starts.count, by: 4).map({ starts[$0] }) + [bytes.count] {
                if let handle = try? FileHandle(forWritingTo: URL(fileURLWithPath: path)) {
                    _ = try? handle.seekToEnd()
                    try? handle.write(contentsOf: Data(bytes[written..<end]))
                    try? handle.close()
                }
                written = end
                try? live.catchUp()
                if let index = live.index() { following.published.withLock { $0 = (index, live.bytesRead) } }
            }
            following.done.store(true, ordering: .releasing)
        }
        follower.start()
        var asked = 0, resumed = 0
        let copy = path + ".prefix"
        defer { unlink(copy) }
        repeat {
            guard let (index, limit) = following.published.withLock({ $0 }) else { continue }
            // The latest time the bytes read hold: resumed from the last snapshot, nothing to read after it.
            let moment = TraceMoment.time(index.latestTimestamp)
            let pass = TracePass(byteLimit: limit)
            let (model, resolved, _) = try pass.run { try TraceFile.model(path: path, at: moment, index: .given(index)) }
            #expect(FileManager.default.createFile(atPath: copy, contents: Data(bytes[0..<limit])))
            let (expected, expectedMoment, _) = try TraceFile.model(path: copy, at: moment)
            #expect(try LiveIndexTests.answer(model, resolved) == LiveIndexTests.answer(expected, expectedMoment))
            asked += 1
            if pass.eventsRead < index.events { resumed += 1 }
        } while !following.done.load(ordering: .acquiring) || asked < 3
        #expect(resumed == asked, "every question resumed from a snapshot")
    }
}
