import Foundation
import ReactorCore
import Testing
@testable import ReactorTrace

/// Strings are written once per chunk context and referenced after that.
@Suite struct InterningTests {
    @Test func repeatedStringsAreWrittenOnce() throws {
        let name = String(repeating: "addTodo(_:)", count: 20)
        let arguments = String(repeating: "milk ", count: 40)
        let bytes = try TraceFixtures.record { recorder in
            for _ in 0..<1000 {
                recorder.actionBegan(store: 5, name: name, arguments: arguments)
                recorder.actionEnded(store: 5)
            }
        }
        // Each string costs its length once per 64 KiB chunk; an action pair costs a few bytes after that.
        #expect(bytes.count < 1000 * 16 + 2 * (name.utf8.count + arguments.utf8.count))
        let (events, _) = try TraceFixtures.readAll(bytes)
        #expect(events.count == 2000)
        #expect(events.allSatisfy {
            $0.record == .actionBegan(store: 5, name: name, arguments: arguments) || $0.record == .actionEnded(store: 5)
        })
    }

    @Test func stringTablesResetWithEachBufferAndStillDecode() throws {
        let names = (0..<50).map { "Store.action\($0)(_:)" }
        let bytes = try TraceFixtures.record(options: .init(segmentCapacity: 256)) { recorder in
            for round in 0..<20 {
                for name in names.prefix(5 + round) { recorder.actionBegan(store: 1, name: name, arguments: "") }
            }
        }
        let (events, reader) = try TraceFixtures.readAll(bytes)
        #expect(reader.chunksRead > 10)
        var expected: [TraceRecord] = []
        for round in 0..<20 {
            for name in names.prefix(5 + round) { expected.append(.actionBegan(store: 1, name: name, arguments: "")) }
        }
        #expect(events.map(\.record) == expected)
    }

    @Test func longStringsAreCutAtACharacterBoundary() throws {
        let long = String(repeating: "é", count: TraceFormat.maxStringLength)   // 2 bytes each
        let bytes = try TraceFixtures.record { $0.issue(.misuse, node: 0, message: "x" + long) }
        let (events, _) = try TraceFixtures.readAll(bytes)
        guard case let .issue(_, _, message) = try #require(events.first?.record) else {
            Issue.record("not an issue")
            return
        }
        #expect(message.utf8.count <= TraceFormat.maxStringLength)
        #expect(message.utf8.count >= TraceFormat.maxStringLength - 1)
        #expect(message.hasPrefix("xéé"))
        #expect(!message.contains("\u{FFFD}"))
    }

    @Test func typicalEventsTakeTwoToFourBytes() throws {
        let bytes = try TraceFixtures.record { recorder in
            for index in 0..<UInt64(10_000) {
                let computation = 100 + index % 50
                recorder.changed(dependency: index % 50)
                recorder.invalidated(computation: computation, cause: .dependency, source: index % 50)
                recorder.depend(computation: computation, dependency: index % 50)
            }
        }
        let events = 30_000.0
        #expect(Double(bytes.count) / events <= 4)
    }
}
