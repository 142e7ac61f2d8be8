import Foundation
import Testing

/// Runs the built `reactor-inspect` and the samples for the CI-tool tests,
/// and records the samples' traces once per test run.
enum CICommand {
    /// What one process run produced.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The build products directory (where `swift build` put the executables).
    static var productsDirectory: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("reactor-inspect").path) { return directory }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }

    /// Runs `executable` (a product name) with `arguments`; stdin is empty.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let path = productsDirectory.appendingPathComponent(executable).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(executable) not built at \(path)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["GITHUB_STEP_SUMMARY"] = nil
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so neither can fill up and block the child.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// `reactor-inspect ARGUMENTS`.
    static func inspect(_ arguments: String..., environment: [String: String] = [:]) throws -> Result {
        try run("reactor-inspect", arguments, environment: environment)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The samples' traces, recorded once and shared by the suites, with what
/// each sample counted itself.
struct SampleTraces: Sendable {
    var directory: URL
    var counter: String
    /// `stress --computations 40 --writes 300 --seed 7`.
    var stressBase: String
    /// The same graph with more writes: every computation reruns at least as often.
    var stressHead: String
    /// Per-computation reruns the stress sample counted, for base and head.
    var stressBaseReruns: [String: Int]
    var stressHeadReruns: [String: Int]
    var stressHeadTotalReruns: Int

    static let shared: Swift.Result<SampleTraces, any Error> = Swift.Result { try record() }

    static func load() throws -> SampleTraces { try shared.get() }

    private static func record() throws -> SampleTraces {
        let directory = try CICommand.temporaryDirectory()
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func sample(_ name: String, _ arguments: [String]) throws -> [String: Any] {
            let result = try CICommand.run(name, arguments)
            guard result.status == 0,
                  let line = result.stdout.split(separator: "\n").last,
                  let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw SampleError(message: "\(name) \(arguments) failed: \(result.stderr)")
            }
            return object
        }
        _ = try sample("counter", ["--trace", path("counter.trace")])
        let base = try sample("stress", ["--computations", "40", "--writes", "300", "--seed", "7", "--trace", path("stress-base.trace")])
        let head = try sample("stress", ["--computations", "40", "--writes", "600", "--seed", "7", "--trace", path("stress-head.trace")])
        return SampleTraces(
            directory: directory, counter: path("counter.trace"),
            stressBase: path("stress-base.trace"), stressHead: path("stress-head.trace"),
            stressBaseReruns: base["reruns"] as? [String: Int] ?? [:],
            stressHeadReruns: head["reruns"] as? [String: Int] ?? [:],
            stressHeadTotalReruns: head["totalReruns"] as? Int ?? -1)
    }

    struct SampleError: Error { var message: String }
}
