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
}
