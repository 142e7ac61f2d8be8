import ArgumentParser
import Foundation
import ReactorInspector
import ReactorTraceSQL

/// Imports traces into a database and answers a query, for `sql` and `mcp`:
/// the database is kept (`--db`) only when everything succeeded; a database
/// file this run created is removed on failure.
enum TraceSQLSession {
    struct Result {
        let answer: SQLQueryResult
        let reports: [TraceReadReport]
    }

    static func run(traces: [String], query: String, databasePath: String?, output: OutputOptions) throws -> Result {
        let existed = databasePath.map { FileManager.default.fileExists(atPath: $0) } ?? false
        do {
            let database = try TraceDatabase(path: databasePath)
            var reports: [TraceReadReport] = []
            var used = Set<String>()
            do {
                for path in traces {
                    var label = (path as NSString).lastPathComponent
                    if used.contains(label) { label = path }
                    used.insert(label)
                    reports.append(try database.importTrace(label: label, path: path) { body in
                        try TraceArgument.reading(path, output: output) { progress throws(TraceFileError) in
                            try TraceFile.forEachBatch(path: path, progress: progress, body)
                        }
                    })
                }
                let answer = try database.query(query)
                try database.commit()
                return Result(answer: answer, reports: reports)
            } catch {
                database.rollback()
                throw error
            }
        } catch {
            if let databasePath, !existed { try? FileManager.default.removeItem(atPath: databasePath) }
            if let failure = error as? TraceSQLError { throw ValidationError(failure.description) }
            throw error
        }
    }
}
