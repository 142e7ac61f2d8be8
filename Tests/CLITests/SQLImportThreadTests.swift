import Foundation
import ReactorInspector
import ReactorTraceSQL
import Testing

/// `sql`'s import inserts rows on a thread of its own while the pass decodes
/// (in process, so `make tsan` checks the hand-over): every row arrives, and
/// a read that fails ends the thread and leaves the database usable.
@Suite struct SQLImportThreadTests {
    @Test func theInsertThreadTakesEveryRowOfAThreadedTrace() throws {
        let trace = try SampleTrace.named("stress-threads")
        let hot = try #require(try AgreementTests.json("hot", trace.path, "--json", "--top", "100000") as? [[String: Any]])
        let runs = hot.reduce(0) { $0 + ($1["runs"] as? Int ?? 0) }
        let database = try TraceDatabase(path: nil)
        _ = try database.importTrace(label: "t", path: trace.path) { body in
            try TraceFile.forEachBatch(path: trace.path, body)
        }
        let answer = try database.query("""
            SELECT (SELECT count(*) FROM run_slices), (SELECT count(*) FROM runs), (SELECT sum(runs) FROM node_stats),
                   (SELECT sum(runs) FROM node_actions)
            """)
        #expect(runs > 1000)
        #expect(answer.rows == [[.integer(Int64(runs)), .integer(Int64(runs)), .integer(Int64(runs)), .integer(Int64(runs))]])
    }

    struct ReadFailed: Error {}

    @Test func aReadThatFailsEndsTheInsertThreadAndTheDatabaseStaysUsable() throws {
        let trace = try SampleTrace.named("stress-threads")
        let database = try TraceDatabase(path: nil)
        #expect(throws: ReadFailed.self) {
            _ = try database.importTrace(label: "t", path: trace.path) { body in
                _ = try TraceFile.forEachBatch(path: trace.path, body)
                throw ReadFailed()
            }
        }
        database.rollback()
        let answer = try database.query("SELECT count(*) FROM traces")
        #expect(answer.rows == [[.integer(0)]])
    }
}
