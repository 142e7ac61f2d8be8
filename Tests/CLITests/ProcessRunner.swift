import Foundation

/// Runs the built executables (reactor-inspect and the samples) the way a user
/// does, capturing their exit status and output.
enum ProcessRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// The directory holding the built products: the test bundle sits next to them.
    static let productsDirectory: URL = {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(argument0.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in candidates
        where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("reactor-inspect").path) {
            return directory
        }
        fatalError("reactor-inspect not found next to the test bundle (looked in \(candidates.map(\.path)))")
    }()

    /// Runs product `name` with `arguments`; `environment` entries are added to the inherited ones.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("reactor-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout"), errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(name)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "REACTOR_TRACE")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOf: outURL, encoding: .utf8),
                      stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    /// Runs `reactor-inspect`.
    static func inspect(_ arguments: String..., environment: [String: String] = [:]) throws -> Result {
        try run("reactor-inspect", arguments, environment: environment)
    }
}
