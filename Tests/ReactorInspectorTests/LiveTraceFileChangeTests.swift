import Foundation
import ReactorInspector
import Testing

/// `LiveTrace` follows the file at its path, not the one it opened: a file
/// replaced, rewritten in place, truncated or removed is a new recording (or
/// none), read from its start.
@Suite struct LiveTraceFileChangeTests {
    /// Events of a whole read of `bytes`, by a trace of its own.
    static func events(in bytes: [UInt8]) throws -> Int {
        let path = NSTemporaryDirectory() + "live-whole-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let live = LiveTrace(path: path)
        try live.catchUp()
        return live.model().eventCount
    }

    /// Writes `bytes` over the file at `path` in place: same inode, truncated first.
    static func rewrite(_ path: String, with bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    /// Past the trace's 50 ms between checks of the file's identity.
    static func settle() { usleep(80_000) }

    @Test func aReplacedRewrittenTruncatedOrRemovedFileIsFollowedAsItIsNow() throws {
        let first = try LiveTraceTests.recordedBytes(todos: 3)
        let second = try LiveTraceTests.recordedBytes(todos: 8)
        let third = try LiveTraceTests.recordedBytes(todos: 14)
        #expect(first.count < second.count && second.count < third.count)
        let path = NSTemporaryDirectory() + "live-change-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(first)))
        let live = LiveTrace(path: path)
        try live.catchUp()
        #expect(live.status == .finished)
        #expect(live.model().eventCount == (try Self.events(in: first)))
        #expect(live.generation == 0)

        // Replaced: another file renamed over it (another inode).
        let other = path + ".new"
        #expect(FileManager.default.createFile(atPath: other, contents: Data(second)))
        #expect(rename(other, path) == 0)
        Self.settle()
        try live.catchUp()
        #expect(live.generation == 1)
        #expect(live.status == .finished)
        #expect(live.model().eventCount == (try Self.events(in: second)))

        // Rewritten in place by a restarted app, already longer than what was read: only its header tells.
        try Self.rewrite(path, with: third)
        Self.settle()
        try live.catchUp()
        #expect(live.generation == 2)
        #expect(live.model().eventCount == (try Self.events(in: third)))

        // Truncated: the recording is awaited again, with nothing of the old one.
        #expect(truncate(path, 0) == 0)
        Self.settle()
        try live.poll()
        #expect(live.generation == 3)
        guard case .waiting = live.status else { Issue.record("not waiting: \(live.status)"); return }
        #expect(live.model().eventCount == 0)
        #expect(live.recentActions.isEmpty)

        // Removed: said so, until a new recording appears.
        try Self.rewrite(path, with: first)
        Self.settle()
        try live.catchUp()
        #expect(live.model().eventCount == (try Self.events(in: first)))
        #expect(unlink(path) == 0)
        Self.settle()
        try live.poll()
        #expect(live.status == .waiting("the trace was removed: waiting for a new recording at \(path)"))
        #expect(live.model().eventCount == 0)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(second)))
        try live.catchUp()
        #expect(live.status == .finished)
        #expect(live.model().eventCount == (try Self.events(in: second)))
    }

    @Test func theSamplerStartsItsRatesOverWithANewRecording() throws {
        let first = try LiveTraceTests.recordedBytes(todos: 12)
        let second = try LiveTraceTests.recordedBytes(todos: 2)
        let path = NSTemporaryDirectory() + "live-rates-\(UUID().uuidString).rtrace"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(first)))
        let live = LiveTrace(path: path)
        try live.catchUp()
        var sampler = LiveSampler(top: 10, recent: 5)
        _ = sampler.snapshot(of: live, model: live.model())
        try Self.rewrite(path, with: second)
        Self.settle()
        try live.catchUp()
        let snapshot = sampler.snapshot(of: live, model: live.model(), elapsedNanoseconds: 1_000_000_000)
        let list = try #require(snapshot.hot.first { $0.name == "TodoList.list" })
        // Not the new run's count minus the old run's: the first snapshot of a recording covers all of it.
        #expect(list.intervalReruns == list.reruns)
        #expect(list.intervalReruns >= 0)
    }
}
