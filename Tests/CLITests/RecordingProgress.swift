import Foundation
import ReactorTrace

/// Waits on what a recording process has written, not on a time: a loaded
/// machine may take seconds over what takes milliseconds on an idle one.
enum RecordingProgress {
    struct Stalled: Error, CustomStringConvertible {
        let description: String
    }

    /// The most bytes a chunk of a recording with the default options takes:
    /// its block header and a whole buffer.
    static let largestChunk = 28 + TraceRecorder.Options().segmentCapacity

    /// The size of the file at `path` (0 if there is none).
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Returns once the trace at `path` holds a whole chunk that ends past its
    /// first `size` bytes: the block that holds byte `size` ends at most
    /// ``largestChunk`` bytes after it. Throws if `process` stops recording or
    /// five minutes pass first: a guard against a hang, not a measure of speed.
    static func waitForChunk(in path: String, past size: Int, recordedBy process: Process) throws {
        try wait(until: { fileSize(path) >= size + largestChunk }, polling: 1000, recordedBy: process,
                 stalled: "\(path) stopped growing at \(fileSize(path)) bytes")
    }

    /// Returns once the trace at `path`, read as far as it is written, holds
    /// `count` reruns (runs after the first) of the computation named `name`.
    /// Throws if `process` stops recording or five minutes pass first.
    static func waitForReruns(of name: String, count: Int, in path: String, recordedBy process: Process) throws {
        try wait(until: { try reruns(of: name, in: path) >= count }, polling: 10_000, recordedBy: process,
                 stalled: "\(path) has no \(count) reruns of \(name)")
    }

    /// Returns once the trace at `path`, read as far as it is written, holds
    /// more than `count` events of `kind`. Throws if `process` stops recording
    /// or five minutes pass first.
    static func waitForEvents(of kind: TraceEventKind, moreThan count: Int, in path: String, recordedBy process: Process) throws {
        try wait(until: { try events(of: kind, in: path) > count }, polling: 10_000, recordedBy: process,
                 stalled: "\(path) has no \(count + 1) \(kind) events")
    }

    /// Polls `condition` every `microseconds` until it holds; throws if
    /// `process` exits or five minutes pass first (`stalled` says what was missing).
    private static func wait(until condition: () throws -> Bool, polling microseconds: UInt32, recordedBy process: Process,
                             stalled: @autoclosure () -> String) throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while try !condition() {
            guard process.isRunning else { throw Stalled(description: "the recording process exited") }
            guard ContinuousClock.now < deadline else { throw Stalled(description: stalled()) }
            usleep(microseconds)
        }
    }

    /// The trace time of the first node created in the trace at `path`, as far as it is written.
    static func firstNodeTime(in path: String) throws -> UInt64? {
        guard fileSize(path) > 0 else { return nil }
        let reader = try TraceReader(path: path)
        while let event = try reader.next() {
            if case .nodeCreated = event.record { return event.timestamp }
        }
        return nil
    }

    /// The events of `kind` in the trace at `path` as it stands.
    static func events(of kind: TraceEventKind, in path: String) throws -> Int {
        guard fileSize(path) > 0 else { return 0 }
        let reader = try TraceReader(path: path)
        var events = 0
        while let event = try reader.next() {
            if event.record.kind == kind { events += 1 }
        }
        return events
    }

    /// The reruns of the computation named `name` in the trace at `path` as it stands.
    static func reruns(of name: String, in path: String) throws -> Int {
        guard fileSize(path) > 0 else { return 0 }
        let reader = try TraceReader(path: path)
        var id: UInt64?
        var reruns = 0
        while let event = try reader.next() {
            switch event.record {
            case let .nodeCreated(node, _, nodeName, _) where nodeName == name: id = node
            case let .rerunBegan(computation, firstRun) where !firstRun && computation == id: reruns += 1
            default: break
            }
        }
        return reruns
    }
}
