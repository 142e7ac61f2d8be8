import BuiltProducts
import Foundation
import ReactorInspector

/// Traces recorded once per test run from the real samples, with the counts
/// each sample printed about itself (its own ground truth).
struct SampleTrace: Sendable {
    let name: String
    let path: String
    /// The sample's own `reruns` per computation name.
    let reruns: [String: Int]
    /// The sample's own count of all reruns, for the samples that print one (`stress`).
    let totalReruns: Int?

    /// A folder for this test process; folders left by finished runs are removed.
    static let directory: URL = {
        let temporary = FileManager.default.temporaryDirectory
        let prefix = "reactor-cli-traces-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        let url = temporary.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs `sample` with `arguments`, recording into `file` (the sample's name by default).
    static func record(_ sample: String, _ arguments: [String] = [], file: String? = nil) throws -> SampleTrace {
        let path = directory.appendingPathComponent("\(file ?? sample).trace").path
        let result = try BuiltProducts.run(sample, ["--trace", path] + arguments)
        guard result.status == 0 else { throw SampleError.failed(sample, result.stderr) }
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let reruns = object["reruns"] as? [String: Int] else { throw SampleError.noCounts(sample, line) }
        return SampleTrace(name: sample, path: path, reruns: reruns, totalReruns: object["totalReruns"] as? Int)
    }

    enum SampleError: Error {
        case failed(String, String)
        case noCounts(String, String)
    }

    static let counter = Result { try record("counter") }
    /// Recorded with values, as `state`, `history` and `replay`'s old → new need.
    static let todos = Result { try record("todos", ["--trace-values", "200"]) }
    static let profile = Result { try record("profile") }
    static let stress = Result { try record("stress", ["--computations", "60", "--writes", "300"]) }
    /// The stress graph written from four threads at once (`stress --threads 4`).
    static let stressThreads = Result {
        try record("stress", ["--computations", "60", "--writes", "400", "--threads", "4"], file: "stress-threads")
    }
    /// Long enough that a pass over it takes seconds in a debug build (serve's cancel tests).
    static let stressLong = Result {
        try record("stress", ["--computations", "60", "--writes", "20000"], file: "stress-long")
    }
    /// The other side of values: todos without them, the rest with them, on one thread and on four.
    static let todosPlain = Result { try record("todos", [], file: "todos-plain") }
    static let counterValues = Result { try record("counter", ["--trace-values", "64"], file: "counter-values") }
    static let profileValues = Result { try record("profile", ["--trace-values", "64"], file: "profile-values") }
    static let stressValues = Result {
        try record("stress", ["--computations", "60", "--writes", "300", "--trace-values", "64"], file: "stress-values")
    }
    static let stressThreadsValues = Result {
        try record("stress", ["--computations", "60", "--writes", "400", "--threads", "4", "--trace-values", "64"],
                   file: "stress-threads-values")
    }
    /// A 4-thread recording with values killed (SIGKILL) while it wrote: no end block, and a run
    /// and a flush still open where it stopped (recorded again, up to five times, until it has both).
    /// Killed past 250 kB, about the size of `stress-threads-values`: tens of chunks on four threads,
    /// and every command that reads it reads no more than it must.
    static let stressThreadsValuesKilled = Result { () throws -> SampleTrace in
        let path = directory.appendingPathComponent("stress-threads-values-killed.trace").path
        for _ in 0..<5 {
            unlink(path)
            let (stress, _) = try BuiltProducts.launch("stress", ["--computations", "60", "--loop", "--threads", "4",
                                                                  "--trace-values", "64", "--trace", path])
            let deadline = ContinuousClock.now + .seconds(300)
            while RecordingProgress.fileSize(path) < 250_000, stress.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
            kill(stress.processIdentifier, SIGKILL)
            stress.waitUntilExit()
            let (model, _) = try TraceFile.model(path: path)
            if model.unfinishedRuns > 0, model.unfinishedFlushes > 0 {
                return SampleTrace(name: "stress", path: path, reruns: [:], totalReruns: nil)
            }
        }
        throw SampleError.failed("stress --loop", "no kill left a run and a flush open")
    }

    /// Every sample, values on and off, one thread and four, and a killed recording: what the agreement tests run on.
    static let agreementSamples = ["counter", "counter-values", "todos", "todos-plain", "profile", "profile-values",
                                   "stress", "stress-values", "stress-threads", "stress-threads-values",
                                   "stress-threads-values-killed"]
    /// A stress graph for `diff`, and the same graph with more writes: every computation reruns at least as often.
    static let stressBase = Result { try record("stress", ["--computations", "40", "--writes", "300", "--seed", "7"], file: "stress-base") }
    static let stressHead = Result { try record("stress", ["--computations", "40", "--writes", "600", "--seed", "7"], file: "stress-head") }

    /// The recorded trace of `sample`.
    static func named(_ sample: String) throws -> SampleTrace {
        switch sample {
        case "counter": try counter.get()
        case "todos": try todos.get()
        case "profile": try profile.get()
        case "stress-threads": try stressThreads.get()
        case "todos-plain": try todosPlain.get()
        case "counter-values": try counterValues.get()
        case "profile-values": try profileValues.get()
        case "stress-values": try stressValues.get()
        case "stress-threads-values": try stressThreadsValues.get()
        case "stress-threads-values-killed": try stressThreadsValuesKilled.get()
        default: try stress.get()
        }
    }
}
