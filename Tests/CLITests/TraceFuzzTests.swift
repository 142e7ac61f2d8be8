import BuiltProducts
import Foundation
import ReactorInspector
import ReactorTrace
import Testing
import TraceForgery

/// The fuzz harness: CRC-valid mutants of the samples' traces through every
/// read command, in-process (fast) and through the built binary (under an
/// address-space and a time limit), and the inputs that once crashed or
/// starved it as regression cases.
///
/// `make test` runs ``casesInMakeTest`` mutants; `make fuzz` runs more
/// (`REACTOR_FUZZ_CASES`, `REACTOR_FUZZ_BINARY_CASES`, `REACTOR_FUZZ_SEED`). Each mutant is
/// written to ``currentCasePath`` before it is read, so that a crash leaves the input that caused it there.
@Suite(.serialized) struct TraceFuzzTests {
    static let casesInMakeTest = 400
    static let binaryCasesInMakeTest = 2
    /// Per read command run of the binary: far beyond what a 3 KB trace needs (a hostile size field asked for 34 GB).
    static let addressSpaceKilobytes = 1 << 20
    static let secondsPerCommand = 60.0

    static var cases: Int { environmentInteger("REACTOR_FUZZ_CASES") ?? casesInMakeTest }
    static var binaryCases: Int { environmentInteger("REACTOR_FUZZ_BINARY_CASES") ?? binaryCasesInMakeTest }
    static var seed: UInt64 { UInt64(environmentInteger("REACTOR_FUZZ_SEED") ?? 26) }
    static let currentCasePath = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-fuzz-case.trace").path

    static func environmentInteger(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }

    // MARK: - Regression inputs

    /// Chunks of threads 0, 2²⁸ and 2³² − 1: the index once sized an array (2³² − 1
    /// asked for 34 GB and aborted every read command; 2²⁸ took 4.2 GB).
    static func hostileThreadIndexes() -> [UInt8] {
        var forge = TraceForge()
        forge.chunk(thread: 0, [TraceForge.created(1, name: "label", time: 10), TraceForge.flushBegan(time: 10),
                                TraceForge.flushEnded(time: 10)])
        forge.chunk(thread: .max, [TraceForge.created(2, name: "counter", time: 40), TraceForge.flushBegan(time: 10),
                                   TraceForge.flushEnded(time: 10)])
        forge.chunk(thread: 1 << 28, [TraceForge.flushBegan(time: 70), TraceForge.flushEnded(time: 10)])
        forge.end(events: 8, chunks: 3, durationNanoseconds: 80, threads: 3)
        return forge.bytes
    }

    /// An end block counting 2⁶⁴ − 1 lost events (`summary` trapped adding the events written to it).
    static func hostileLostEvents() -> [UInt8] {
        var forge = TraceForge()
        forge.chunk(thread: 0, [TraceForge.created(1, name: "label", time: 10)])
        forge.end(events: 1, chunks: 1, durationNanoseconds: 10, threads: 1, lostEvents: .max)
        return forge.bytes
    }

    /// Thread 0's flush at 2⁶³ ns, read first, and thread 1's at 10 ns: the
    /// timeline of `report --format html` trapped converting the earlier one's place to `Int`.
    static func hostileTimestamps() -> [UInt8] {
        var forge = TraceForge()
        forge.chunk(thread: 0, [TraceForge.flushBegan(time: 1 << 63), TraceForge.flushEnded(time: 5)])
        forge.chunk(thread: 1, [TraceForge.flushBegan(time: 10), TraceForge.flushEnded(time: 10)])
        forge.end(events: 4, chunks: 2, durationNanoseconds: 1 << 63, threads: 2)
        return forge.bytes
    }

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = SampleTrace.directory.appendingPathComponent("\(name).trace").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func hostileThreadIndexesCostOneEntryEach() throws {
        let path = try Self.write(Self.hostileThreadIndexes(), name: "fuzz-threads")
        let (model, report) = try TraceFile.model(path: path)
        #expect(report.warning == nil)
        #expect(model.threadCount == 3)
        #expect(model.threadIndexes == [0, 1 << 28, .max])
        #expect(model.flushes.count == 3)
        #expect(SummaryReport(model: model).text().contains("8 on 3 threads"))
        #expect(InProcessReadCommands.runAll(path: path) > 0)
    }

    @Test func hostileLostEventsCountSaturates() throws {
        let path = try Self.write(Self.hostileLostEvents(), name: "fuzz-lost")
        let (model, report) = try TraceFile.model(path: path)
        let text = SummaryReport(model: model, end: report.end).text()
        // 1 + (2⁶⁴ − 1) does not fit: the line gives the count it read and no sum.
        let line = text.split(separator: "\n").first { $0.contains("lost") }.map(String.init) ?? ""
        #expect(line.hasSuffix(" 18446744073709551615 events recorded were not written (write error)"), "\(line)")
        #expect(InProcessReadCommands.runAll(path: path) > 0)
    }

    @Test func timelineSpanBeforeTheFirstEventIsDrawnAtTheEdge() throws {
        let path = try Self.write(Self.hostileTimestamps(), name: "fuzz-times")
        let profile = TraceProfile()
        _ = try TraceFile.forEachEvent(path: path) { profile.record($0) }
        let html = ProfileReport(profile: profile, traceName: "fuzz-times.trace").html()
        #expect(html.contains("flushes · t0") && html.contains("flushes · t1"))
        #expect(InProcessReadCommands.runAll(path: path) > 0)
    }

    // MARK: - Mutants

    /// The seed traces: the samples' own, one with values.
    static func seeds() throws -> [[UInt8]] {
        try [SampleTrace.counter.get(), SampleTrace.todos.get(), SampleTrace.profile.get()].map {
            try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0.path)))
        }
    }

    @Test func seededMutantsThroughEveryReadCommandInProcess() throws {
        let seeds = try Self.seeds()
        var random = SeededGenerator(seed: Self.seed)
        var slowest = 0.0
        var outcomes = [String: Int]()
        for index in 0..<Self.cases {
            let bytes = TraceMutator.mutant(of: seeds[index % seeds.count], using: &random)
            try Data(bytes).write(to: URL(fileURLWithPath: Self.currentCasePath))
            let started = Date()
            _ = InProcessReadCommands.runAll(path: Self.currentCasePath)
            let seconds = Date().timeIntervalSince(started)
            slowest = max(slowest, seconds)
            // A guard against a hang or a runaway loop, far above a case's usual cost.
            #expect(seconds < Self.secondsPerCommand, "case \(index) of seed \(Self.seed) took \(seconds) s")
            outcomes[Self.outcome(of: Self.currentCasePath), default: 0] += 1
        }
        try? FileManager.default.removeItem(atPath: Self.currentCasePath)
        // The mutants reach every stage: rejected, read up to damage, read whole.
        #expect(outcomes.values.reduce(0, +) == Self.cases)
        if Self.cases >= 100 { #expect(outcomes.count == 3, "\(outcomes)") }
        print("fuzz: \(Self.cases) mutants (seed \(Self.seed)) × every read command in-process: \(outcomes); slowest \(slowest) s")
    }

    static func outcome(of path: String) -> String {
        guard let (_, report) = try? TraceFile.model(path: path) else { return "rejected" }
        return report.warning == nil ? "whole" : "damaged"
    }

    // MARK: - The built binary

    /// Every read command, as a user types it (`-o -` writes to standard output).
    static func readCommands(trace: String, budget: String) -> [[String]] {
        [["summary", trace], ["hot", trace], ["why", trace, "label"], ["graph", trace, "--format", "dot", "-o", "-"],
         ["history", trace, "TodoStore.filter"], ["state", trace, "--at", "end"], ["replay", trace],
         ["report", trace, "--format", "html", "-o", "-"], ["export", trace, "-o", "-"],
         ["check", trace, "--budget", budget], ["diff", trace, trace], ["top", trace, "--once"]]
    }

    @Test func builtBinaryOnRegressionInputsAndMutantsUnderLimits() throws {
        let budget = SampleTrace.directory.appendingPathComponent("fuzz-budget.json").path
        try InProcessReadCommands.budget.write(toFile: budget, atomically: true, encoding: .utf8)
        var inputs = [try Self.write(Self.hostileThreadIndexes(), name: "fuzz-threads-binary"),
                      try Self.write(Self.hostileLostEvents(), name: "fuzz-lost-binary"),
                      try Self.write(Self.hostileTimestamps(), name: "fuzz-times-binary")]
        let seeds = try Self.seeds()
        var random = SeededGenerator(seed: Self.seed &+ 1)
        for index in 0..<Self.binaryCases {
            let bytes = TraceMutator.mutant(of: seeds[index % seeds.count], using: &random)
            inputs.append(try Self.write(bytes, name: "fuzz-mutant-\(index)"))
        }
        for input in inputs {
            for command in Self.readCommands(trace: input, budget: budget) {
                let run = try BuiltProducts.run("reactor-inspect", command, within: Self.secondsPerCommand,
                                                addressSpaceKilobytes: Self.addressSpaceKilobytes)
                guard let run else {
                    Issue.record("\(command.joined(separator: " ")) did not end within \(Self.secondsPerCommand) s")
                    continue
                }
                // 0, 1 (a budget exceeded, a regression) or 2 (bad input): never a signal.
                #expect((0...2).contains(run.status), "\(command.joined(separator: " ")): status \(run.status)\n\(run.stderr.prefix(400))")
                #expect(run.stderrLines.allSatisfy { $0.hasPrefix("reactor-inspect: ") },
                        "\(command.joined(separator: " ")): \(run.stderr.prefix(400))")
            }
        }
    }
}
