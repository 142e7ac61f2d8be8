import ArgumentParser
import Foundation
import ReactorInspector
import ReactorTraceSQL

/// `reactor-inspect sql TRACE… "QUERY" [--db FILE] [--json|--csv]`: read-only SQL over traces.
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Answer a read-only SQL query over one or more traces imported into SQLite.",
        discussion: """
            The tables (docs/SQL.md): per-name figures computed at import (node_stats,
            node_actions, action_stats: fast on any trace), traces, nodes, dependencies,
            and one row per event (the views runs, invalidations, changes, node_values,
            actions, flushes, issues). Every view has a trace column: the trace's file
            name. --db FILE keeps the database, and adds the traces given to the ones it
            holds; with --db and no trace the query reads what the database holds. The
            query may only read; a bad query is one line on stderr, exit status 2, and
            leaves the database as it was.

            Examples:
              reactor-inspect sql out/todos.trace \\
                "SELECT name, reruns, p99_ns FROM node_stats ORDER BY reruns DESC"
              reactor-inspect sql base.trace head.trace --db out/traces.db --csv \\
                "SELECT trace, name, reruns FROM node_stats ORDER BY name, trace"
            """ + MetricsHelp.pointer
    )

    @Argument(help: ArgumentHelp("The trace files, then the query.", valueName: "trace… query"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Keep the database in this file (created if missing; traces already in it stay).",
                               valueName: "file"))
    var db: String?

    @Flag(help: "Print a JSON array of row objects keyed by column name.")
    var json = false

    @Flag(help: "Print CSV with a header line.")
    var csv = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard let query = inputs.last, !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ValidationError("give the traces, then the query")
        }
        guard inputs.count > 1 || db != nil else { throw ValidationError("give at least one trace (or --db FILE)") }
        guard !(json && csv) else { throw ValidationError("--json and --csv: choose one") }
    }

    func run() throws {
        let traces = Array(inputs.dropLast())
        let query = inputs.last ?? ""
        let result = try TraceSQLSession.run(traces: traces, query: query, databasePath: db, output: output)
        Terminal.print(json ? result.answer.json() : csv ? result.answer.csv() : result.answer.table())
        for report in result.reports { try report.finish() }
    }
}
