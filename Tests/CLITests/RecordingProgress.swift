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
        let deadline = ContinuousClock.now + .seconds(300)
        while fileSize(path) < size + largestChunk {
            guard process.isRunning else { throw Stalled(description: "the recording process exited") }
            guard ContinuousClock.now < deadline else { throw Stalled(description: "\(path) stopped growing at \(fileSize(path)) bytes") }
            usleep(1000)
        }
    }

    /// Returns once the trace at `path`, read as far as it is written, holds
    /// `count` reruns (runs after the first) of the computation named `name`.
    /// Throws if `process` stops recording or five minutes pass first.
    static func waitForReruns(of name: String, count: Int, in path: String, recordedBy process: Process) throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while try reruns(of: name, in: path) < count {
            guard process.isRunning else { throw Stalled(description: "the recording process exited") }
            guard ContinuousClock.now < deadline else { throw Stalled(description: "\(path) has no \(count) reruns of \(name)") }
            usleep(10_000)
        }
    }

    /// Returns once the trace at `path`, read as far as it is written, holds
    /// more than `count` events of `kind`. Throws if `process` stops recording
    /// or five minutes pass first.
    static func waitForEvents(of kind: TraceEventKind, moreThan count: Int, in path: String, recordedBy process: Process) throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while try events(of: kind, in: path) <= count {
            guard process.isRunning else { throw Stalled(description: "the recording process exited") }
            guard ContinuousClock.now < deadline else { throw Stalled(description: "\(path) has no \(count + 1) \(kind) events") }
            usleep(10_000)
        }
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
