import Foundation
import Testing

/// The samples' shared command line (`SampleSupport`), through the built executables.
@Suite struct SampleCommandLineTests {
    /// Runs a sample; returns its exit status and what it wrote to stdout and stderr.
    func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try SampleProcess.executable(name))
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    @Test(arguments: [
        ("counter", ["--bogus"], "counter: unknown argument '--bogus' (usage: counter [--trace PATH] [--increments N])"),
        ("counter", ["--increments", "-3"], "counter: --increments needs a non-negative number"),
        ("counter", ["--trace"], "counter: --trace needs a path"),
        ("todos", ["extra"], "todos: unknown argument 'extra' (usage: todos [--trace PATH])"),
        ("profile", ["--trace", ""], "profile: --trace needs a path"),
        ("stress", ["--shape", "ring"], "stress: --shape needs layers or chain"),
        ("stress", ["--writes"], "stress: --writes needs a non-negative number"),
        ("stress", ["--shape"], "stress: --shape needs a value"),
    ])
    func badArgumentsFailWithOneLine(sample: String, arguments: [String], message: String) throws {
        let result = try run(sample, arguments)
        #expect(result.status == 2)
        #expect(result.errors == message + "\n")
        #expect(result.output.isEmpty)
    }

    @Test func anUnwritableTracePathFailsWithTheRecordersError() throws {
        let result = try run("counter", ["--trace", "/nonexistent-directory/trace.rtrace"])
        #expect(result.status == 2)
        #expect(result.errors.hasPrefix("counter: "))
        #expect(result.errors.split(separator: "\n").count == 1)
    }

    @Test(arguments: ["counter", "todos", "profile", "stress"])
    func helpPrintsTheUsage(sample: String) throws {
        let result = try run(sample, ["--help"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("usage: \(sample) "))
        #expect(result.output.contains("[--trace PATH]"))
    }

    @Test func optionsAfterTraceStillApply() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("commandline-\(UUID()).rtrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run("counter", ["--trace", path, "--increments", "7"])
        #expect(result.status == 0)
        #expect(result.output.contains(#""reruns":{"label":7}"#))
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
