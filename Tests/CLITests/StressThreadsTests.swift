import BuiltProducts
import Foundation
import ReactorTraceFormat
import Testing

/// `stress --threads 4`: a trace written by four threads at once reads cleanly,
/// and the views count what the sample counted. The suite name has `Thread` so
/// `make tsan` also runs the sample's writers under ThreadSanitizer.
@Suite struct StressThreadsTests {
    @Test func fourWritersRecordFromFourThreads() throws {
        let trace = try SampleTrace.stressThreads.get()
        let totalReruns = try #require(trace.totalReruns)
        let reader = try TraceReader(path: trace.path, mode: .strict)
        var events = 0
        var writingThreads: Set<UInt32> = []
        while let event = try reader.next() {
            events += 1
            if case .changed = event.record { writingThreads.insert(event.thread) }
        }
        // The main thread builds the graph; the four writers change it.
        #expect(writingThreads.count == 4)
        #expect(reader.threadCount == 5)
        #expect(reader.truncation == nil)
        #expect(reader.end?.threads == 5)
        // Each writer's first event is a write (untimed): a clock event goes before it.
        #expect(reader.clockEvents == 4)
        events += reader.clockEvents
        #expect(reader.end?.events == UInt64(events))

        let summary = try BuiltProducts.inspect("summary", trace.path, "--json")
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        #expect(object["events"] as? Int == events)
        #expect(object["reruns"] as? Int == totalReruns)

        let hot = try BuiltProducts.inspect("hot", trace.path, "--json", "--top", "100000")
        #expect(hot.status == 0, "\(hot.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(hot.stdout.utf8)) as? [[String: Any]])
        #expect(entries.compactMap { $0["reruns"] as? Int }.reduce(0, +) == totalReruns)
    }

    /// The writers start after the main thread has built the graph, and each
    /// begins with a write (untimed): their first events read at their start,
    /// not at the trace's (the clock event before them gives the time).
    @Test func writersFirstEventsReadWhenTheyStarted() throws {
        let trace = try SampleTrace.stressThreads.get()
        let replay = try BuiltProducts.inspect("replay", trace.path, "--json")
        #expect(replay.status == 0, "\(replay.stderr)")
        var first: [Int: Int] = [:]
        for line in replay.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let thread = try #require(object["thread"] as? Int), time = try #require(object["timeNanoseconds"] as? Int)
            if first[thread] == nil { first[thread] = time }
        }
        #expect(first.count == 5)
        let mainStart = try #require(first[0])
        for (thread, time) in first where thread != 0 {
            #expect(time > 0 && time >= mainStart, "thread \(thread) starts at \(time) ns")
        }
    }
}
