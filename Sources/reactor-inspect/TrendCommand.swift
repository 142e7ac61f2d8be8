import ArgumentParser
import Foundation
import ReactorInspector
import ReactorTraceFormat
import ReactorTraceSQL

/// `reactor-inspect trend TRACES…|DB`: where rerun counts and times changed across recordings.
struct TrendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "Per scenario, rerun counts, unneeded reruns and times over commits, and the commit where they changed.",
        discussion: """
            Give the recordings of CI runs (or a database kept by sql --db). A trace's
            commit and scenario are its recording's metadata, else the name of its folder
            and its file name: history/<commit>/<scenario>.trace. Recordings are ordered
            by when they were recorded. Counts are exact: a change is the first recording
            whose count differs from the one before. A time changes only beyond its
            series' noise (docs/PROFILING_IN_CI.md). Prints Markdown for a PR comment
            (appended to GITHUB_STEP_SUMMARY when set).

            Examples:
              reactor-inspect trend history/*/todos.trace
              reactor-inspect trend history/*/*.trace --svg out/trend --fail-on-change
              reactor-inspect trend out/traces.db --json
            """ + MetricsHelp.pointer
    )

    @Argument(help: ArgumentHelp("The traces, or one database kept by sql --db.", valueName: "traces|db"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Write one SVG plot per scenario into this folder.", valueName: "folder"))
    var svg: String?

    @Flag(help: "Print JSON: each scenario's series and the change points.")
    var json = false

    @Flag(help: "Exit with status 1 when anything changed.")
    var failOnChange = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give the traces (or a database kept by sql --db)") }
    }

    func run() throws {
        var recordings: [TrendRecording] = []
        var reports: [TraceReadReport] = []
        for path in inputs {
            if Self.isDatabase(path) {
                recordings += try Self.databaseRecordings(path)
                continue
            }
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            let header = try TraceArgument.reading(path, output: output) { _ throws(TraceFileError) in
                try TraceFile.header(path: path)
            }
            let profile = TraceProfile()
            let report = try TraceArgument.forEachEvent(path: path, output: output) { profile.record($0) }
            profile.countUnreadEvents(of: report)
            reports.append(report)
            // The recording's metadata names its commit and scenario; a trace without it is
            // named by its path (history/<commit>/<scenario>.trace).
            let (folder, stem) = TrendRecording.labels(ofPath: absolute)
            let commit = report.metadata.commit ?? folder, scenario = report.metadata.scenario ?? stem
            recordings.append(TrendRecording(profile: profile, commit: commit, scenario: scenario, source: path,
                                             recordedAt: header.wallStartNanoseconds))
        }
        let trend = TrendReport(recordings: recordings)
        if let svg {
            try FileManager.default.createDirectory(atPath: svg, withIntermediateDirectories: true)
            for scenario in trend.scenarios {
                let name = String(scenario.name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
                let file = (svg as NSString).appendingPathComponent("\(name.hasPrefix(".") ? "_" + name : name).svg")
                do {
                    try OutputFile.write(scenario.svg(), to: file, inputs: inputs)
                } catch {
                    throw ValidationError(error.description)
                }
            }
        }
        let markdown = trend.markdown()
        if json {
            struct Document: Encodable {
                var scenarios: [TrendReport.Scenario]
                var changes: [TrendChange]
                var timeChangeRule: String
            }
            Terminal.print(try JSONText.encode(Document(scenarios: trend.scenarios, changes: trend.changes,
                                                        timeChangeRule: TrendReport.timeChangeRule)))
        } else {
            Terminal.print(markdown)
        }
        if let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            CIFiles.append(markdown, to: summary, inputs: inputs)
        }
        for report in reports { try report.finish() }
        if failOnChange, !trend.changes.isEmpty { throw ExitCode(1) }
    }

    /// The recordings a database kept by `sql --db` holds; the database is left as it was.
    static func databaseRecordings(_ path: String) throws -> [TrendRecording] {
        do throws(TraceSQLError) {
            let database = try TraceDatabase(path: path)
            defer { database.rollback() }
            return try database.trendRecordings()
        } catch {
            throw ValidationError("\(path): \(error.description)")
        }
    }

    /// A SQLite database begins with its magic string.
    static func isDatabase(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }
}
