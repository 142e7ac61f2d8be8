import BuiltProducts
import Foundation
import ReactorCore
import Testing
import ReactorTrace

/// A recording process killed with SIGKILL: the file keeps every chunk the
/// writer shipped, the reader reads all of them and says where it stopped.
@Suite struct CrashSafetyTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test func killedMidRecordingLosesAtMostTheChunkInFlight() throws {
        let path = TraceFixtures.temporaryPath("killed")
        defer { unlink(path) }
        let (process, output) = try BuiltProducts.launch("stress", ["--computations", "200", "--loop", "--trace", path])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(BuiltProducts.readLine(output) == "recording")
        // Let it write a few hundred KiB, then kill it without warning.
        var polls = 0
        while Self.fileSize(path) < 400 << 10, polls < 30_000, process.isRunning {
            usleep(1000)
            polls += 1
        }
        #expect(process.isRunning, "the sample stopped on its own")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)

        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let reader = try TraceReader(path: path)
        var events = 0
        var reruns = 0
        while let event = try reader.next() {
            events += 1
            if case .rerunBegan = event.record { reruns += 1 }
        }
        #expect(events > 10_000)
        #expect(reruns > 0)
        #expect(reader.end == nil)
        let truncation = try #require(reader.truncation, "a killed recording has no end block")
        // Every complete chunk was read: what is left is one chunk cut short.
        #expect(truncation.offset <= bytes.count)
        switch truncation.reason {
        case .missingEnd(let offset):
            #expect(offset == bytes.count)
        case .truncated(let offset):
            #expect(offset == truncation.offset)
            let left = bytes.count - offset
            if left >= 8 {
                let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
                #expect(offset + 28 + length > bytes.count, "a complete chunk was left unread")
            }
            #expect(left < 28 + TraceRecorder.Options().segmentCapacity)
        default:
            Issue.record("unexpected stop: \(truncation)")
        }
    }

    @Test func idleThreadsAreShippedWithinTheFlushInterval() throws {
        let path = TraceFixtures.temporaryPath("held")
        defer { unlink(path) }
        // --hold: the sample prints its counts, then sleeps without stopping the recorder.
        let (process, output) = try BuiltProducts.launch("stress", ["--computations", "60", "--writes", "200", "--hold", "--trace", path])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = try #require(BuiltProducts.readLine(output))
        let json = try SampleProcess.json(line)
        let reruns = try #require(json["reruns"] as? [String: Int])
        // No stop(), no more events: the writer's timer alone must ship the partly
        // filled buffer (within 10 ms; allow a loaded machine plenty of time).
        var counts = try SampleCountTests.counts(ofTraceAt: path)
        var polls = 0
        while counts.reruns != reruns || counts.writes != 200, polls < 1000 {
            usleep(10_000)
            polls += 1
            counts = try SampleCountTests.counts(ofTraceAt: path)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        counts = try SampleCountTests.counts(ofTraceAt: path)
        #expect(counts.reruns == reruns)
        #expect(counts.writes == 200)
        #expect(counts.truncation?.reason == .missingEnd(offset: Self.fileSize(path)))
    }
}
