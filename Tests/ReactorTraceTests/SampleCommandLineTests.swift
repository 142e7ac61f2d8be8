import BuiltProducts
import Foundation
import Testing

/// The samples' shared command line (`SampleSupport`), through the built executables.
@Suite struct SampleCommandLineTests {
    @Test(arguments: [
        ("counter", ["--bogus"], "counter: unknown argument '--bogus' (usage: counter [--trace PATH] [--increments N] [--crash cycle|mutual-cycle|segv|abort|thread-overflow|early-term])"),
        ("counter", ["--increments", "-3"], "counter: --increments needs a non-negative number"),
        ("counter", ["--trace"], "counter: --trace needs a path"),
        ("todos", ["extra"], "todos: unknown argument 'extra' (usage: todos [--trace PATH] [--trace-values N])"),
        ("profile", ["--trace", ""], "profile: --trace needs a path"),
        ("profile", ["--trace-values", "0"], "profile: --trace-values needs a positive number of bytes"),
        ("stress", ["--shape", "ring"], "stress: --shape needs layers or chain"),
        ("stress", ["--writes"], "stress: --writes needs a non-negative number"),
        ("stress", ["--shape"], "stress: --shape needs a value"),
        ("stress", ["--threads", "0"], "stress: --threads needs at least 1"),
        ("stress", ["--writes-per-second", "x"], "stress: --writes-per-second needs a non-negative number"),
        ("stress", ["--threads", "2", "--shape", "chain"],
         "stress: --threads 2 needs 2 sources to write, and this graph has 1 (--shape chain has one)"),
        ("stress", ["--computations", "9", "--threads", "4"],
         "stress: --threads 4 needs 4 sources to write, and this graph has 3 (about √computations: raise --computations)"),
    ])
    func badArgumentsFailWithOneLine(sample: String, arguments: [String], message: String) throws {
        let result = try BuiltProducts.run(sample, arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func anUnwritableTracePathFailsWithTheRecordersError() throws {
        let result = try BuiltProducts.run("counter", ["--trace", "/nonexistent-directory/trace.trace"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("counter: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: ["counter", "todos", "profile", "stress"])
    func helpPrintsTheUsage(sample: String) throws {
        let result = try BuiltProducts.run(sample, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: \(sample) "))
        #expect(result.stdout.contains("[--trace PATH]"))
    }

    @Test func optionsAfterTraceStillApply() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("commandline-\(UUID()).trace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try BuiltProducts.run("counter", ["--trace", path, "--increments", "7"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""reruns":{"label":7}"#))
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
