import ArgumentParser
import Foundation
import ReactorInspector

/// `reactor-inspect check TRACE --budget FILE`: the CI gate.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a trace against a performance budget (exit 0 within budget, 1 exceeded, 2 bad input).",
        discussion: """
        The budget is JSON (every key is documented in docs/BUDGETS.md):

          { "computations": [ { "match": "TodoList*", "maxReruns": 50, "maxTotalMilliseconds": 20,
                                "maxRerunMilliseconds": 2 } ],
            "actions":      [ { "match": "*", "maxRerunsPerAction": 5 } ],
            "maxFlushMilliseconds": 16,
            "forbid": ["runaway", "uncaughtError", "writeOutsideAction", "cycle"] }

        Each violation prints what was exceeded, the limit, the measured value and the
        worst offender's causal chain. When GITHUB_STEP_SUMMARY is set, a Markdown summary
        is appended to that file.

        Examples:
          reactor-inspect check todos.trace --budget budget.json
          reactor-inspect check todos.trace --budget budget.json --junit reports/budget.xml
          reactor-inspect check todos.trace --budget budget.json --verbose
        """
    )

    @Argument(help: "The trace file.")
    var trace: String

    @Option(name: .long, help: ArgumentHelp("The budget JSON file.", valueName: "file"))
    var budget: String

    @Option(name: .long, help: ArgumentHelp("Also write a JUnit XML report, one test case per rule.", valueName: "out.xml"))
    var junit: String?

    @Flag(name: .shortAndLong, help: "List the rules that passed too.")
    var verbose = false

    func run() throws {
        let text: String
        do {
            text = try String(contentsOfFile: budget, encoding: .utf8)
        } catch {
            CLIOutput.fail("\(budget): cannot read the budget: \(error.localizedDescription)")
        }
        let parsed: Budget
        do {
            parsed = try Budget.parse(text)
        } catch {
            CLIOutput.fail("\(budget): \(error)")
        }
        let profile = CLIOutput.profile(trace)
        let check = BudgetCheck(budget: parsed, profile: profile)
        let budgetName = CLIOutput.displayName(budget)
        let traceName = CLIOutput.displayName(trace)
        print(check.text(budgetName: budgetName, traceName: traceName, verbose: verbose), terminator: "")
        if let junit {
            CLIOutput.write(check.junitXML(budgetName: budgetName, traceName: traceName), to: junit)
        }
        if let summaryPath = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summaryPath.isEmpty {
            appendStepSummary(check.markdown(budgetName: budgetName, traceName: traceName), to: summaryPath)
        }
        if !check.passed { throw ExitCode(1) }
    }

    private func appendStepSummary(_ markdown: String, to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) ?? {
            FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
        }() else {
            CLIOutput.warn("cannot append to GITHUB_STEP_SUMMARY \(path)")
            return
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(markdown.utf8))
        } catch {
            CLIOutput.warn("cannot append to GITHUB_STEP_SUMMARY \(path): \(error.localizedDescription)")
        }
    }
}
