import Foundation
import ReactorInspector
import ReactorTrace
import Testing

/// How a followed trace ends: `finished` with how it ended when its end block is read,
/// `stalled` when it has none and the recording process (the header's pid) is gone.
@Suite struct LiveTraceEndingTests {
    /// A recorded trace without its end block, its header naming `pid`.
    static func unendedTrace(pid: UInt32) throws -> String {
        let path = NSTemporaryDirectory() + "unended-\(UUID().uuidString).trace"
        try TraceScript(events: TraceScript.todos(count: 3)).record(to: path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.removeLast(TraceFormat.blockHeaderLength + 40)   // the 1.1 end block
        for index in 0..<4 { bytes[36 + index] = UInt8(truncatingIfNeeded: pid >> (8 * UInt32(index))) }
        let crc = CRC32.checksum(Array(bytes[0..<40]))
        for index in 0..<4 { bytes[40 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The pid of a process that has exited.
    static func exitedPID() throws -> UInt32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return UInt32(process.processIdentifier)
    }

    @Test func aTraceWhoseWriterIsGoneWithoutAnEndBlockIsStalled() throws {
        let path = try Self.unendedTrace(pid: try Self.exitedPID())
        defer { unlink(path) }
        let live = LiveTrace(path: path)
        try live.catchUp()
        try live.poll()
        guard case let .stalled(detail) = live.status else { Issue.record("not stalled: \(live.status)"); return }
        #expect(detail.contains("is gone and the trace has no end block"))
        #expect(live.status.isOver)
        var sampler = LiveSampler(top: 5)
        let snapshot = sampler.snapshot(of: live, model: live.model())
        #expect(snapshot.status == "stalled")
        #expect(snapshot.statusDetail == detail)
    }

    @Test func aTraceWhoseWriterLivesIsStillRecording() throws {
        let path = try Self.unendedTrace(pid: UInt32(getpid()))
        defer { unlink(path) }
        let live = LiveTrace(path: path)
        try live.catchUp()
        try live.poll()
        #expect(live.status == .recording)
    }

    @Test func anEndedTraceSaysHowItEnded() throws {
        let path = NSTemporaryDirectory() + "ended-\(UUID().uuidString).trace"
        defer { unlink(path) }
        try TraceScript(events: TraceScript.todos(count: 3)).record(to: path)
        let live = LiveTrace(path: path)
        try live.catchUp()
        #expect(live.status == .finished)
        var sampler = LiveSampler(top: 5)
        #expect(sampler.snapshot(of: live, model: live.model()).statusDetail == "ended: stopped")
    }
}
