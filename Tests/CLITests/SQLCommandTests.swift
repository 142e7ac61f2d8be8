import BuiltProducts
import CSQLite
import Foundation
import Testing

/// `sql` end to end: the queries behind hot, summary and why answer the CLI's
/// figures on every sample; the query interface only reads; bad input is one line.
@Suite struct SQLCommandTests {
    static let samples = ["counter", "todos", "profile", "stress", "stress-threads"]

    static func rows(_ path: String, _ query: String) throws -> [[String: Any]] {
        try #require(try AgreementTests.json("sql", path, "--json", query) as? [[String: Any]])
    }

    @Test(arguments: samples)
    func hotsFiguresAreTheRunsTablesSums(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let hot = try #require(try AgreementTests.json("hot", trace.path, "--json", "--top", "100000") as? [[String: Any]])
        let sql = try Self.rows(trace.path, """
            SELECT name, kind, count(*) AS runs, sum(NOT first_run) AS reruns, sum(duration_ns) AS total,
                   sum(self_ns) AS self, max(duration_ns) AS longest
            FROM runs GROUP BY name, kind
            """)
        var byKey: [String: [String: Any]] = [:]
        for row in sql { byKey["\(row["kind"] ?? "") \(row["name"] ?? "")"] = row }
        #expect(!hot.isEmpty)
        for entry in hot {
            let key = "\(entry["kind"] ?? "") \(entry["name"] ?? "")"
            // A computation created but never run has no row in runs.
            guard entry["runs"] as? Int != 0 else {
                #expect(byKey[key] == nil)
                continue
            }
            let row = try #require(byKey[key], "\(sample): \(key) is not in runs")
            #expect(row["runs"] as? Int == entry["runs"] as? Int, "\(sample): \(key) runs")
            #expect(row["reruns"] as? Int == entry["reruns"] as? Int, "\(sample): \(key) reruns")
            #expect(row["total"] as? Int == entry["totalNanoseconds"] as? Int, "\(sample): \(key) total")
            #expect(row["self"] as? Int == entry["selfNanoseconds"] as? Int, "\(sample): \(key) self")
            #expect(row["longest"] as? Int == entry["maxNanoseconds"] as? Int, "\(sample): \(key) max")
        }
        #expect(byKey.count == hot.filter { $0["runs"] as? Int != 0 }.count)
        // node_stats holds hot's figures per name and kind, percentiles included.
        let stats = try Self.rows(trace.path, """
            SELECT name, kind, instances, runs, reruns, total_ns, self_ns, p50_ns, p99_ns, max_ns, invalidations FROM node_stats
            """)
        #expect(stats.count == hot.count, "\(sample): node_stats rows")
        for entry in hot {
            let row = try #require(stats.first { $0["name"] as? String == entry["name"] as? String
                && $0["kind"] as? String == entry["kind"] as? String }, "\(sample): \(entry["name"] ?? "") not in node_stats")
            for (column, key) in [("instances", "instances"), ("runs", "runs"), ("reruns", "reruns"),
                                  ("total_ns", "totalNanoseconds"), ("self_ns", "selfNanoseconds"),
                                  ("p50_ns", "p50Nanoseconds"), ("p99_ns", "p99Nanoseconds"), ("max_ns", "maxNanoseconds"),
                                  ("invalidations", "invalidations")] {
                #expect(row[column] as? Int == entry[key] as? Int, "\(sample): \(entry["name"] ?? "") \(column)")
            }
        }
    }

    @Test(arguments: samples)
    func summarysFiguresAreTheTablesCounts(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let summary = try #require(try AgreementTests.json("summary", trace.path, "--json") as? [String: Any])
        let row = try #require(try Self.rows(trace.path, """
            SELECT (SELECT events FROM traces) AS events, (SELECT duration_ns FROM traces) AS duration,
                   (SELECT count(*) FROM nodes) AS nodes, (SELECT count(*) FROM runs) AS runs,
                   (SELECT count(*) FROM runs WHERE NOT first_run) AS reruns,
                   (SELECT count(*) FROM flushes) AS flushes, (SELECT coalesce(sum(duration_ns), 0) FROM flushes) AS flush_ns,
                   (SELECT count(*) FROM dependencies) AS edges, (SELECT count(*) FROM issues) AS issues,
                   (SELECT threads FROM traces) AS threads
            """).first)
        for (column, key) in [("events", "events"), ("duration", "durationNanoseconds"), ("nodes", "nodes"),
                              ("runs", "runs"), ("reruns", "reruns"), ("flushes", "flushes"),
                              ("flush_ns", "flushNanoseconds"), ("edges", "edges"), ("issues", "issues"),
                              ("threads", "threads")] {
            #expect(row[column] as? Int == summary[key] as? Int, "\(sample): \(key)")
        }
        let actions = try #require(summary["actions"] as? [[String: Any]])
        let calls = try Self.rows(trace.path, "SELECT name, count(*) AS calls FROM actions GROUP BY name")
        let caused = try Self.rows(trace.path, """
            SELECT root_action AS name, count(*) AS runs, sum(NOT first_run) AS reruns FROM runs
            WHERE root_action IS NOT NULL GROUP BY root_action
            """)
        for action in actions {
            let name = try #require(action["name"] as? String)
            #expect(calls.first { $0["name"] as? String == name }?["calls"] as? Int == action["count"] as? Int, "\(name)")
            let row = caused.first { $0["name"] as? String == name }
            #expect(row?["runs"] as? Int ?? 0 == action["runsCaused"] as? Int, "\(sample): \(name) runs caused")
            #expect(row?["reruns"] as? Int ?? 0 == action["rerunsCaused"] as? Int, "\(sample): \(name) reruns caused")
        }
        // action_stats holds summary's figures per action.
        let stats = try Self.rows(trace.path, "SELECT name, calls, runs_caused, reruns_caused FROM action_stats")
        #expect(stats.count == actions.count, "\(sample): action_stats rows")
        for action in actions {
            let row = try #require(stats.first { $0["name"] as? String == action["name"] as? String },
                                   "\(sample): \(action["name"] ?? "") not in action_stats")
            #expect(row["calls"] as? Int == action["count"] as? Int, "\(sample): \(action["name"] ?? "") calls")
            #expect(row["runs_caused"] as? Int == action["runsCaused"] as? Int, "\(sample): \(action["name"] ?? "") runs")
            #expect(row["reruns_caused"] as? Int == action["rerunsCaused"] as? Int, "\(sample): \(action["name"] ?? "") reruns")
        }
    }

    @Test(arguments: samples)
    func whysCountsAreTheRunsOfTheHottestComputationByRootAction(sample: String) throws {
        let trace = try SampleTrace.named(sample)
        let hot = try #require(try AgreementTests.json("hot", trace.path, "--json", "--top", "1") as? [[String: Any]])
        let name = try #require(hot.first?["name"] as? String)
        let why = try #require(try AgreementTests.json("why", trace.path, name, "--json") as? [String: Any])
        let quoted = name.replacingOccurrences(of: "'", with: "''")
        let row = try #require(try Self.rows(trace.path, """
            SELECT sum(first_run) AS first_runs, sum(NOT first_run) AS reruns FROM runs
            WHERE name = '\(quoted)' AND kind IN ('autorun', 'computed', 'operator', 'binding')
            """).first)
        #expect(row["first_runs"] as? Int == why["firstRuns"] as? Int, "\(sample): \(name)")
        #expect(row["reruns"] as? Int == why["reruns"] as? Int, "\(sample): \(name)")
        // why's chains grouped by the action at their root: the runs table's root_action.
        var byAction: [String: Int] = [:]
        for pattern in try #require(why["patterns"] as? [[String: Any]]) {
            guard let first = (pattern["chain"] as? [String])?.first, first.hasPrefix("action "),
                  let steps = pattern["chain"] as? [String], steps.last?.hasSuffix("reran") == true else { continue }
            byAction[String(first.dropFirst("action ".count)), default: 0] += pattern["count"] as? Int ?? 0
        }
        let sql = try Self.rows(trace.path, """
            SELECT root_action, count(*) AS reruns FROM runs
            WHERE name = '\(quoted)' AND NOT first_run AND root_action IS NOT NULL GROUP BY root_action
            """)
        var sqlByAction: [String: Int] = [:]
        for row in sql { sqlByAction[row["root_action"] as? String ?? ""] = row["reruns"] as? Int }
        #expect(sqlByAction == byAction, "\(sample): \(name)")
        // node_actions holds the same counts, added up at import.
        let kind = try #require(hot.first?["kind"] as? String)
        let stats = try Self.rows(trace.path, """
            SELECT root_action, runs, reruns FROM node_actions WHERE name = '\(quoted)' AND kind = '\(kind)'
            """)
        var statsByAction: [String: Int] = [:]
        for row in stats {
            guard let action = row["root_action"] as? String, let reruns = row["reruns"] as? Int, reruns > 0 else { continue }
            statsByAction[action] = reruns
        }
        #expect(statsByAction == byAction, "\(sample): \(name) node_actions")
        #expect(stats.reduce(0) { $0 + ($1["runs"] as? Int ?? 0) } == hot.first?["runs"] as? Int, "\(sample): \(name) runs")
    }

    @Test func severalTracesGoIntoOneKeptDatabaseAndAQueryOnlyReads() throws {
        let todos = try SampleTrace.todos.get(), counter = try SampleTrace.counter.get()
        let db = try CICommand.temporaryDirectory().appendingPathComponent("sql-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: db) }
        let both = try #require(try AgreementTests.json("sql", todos.path, counter.path, "--db", db, "--json",
                                                        "SELECT trace, count(*) AS runs FROM runs GROUP BY trace ORDER BY trace") as? [[String: Any]])
        #expect(both.map { $0["trace"] as? String } == ["counter.trace", "todos.trace"])
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        for hostile in ["DELETE FROM nodes", "DROP TABLE nodes", "ATTACH '\(db)-other' AS other", "PRAGMA writable_schema = 1",
                        "SELECT 1; DELETE FROM nodes", "CREATE TABLE x(a)", "SELEC 1", "BEGIN", "VACUUM INTO '\(db)-copy'"] {
            let result = try BuiltProducts.inspect("sql", "--db", db, hostile)
            #expect(result.status == 2, "\(hostile)")
            #expect(result.stderrLines.count == 1, "\(hostile): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // A bad query with a trace to import: the import is rolled back too.
        let bad = try BuiltProducts.inspect("sql", todos.path, "--db", db, "SELECT nothing FROM nowhere")
        #expect(bad.status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(!FileManager.default.fileExists(atPath: "\(db)-other"))
        #expect(!FileManager.default.fileExists(atPath: "\(db)-copy"))
        let csv = try BuiltProducts.inspect("sql", "--db", db, "--csv", "SELECT trace, events FROM traces ORDER BY trace")
        #expect(csv.status == 0)
        #expect(csv.stdout.hasPrefix("trace,events\r\ncounter.trace,"))
        let table = try BuiltProducts.inspect("sql", "--db", db, "SELECT count(*) AS traces FROM traces")
        #expect(table.stdout == "traces\n------\n     2\n(1 row)\n")
        // The runs over 1 ms (docs/SQL.md) come from an index, not a scan of every run.
        let plan = try BuiltProducts.inspect("sql", "--db", db, "--csv", """
            EXPLAIN QUERY PLAN SELECT name, duration_ns FROM runs WHERE duration_ns > 1000000 ORDER BY duration_ns DESC LIMIT 10
            """)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("run_slices_by_duration"), "\(plan.stdout)")
    }

    @Test func aTraceImportedAgainReplacesItsRows() throws {
        let todos = try SampleTrace.todos.get()
        let db = try CICommand.temporaryDirectory().appendingPathComponent("sql-again-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: db) }
        let query = """
            SELECT (SELECT count(*) FROM traces) AS traces, (SELECT count(*) FROM runs) AS runs,
                   (SELECT count(*) FROM node_stats) AS stats, (SELECT count(*) FROM invalidations) AS invalidations,
                   (SELECT count(*) FROM node_values) AS node_values, (SELECT count(*) FROM actions) AS actions,
                   (SELECT count(*) FROM node_actions) AS node_actions, (SELECT count(*) FROM nodes) AS nodes
            """
        let once = try #require(try AgreementTests.json("sql", todos.path, "--db", db, "--json", query) as? [[String: Any]])
        let twice = try #require(try AgreementTests.json("sql", todos.path, "--db", db, "--json", query) as? [[String: Any]])
        #expect(once.first?["traces"] as? Int == 1)
        #expect((once.first?["runs"] as? Int ?? 0) > 0)
        #expect((once.first?["node_values"] as? Int ?? 0) > 0)
        #expect(NSDictionary(dictionary: once.first ?? [:]) == NSDictionary(dictionary: twice.first ?? [:]))
    }

    /// Makes a SQLite database at `path` by running `sql` (the test's own, not reactor-inspect's).
    static func makeDatabase(_ path: String, _ sql: String) throws {
        var handle: OpaquePointer?
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        try #require(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK)
    }

    @Test func aDatabaseOfOtherTablesOrAnotherVersionIsRefusedAndKept() throws {
        let counter = try SampleTrace.counter.get().path
        let folder = try CICommand.temporaryDirectory()
        for (name, sql, says) in [
            ("foreign", "CREATE TABLE mine(x); INSERT INTO mine VALUES (42);", "other tables"),
            ("first", "CREATE TABLE traces(trace TEXT PRIMARY KEY); CREATE TABLE run_slices(trace TEXT, node INTEGER);",
             "schema 1"),
            ("newer", "PRAGMA user_version = 99; CREATE TABLE traces(trace TEXT); INSERT INTO traces VALUES ('a');",
             "schema 99"),
        ] {
            let db = folder.appendingPathComponent("sql-\(name)-\(UUID().uuidString).db").path
            defer { try? FileManager.default.removeItem(atPath: db) }
            try Self.makeDatabase(db, sql)
            let before = try Data(contentsOf: URL(fileURLWithPath: db))
            for arguments in [["sql", counter, "--db", db, "SELECT 1"], ["sql", "--db", db, "SELECT count(*) FROM traces"]] {
                let result = try BuiltProducts.run("reactor-inspect", arguments)
                #expect(result.status == 2, "\(name): \(arguments)")
                #expect(result.stderrLines.count == 1, "\(name): \(result.stderr)")
                #expect(result.stderr.contains(says), "\(name): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "\(name)")
            #expect(FileManager.default.fileExists(atPath: db))
        }
    }

    @Test func badInputIsOneLineAndLeavesNoDatabase() throws {
        let db = try CICommand.temporaryDirectory().appendingPathComponent("sql-missing-\(UUID().uuidString).db").path
        for arguments in [["sql", "/nonexistent/x.trace", "--db", db, "SELECT 1"], ["sql", "SELECT 1"],
                          ["sql", try SampleTrace.counter.get().path, "--json", "--csv", "SELECT 1"]] {
            let result = try BuiltProducts.run("reactor-inspect", arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: db))
        // A file that is not a database is refused, and kept as it was.
        let trace = try SampleTrace.counter.get().path
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        let foreign = try BuiltProducts.inspect("sql", "--db", trace, "SELECT 1")
        #expect(foreign.status == 2)
        #expect(foreign.stderrLines.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
    }
}
