import BuiltProducts
import Foundation
@testable import ReactorInspector
import ReactorTraceFormat
import Testing

/// The index's value rows (docs/INSPECT.md, "The index"): `history NAME` of a trace with
/// values reads no chunk of the trace when the rows hold every node it follows, and says
/// what a pass says, byte for byte; a node dropped over the budget answers as before; a bad
/// rows section is rebuilt with one note.
@Suite struct IndexValueRowsTests {
    static func copy(_ sample: String, as name: String) throws -> String {
        try IndexCommandTests.copy(of: sample, as: "valuerows-\(name)")
    }

    /// Rewrites the index beside `path` with `change` made to it, encoded and tagged with this
    /// user's key (only the sections' own checks can refuse it), its snapshots kept.
    static func rewriteIndex(_ path: String, _ change: (inout TraceIndex) -> Void) throws {
        let indexPath = TraceIndex.path(forTrace: path)
        var index = try #require(try TraceIndex.load(forTrace: path))
        let original = try #require(FileManager.default.contents(atPath: indexPath))
        let bodyEnd = 28 + Int([UInt8](original)[12..<16].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        change(&index)
        try Data(index.encoded() + [UInt8](original)[bodyEnd...]).write(to: URL(fileURLWithPath: indexPath))
    }

    /// Every node's history from the rows is the pass's, and reads no chunk when the rows hold
    /// every node it follows (on each sample, some history does).
    @Test(arguments: IndexPositionsTests.samples)
    func historyFromTheRowsIsTheHistoryByAPass(sample: String) throws {
        let path = try Self.copy(sample, as: "history")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        let indexBytes = FileManager.default.contents(atPath: TraceIndex.path(forTrace: path))
        let index = try #require(try TraceIndex.load(forTrace: path))
        let section = try #require(index.valueRows)
        var fromRows = 0
        for name in try IndexPositionsTests.names(path) {
            let session = try IndexPositionsTests.expectIndexedHistoryIsThePass(path, name).session
            let model = try #require(index.model?.model)
            if try section.history(of: name, actionCount: model.actions.count, knows: { model.node($0) != nil }) != nil {
                #expect(session.batchesRead == 0, "\(name)")
                fromRows += 1
            }
        }
        #expect(fromRows > 0)
        #expect(FileManager.default.contents(atPath: TraceIndex.path(forTrace: path)) == indexBytes)
    }

    /// The binary, both ways, on the names of the 4-thread value sample.
    @Test func historyCommandsAreTheSameBothWays() throws {
        let path = try Self.copy("threads-values", as: "cli")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        try IndexCommandTests.expectSameAnswers(try IndexPositionsTests.names(path).flatMap { name in
            [["history", path, name], ["history", path, name, "--json"]]
        })
    }

    /// Rows of a node "busy" (#1, 40 values) and a node "quiet" (#2, 4 values) in a 64-byte
    /// budget: busy is dropped, quiet kept.
    static func busyAndQuiet() -> IndexedValueRows {
        let collector = ValueRowsCollector(traceSize: 1, budget: 64)
        collector.read(upTo: 1)
        collector.named(0, name: "busy", ordinal: 0)
        collector.named(1, name: "quiet", ordinal: 0)
        var ordinal = 0
        for step in 0..<40 {
            collector.took(0, value: "v\(step)", root: -1, ordinal: ordinal, at: UInt64(step))
            ordinal += 1
            if step % 10 == 0 {
                collector.took(1, value: "q\(step)", root: -1, ordinal: ordinal, at: UInt64(step))
                ordinal += 1
            }
        }
        let section = collector.valueRows(id: { UInt64($0) + 1 }, valueEvents: ordinal)
        return section
    }

    /// Over the budget, the node with the most rows is dropped: listed, without rows; a history
    /// that would follow it is not answered from the rows, the others are.
    @Test func aNodeOverTheBudgetIsDroppedAndListed() throws {
        let section = Self.busyAndQuiet()
        #expect(try section.history(of: "busy", actionCount: 0, knows: { _ in true }) == nil)
        let quiet = try #require(try section.history(of: "quiet", actionCount: 0, knows: { _ in true }))
        #expect(quiet.map { $0.value } == ["q0", "q10", "q20", "q30"])
        #expect(quiet.map { $0.time } == [0, 10, 20, 30])
        #expect(try section.history(of: "#2", actionCount: 0, knows: { _ in true })?.count == 4)
    }

    /// A section cut short is damaged whichever node is asked: also a dropped one, whose
    /// history a pass answers (the rest of the section is read before saying so).
    @Test func aCutSectionIsDamagedForADroppedNodeToo() throws {
        let section = Self.busyAndQuiet()
        #expect(try section.history(of: "busy", actionCount: 0, knows: { _ in true }) == nil)
        let cut = IndexedValueRows(bytes: Array(section.bytes.dropLast(3)))
        for name in ["busy", "#1", "quiet"] {
            #expect(throws: TraceIndexError.self, "\(name)") {
                try cut.history(of: name, actionCount: 0, knows: { _ in true })
            }
        }
    }

    /// Value texts are numbered in order of first sight and told apart by their UTF-8 bytes,
    /// short (packed) and long alike, across the table's growth; texts that Swift calls equal
    /// but whose bytes differ (composed and decomposed é) are two texts.
    @Test func valueTextsAreNumberedByTheirBytes() {
        var table = ValueTextTable()
        let texts = (0..<3000).map { "\($0)" } + ["", String(repeating: "x", count: 15),
                                                  String(repeating: "y", count: 16), String(repeating: "z", count: 64),
                                                  "caf\u{E9}", "cafe\u{301}"]
        for (number, text) in texts.enumerated() {
            let first = table.intern(text)
            #expect(first.number == Int32(number) && first.new, "\(text)")
        }
        for (number, text) in texts.enumerated().reversed() {
            let again = table.intern(text)
            #expect(again.number == Int32(number) && !again.new, "\(text)")
        }
        #expect(table.texts == texts)
    }

    /// A node named after its first values: its history opens with the value it held then
    /// (the latest in time order), and goes on from there.
    @Test func aNodeNamedLateOpensWithItsValueThen() throws {
        let collector = ValueRowsCollector(traceSize: 1, budget: 1 << 16)
        collector.read(upTo: 1)
        collector.named(0, name: "#1", ordinal: 0)
        collector.took(0, value: "a", root: -1, ordinal: 0, at: 20)
        collector.took(0, value: "b", root: 0, ordinal: 1, at: 10)
        collector.named(0, name: "Store.late", ordinal: 2)
        collector.took(0, value: "c", root: -1, ordinal: 2, at: 30)
        let section = collector.valueRows(id: { UInt64($0) + 1 }, valueEvents: 3)
        let rows = try #require(try section.history(of: "Store.late", actionCount: 1, knows: { _ in true }))
        #expect(rows.map { $0.value } == ["a", "c"])
        #expect(rows.map { $0.root } == [-1, -1])
        #expect(try section.history(of: "#1", actionCount: 1, knows: { _ in true })?.map { $0.value } == ["a", "b", "c"])
        // A root past the actions the model has: damaged.
        #expect(throws: TraceIndexError.self) { try section.history(of: "#1", actionCount: 0, knows: { _ in true }) }
    }

    /// A rows section under this user's tag that is cut short: never used, one note, the
    /// pass's answer, and rebuilt.
    @Test func aCutRowsSectionIsRebuiltWithOneNote() throws {
        let path = try Self.copy("threads-values", as: "hostile")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        let name = try Self.keptName(path)
        try Self.rewriteIndex(path) { index in
            index.valueRows = index.valueRows.map { IndexedValueRows(bytes: Array($0.bytes.dropLast(3))) }
        }
        try IndexCommandTests.expectRefusedIndexRebuilt(["history", path, name], noting: "damaged index")
    }

    /// A rows section whose value texts are gone (every row's text out of range): the same.
    @Test func aValueOutOfRangeIsRebuiltWithOneNote() throws {
        let path = try Self.copy("threads-values", as: "range")
        try IndexPositionsTests.index(path, snapshotBytes: nil)
        let name = try Self.keptName(path)
        try Self.rewriteIndex(path) { index in
            guard let bytes = index.valueRows?.bytes else { return }
            // The counts, then an empty table of texts in place of the one written.
            var fields = IndexFieldReader(bytes)
            guard let events = try? fields.int(), let names = try? fields.int(), (try? fields.strings()) != nil
            else { return }
            var rewritten = IndexFieldWriter()
            rewritten.put(events)
            rewritten.put(names)
            rewritten.put(strings: [])
            index.valueRows = IndexedValueRows(bytes: rewritten.bytes + bytes.suffix(fields.readableBytes))
        }
        try IndexCommandTests.expectRefusedIndexRebuilt(["history", path, name], noting: "damaged index")
    }

    /// The first name asked of `path`'s index (``IndexPositionsTests/names(_:)``) whose history
    /// its value rows answer: a node the budget kept, whose rows are read (the 4-thread sample's
    /// values differ from run to run, and so do the nodes kept).
    static func keptName(_ path: String) throws -> String {
        let index = try #require(try TraceIndex.load(forTrace: path))
        let section = try #require(index.valueRows)
        let actions = index.model?.model.actions.count ?? 0
        let kept = try IndexPositionsTests.names(path).first {
            try section.history(of: $0, actionCount: actions, knows: { _ in true }) != nil
        }
        return try #require(kept)
    }
}
