import Foundation

/// Runs the package's built executables (`reactor-inspect` and the samples)
/// the way a user does, for the end-to-end tests of every suite.
public enum BuiltProducts {
    /// What one run of an executable produced.
    public struct Run: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String

        /// Standard error's lines.
        public var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// A product that `swift build` has not built.
    public struct NotBuilt: Error, CustomStringConvertible {
        /// The product's name.
        public var name: String
        /// Where it was looked for.
        public var path: String
        public var description: String { "\(name) not built at \(path): run `swift build --build-tests` first" }
    }

    /// The build products directory: the test runner sits next to the executables.
    public static let directory: URL = {
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On Darwin the runner sits inside `X.xctest/Contents/MacOS`.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        candidates.append(directory)
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for candidate in candidates
        where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("reactor-inspect").path) {
            return candidate
        }
        // The package's default debug products.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }()

    /// The path of product `name`; throws ``NotBuilt`` when it is missing.
    public static func path(of name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw NotBuilt(name: name, path: path) }
        return path
    }

    /// Runs product `name` with `arguments` to completion. Standard input is
    /// empty; the environment is this process's without `REACTOR_TRACE` and
    /// `GITHUB_STEP_SUMMARY` (so a developer's settings cannot leak into a
    /// test), plus `environment`. Output goes through files, so a chatty child
    /// can never block on a full pipe.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        // Without a limit the wait always ends with the process.
        try run(name, arguments, within: nil, environment: environment)!
    }

    /// ``run(_:_:environment:)``, or nil when the product has not exited within
    /// `limit` seconds (it is killed then): a guard against a hang, not a measure of speed.
    /// With `addressSpaceKilobytes`, the product runs under that limit on its
    /// address space (`ulimit -v`): an allocation past it fails, and the process with it.
    public static func run(_ name: String, _ arguments: [String], within limit: Double?,
                           addressSpaceKilobytes: Int? = nil,
                           environment: [String: String] = [:]) throws -> Run? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout"), errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        if let addressSpaceKilobytes {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -v \(addressSpaceKilobytes) && exec \"$0\" \"$@\"", try path(of: name)] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: try path(of: name))
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        merged["REACTOR_TRACE"] = nil
        merged["GITHUB_STEP_SUMMARY"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        guard exited.wait(timeout: limit.map { .now() + $0 } ?? .distantFuture) == .success else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `reactor-inspect ARGUMENTS`.
    public static func inspect(_ arguments: String..., environment: [String: String] = [:]) throws -> Run {
        try run("reactor-inspect", arguments, environment: environment)
    }

    /// Starts product `name` and returns it running, with a reader on its stdout
    /// (for tests that talk to it or kill it).
    public static func launch(_ name: String, _ arguments: [String],
                              environment: [String: String]? = nil) throws -> (process: Process, output: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(of: name))
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return (process, pipe.fileHandleForReading)
    }

    /// Reads one line from `handle`, blocking until it comes; nil at the end of the stream.
    public static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            guard let byte = handle.readData(ofLength: 1).first else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
