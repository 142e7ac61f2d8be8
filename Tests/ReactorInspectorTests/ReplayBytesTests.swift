import ReactorCore
import ReactorTrace
import Testing
@testable import ReactorInspector

@Suite struct ReplayBytesTests {
    private func decimal(_ value: UInt64, width: Int = 0) -> String {
        let text = ByteText(capacity: 4)
        text.appendDecimal(value, width: width)
        return text.string
    }

    @Test func decimalsAndPadding() {
        for value: UInt64 in [0, 5, 9, 10, 42, 99, 100, 101, 999, 1_000, 12_345, 1_000_000, UInt64.max] {
            #expect(decimal(value) == String(value))
        }
        #expect(decimal(7, width: 3) == "007")
        #expect(decimal(42, width: 3) == "042")
        #expect(decimal(1_234, width: 3) == "1234")
        #expect(decimal(0, width: 2) == "00")
        let text = ByteText(capacity: 1)
        for value: UInt64 in [0, 7, 42, 999] { text.appendThreeDigits(value) }
        #expect(text.string == "000007042999")
    }

    @Test func durationsKeepTheirTextForm() {
        #expect(DurationText.format(850) == "850 ns")
        #expect(DurationText.format(1_000) == "1.00 µs")
        #expect(DurationText.format(12_300) == "12.3 µs")
        #expect(DurationText.format(999_999) == "1000 µs")
        #expect(DurationText.format(4_560_000) == "4.56 ms")
        #expect(DurationText.format(1_200_000_000) == "1.20 s")
        #expect(DurationText.formatTime(0) == "0.000 ms")
        #expect(DurationText.formatTime(12_345_678) == "12.345 ms")
        #expect(DurationText.formatTime(3_000_007_000) == "3000.007 ms")
        for time: UInt64 in [0, 999_999, 1_000_000, 123_456_789_000] {
            #expect(DurationText.timeWidth(time) == DurationText.formatTime(time).count)
        }
    }

    @Test func bytesLinesAndStringLinesAgree() {
        let script = EventScript.todos(adds: 2)
        for style in [TextStyle.plain, .ansi] {
            for filter in [ReplayFilter(), ReplayFilter(kinds: ReplayFilter.kinds(named: "action"), names: ["addtodo"])] {
                var strings = ReplayFormatter(filter: filter, style: style)
                var bytes = ReplayFormatter(filter: filter, style: style)
                var callbacks = ReplayFormatter(filter: filter, style: style)
                var written: [UInt8] = []
                var expected = ""
                for event in script.events {
                    let line = strings.line(for: event)
                    let wrote = bytes.write(event, to: &written)
                    var seen: String?
                    let called = callbacks.withLine(for: event) { seen = String(decoding: $0, as: UTF8.self) }
                    #expect(wrote == (line != nil))
                    #expect(called == (line != nil))
                    if let line {
                        expected += line + "\n"
                        #expect(seen == line + "\n")
                    }
                }
                #expect(String(decoding: written, as: UTF8.self) == expected)
            }
        }
    }

    @Test func styledLinesColourKindsAndBoldNames() throws {
        var formatter = ReplayFormatter(style: .ansi)
        let lines = EventScript.todos(adds: 1).events.compactMap { formatter.line(for: $0) }
        let invalidate = try #require(lines.first { $0.contains("invalidate") })
        #expect(invalidate.contains("\u{1B}[31minvalidate  \u{1B}[0m"))
        #expect(invalidate.contains("computed \u{1B}[1mvisibleTodos\u{1B}[0m"))
        #expect(invalidate.contains("\u{1B}[2mby TodoStore.todos\u{1B}[0m"))
    }

    @Test func unknownNodesGoByTheirIds() {
        var formatter = ReplayFormatter()
        let line = formatter.line(for: TraceEvent(timestamp: 1_500_000, thread: 3,
                                                  record: .invalidated(computation: 7, cause: .dependency, source: 9)))
        #expect(line == "    1.500 ms  t3  invalidate    #7 by #9")
    }
}
