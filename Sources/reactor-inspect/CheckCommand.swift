import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect check TRACE --budget FILE`: the CI gate.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a trace against a performance budget (exit 0 within budget, 1 exceeded, 2 bad input).",
        discussion: """
            The budget is JSON (every key is documented in docs/BUDGETS.md):

              { "computations": [ { "match": "TodoList*", "maxReruns": 50,
                                    "maxTotalMilliseconds": 20,
                                    "maxRerunMilliseconds": 2 } ],
                "actions":      [ { "match": "*", "maxRerunsPerAction": 5 } ],
                "maxFlushMilliseconds": 16,
                "forbid": ["runaway", "uncaughtError", "writeOutsideAction", "cycle"] }

            Each violation prints what was exceeded, the limit, the measured value and the
            worst offender's causal chain. A malformed budget is named with its key and
            its line and column. When GITHUB_STEP_SUMMARY is set, a Markdown summary is
            appended to that file.

            Examples:
              reactor-inspect check out/todos.trace --budget budget.json
              reactor-inspect check out/todos.trace --budget budget.json \\
                --junit reports/budget.xml
              reactor-inspect check out/todos.trace --budget budget.json --verbose
            """ + MetricsHelp.pointer
    )

    @OptionGroup var trace: TraceArgument
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("The budget JSON file.", valueName: "file"))
    var budget: String

    @Option(name: .long, help: ArgumentHelp("Also write a JUnit XML report, one test case per rule ('-' for stdout, the verdict then going to stderr). An existing file is replaced (atomically); a device, FIFO or symlink is written through.", valueName: "out.xml"))
    var junit: String?

    @Flag(name: .shortAndLong, help: "List the rules that passed too.")
    var verbose = false

    @Flag(help: "Print JSON: each rule's outcome and the computations' records.")
    var json = false

    func validate() throws {
        if json, junit == "-" { throw ValidationError("--json and --junit - would both write to standard output") }
    }

    func run() throws {
        let inputs = [trace.path, budget]
        let junitFile = try junit.map { try CIFiles.output($0, inputs: inputs) }
        let parsed = try CIFiles.budget(at: budget)
        let (profile, _, report) = try trace.profile(output: output)
        let check = BudgetCheck(budget: parsed, profile: profile)
        let budgetName = CIFiles.displayName(budget)
        let traceName = CIFiles.displayName(trace.path)
        // The report first: when it cannot be written, that is the one line printed, not a verdict before it.
        if let junitFile {
            do {
                try junitFile.write(check.junitXML(budgetName: budgetName, traceName: traceName))
                try junitFile.commit()
            } catch {
                throw ValidationError(error.description)
            }
        }
        let verdict = json
            ? try check.json(budgetName: budgetName, traceName: traceName, computations: ComputationRecord.all(in: profile.model))
            : check.text(budgetName: budgetName, traceName: traceName, verbose: verbose)
        // `--junit -`: standard output is the XML alone; the verdict goes to standard error.
        if junitFile?.isStandardOutput == true {
            Terminal.standardError.writeRaw(verdict)  // names in it are escaped already
        } else {
            Terminal.print(verdict)
        }
        if let summaryPath = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summaryPath.isEmpty {
            CIFiles.append(check.markdown(budgetName: budgetName, traceName: traceName), to: summaryPath, inputs: inputs)
        }
        // A damaged or unfinished trace is bad input even when what was read passes.
        try report.finish(requiringWhole: true)
        if !check.passed { throw ExitCode(1) }
    }
}
