import BuiltProducts
import Foundation
import Testing
import ReactorInspector

@Suite struct ExportCommandTests {
    @Test func chromeExportIsValidWithAFlowPerRerun() throws {
        let traces = try SampleTraces.load()
        let out = try CICommand.temporaryDirectory().appendingPathComponent("stress.json")
        let result = try BuiltProducts.inspect("export", traces.stressHead, "--format", "chrome", "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(out.path)"))
        let summary = try ChromeTraceValidator.validate(try Data(contentsOf: out))
        // Every rerun in the stress sample follows a dependency change: one arrow each.
        #expect(summary.completeFlows == traces.stressHeadTotalReruns)
        #expect(summary.slicesByName["effect0"] == (traces.stressHeadReruns["effect0"] ?? -1) + 1)
        #expect(summary.displayTimeUnit == "ns")
    }

    @Test func counterExportHasTheLabelSlices() throws {
        let traces = try SampleTraces.load()
        let out = try CICommand.temporaryDirectory().appendingPathComponent("counter.json")
        #expect(try BuiltProducts.inspect("export", traces.counter, "-o", out.path).status == 0)
        let summary = try ChromeTraceValidator.validate(try Data(contentsOf: out))
        #expect(summary.slicesByName["label"] == 101)
        #expect(summary.completeFlows == 100)
        #expect(summary.threadNames.count >= 1)
    }

    /// A damaged trace is exported up to the damage, then reported as bad input (exit 2), as every subcommand does.
    @Test func truncatedTraceExportsWhatIsReadableWithAWarning() throws {
        let traces = try SampleTraces.load()
        let directory = try CICommand.temporaryDirectory()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: traces.stressBase))
        let cut = directory.appendingPathComponent("cut.trace")
        try bytes.prefix(bytes.count * 2 / 3).write(to: cut)
        let out = directory.appendingPathComponent("cut.json")
        let result = try BuiltProducts.inspect("export", cut.path, "-o", out.path)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("reactor-inspect: warning: \(cut.path): "))
        #expect(result.stderr.split(separator: "\n").count == 1)
        let summary = try ChromeTraceValidator.validate(try Data(contentsOf: out))
        #expect(summary.eventsByPhase["B"] == summary.eventsByPhase["E"])
    }
}
