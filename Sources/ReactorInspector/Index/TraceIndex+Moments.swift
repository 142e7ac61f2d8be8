#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ReactorTraceFormat

/// The index's snapshots of a pass (docs/INSPECT.md, "The index"): every so
/// many bytes of the trace, where the reader stood (``TraceResumePoint``) and
/// the builder's state (``TraceModelBuilder/encodeCheckpoint(to:)``: every
/// node with its counts and latest value, the edges held, the runs and actions
/// open per thread, the actions, flushes and issues so far), so that a moment
/// is a snapshot and the chunks after it, read as a pass would read them.
///
/// The section in the index's body lists the snapshots; their bytes follow the
/// body, each under its own keyed tag (``IndexKey``) kept in the list, so that
/// a question reads and checks only the one snapshot it starts from. A
/// snapshot whose tag does not verify is never used: the index is rebuilt.
struct IndexedMoments: Sendable, Equatable {
    /// One snapshot.
    struct Entry: Sendable, Equatable {
        /// Batches read before it was taken: a pass resumed from it reads from `batches[batch]` on.
        var batch: Int
        /// The latest time of those batches (0: none): it serves a moment at or after this time.
        var latestBefore: UInt64
        /// Outermost actions begun in those batches: it serves `action:N` for a larger N.
        var actionsBegun: Int
        /// Where its bytes begin after the index's body.
        var offset: UInt64
        /// How many bytes it takes.
        var length: Int
        /// Its bytes' keyed tag.
        var tag: UInt64
    }

    /// A name event: which batch holds it, and what it names.
    struct Name: Sendable, Equatable {
        var batch: Int
        var id: UInt64
        var name: String
        var owner: UInt64
    }

    /// The snapshots, in file order.
    var entries: [Entry]
    /// Every name event of the trace, in file order. A node's name is its final name at every
    /// moment (docs/METRICS.md, "name"): a pass for a moment that stops before the end learns
    /// from these the names the chunks it did not read give (``TraceModelBuilder/named(_:name:owner:)``).
    var names: [Name] = []
    /// Where the snapshots' bytes begin in the index file, once it is written or read.
    var tailStart: UInt64?
    /// The bytes of a pass's snapshots, until the index is written.
    var spool: MomentSpool?

    /// How many bytes follow the body.
    var tailLength: UInt64 { entries.last.map { $0.offset + UInt64($0.length) } ?? 0 }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.entries == rhs.entries && lhs.names == rhs.names }

    /// Gives `builder` the names of the batches from `position` on, in file order.
    func name(in builder: TraceModelBuilder, from position: Int) {
        for name in names where name.batch >= position { builder.learnName(name.id, name: name.name, owner: name.owner) }
    }

    /// The latest snapshot a pass for a moment at `until` (nil: none) and of
    /// `untilAction` (nil: none) can start from, if any is later than the trace's start.
    func latest(until: UInt64?, untilAction: Int?) -> Entry? {
        entries.last { entry in
            entry.latestBefore <= (until ?? .max) && entry.actionsBegun < (untilAction.map { max(1, $0) } ?? .max)
        }
    }

    func encode(to fields: inout IndexFieldWriter) {
        fields.put(entries.count)
        var batch = 0
        for entry in entries {
            fields.put(entry.batch - batch); fields.put(entry.latestBefore); fields.put(entry.actionsBegun)
            fields.put(entry.length); fields.put(entry.tag)
            batch = entry.batch
        }
        fields.put(names.count)
        batch = 0
        for name in names {
            fields.put(name.batch - batch); fields.put(name.id); fields.put(name.name); fields.put(name.owner)
            batch = name.batch
        }
    }

    /// Decodes the section of an index of `batches`, checking each snapshot against them.
    static func decode(from fields: inout IndexFieldReader, batches: [TraceIndex.Batch]) throws(TraceIndexError)
        -> IndexedMoments {
        var entries: [Entry] = []
        var batch = 0, latest: UInt64 = 0, offset: UInt64 = 0, begun = 0
        for _ in 0..<(try fields.elements(eachAtLeast: 5)) {
            let step = try fields.count(atMost: UInt64(batches.count - batch))
            guard step > 0 else { throw .damaged("snapshots out of order") }
            for position in batch..<(batch + step) { latest = max(latest, batches[position].lastTime) }
            batch += step
            guard try fields.next() == latest else { throw .damaged("a snapshot that disagrees with its table") }
            let actions = try fields.int()
            guard actions >= begun else { throw .damaged("snapshots out of order") }
            begun = actions
            let length = try fields.count(atMost: UInt64(Int32.max))
            entries.append(Entry(batch: batch, latestBefore: latest, actionsBegun: actions, offset: offset,
                                 length: length, tag: try fields.next()))
            offset += UInt64(length)
        }
        var names: [Name] = []
        batch = 0
        for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
            batch += try fields.count(atMost: UInt64(batches.count - batch))
            guard batch < batches.count else { throw .damaged("a name outside the trace") }
            names.append(Name(batch: batch, id: try fields.next(), name: try fields.string(), owner: try fields.next()))
        }
        return IndexedMoments(entries: entries, names: names)
    }
}

/// A pass's snapshots while it reads: their bytes go to an unnamed temporary
/// file, not memory (memory stays flat however long the trace), and are copied
/// after the index's body when it is written. A follower's snapshots stay
/// there (``LiveTrace/index()``): its thread appends while questions read
/// them (``read(at:count:)``) on theirs, so the file is used under a lock
/// (`@unchecked Sendable`: internal storage, every use of the file under that lock).
final class MomentSpool: @unchecked Sendable {
    private let file: UnsafeMutablePointer<FILE>
    /// Held while the file or `appended` is used. An `NSLock` (a pthread mutex)
    /// rather than `Synchronization.Mutex`: on Linux a contended `Mutex` waits on
    /// a raw futex ThreadSanitizer does not see, so `make tsan` reported what it
    /// guards as racing.
    private let lock = NSLock()
    /// Bytes appended.
    private var appended: UInt64 = 0

    init?() {
        guard let file = tmpfile() else { return nil }
        self.file = file
    }

    deinit { fclose(file) }

    /// Bytes appended so far.
    var length: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return appended
    }

    func append(_ bytes: [UInt8]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        appended += UInt64(written)
        // Flushed, so that a reader of the descriptor (``read(at:count:)``) finds the bytes.
        return written == bytes.count && fflush(file) == 0
    }

    /// The `count` bytes appended from `offset` on; nil beyond what was appended, or unreadable.
    func read(at offset: UInt64, count: Int) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard count >= 0, offset <= appended, UInt64(count) <= appended - offset else { return nil }
        return try? TraceIndex.read(fileno(file), at: Int(offset), count: count)
    }

    /// Hands every byte appended, in order and in pieces, to `write`.
    func copy(_ write: ([UInt8]) throws(OutputFileError) -> Void) throws(OutputFileError) {
        lock.lock()
        defer { lock.unlock() }
        fflush(file)
        rewind(file)
        defer { fseek(file, 0, SEEK_END) }
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        var left = appended
        while left > 0 {
            let wanted = Int(min(left, UInt64(piece.count)))
            let got = piece.withUnsafeMutableBytes { fread($0.baseAddress, 1, wanted, file) }
            guard got == wanted else { throw OutputFileError.cannotWrite(path: "a temporary file", reason: "cut short") }
            try write(Array(piece[0..<got]))
            left -= UInt64(got)
        }
    }
}

/// Takes a pass's snapshots: after a batch when enough of the trace has been
/// read since the last one, and after the last batch. Snapshots take at most
/// about 1/``budgetRatio`` of the bytes they follow: one that would take more
/// is left out (the next is tried further on).
struct MomentSnapshotter {
    /// A snapshot is at most 1/25 (4 %) of the trace read since the previous one.
    static let budgetRatio: UInt64 = 25
    /// And at least this much trace lies between two.
    static let minimumInterval: UInt64 = 1 << 20
    /// `REACTOR_INDEX_SNAPSHOT_BYTES`: a fixed interval instead (tests take one after every chunk with 1).
    static let fixedInterval: UInt64? = getenv("REACTOR_INDEX_SNAPSHOT_BYTES")
        .flatMap { UInt64(String(cString: $0)) }.map { max(1, $0) }

    private let key: SipHash24
    private let spool: MomentSpool
    /// The fixed interval in bytes, if any (else by the budget).
    private let interval: UInt64?
    private var entries: [IndexedMoments.Entry] = []
    private var batches = 0
    private var latest: UInt64 = 0
    private var lastOffset: UInt64 = 0
    private var lastLength: UInt64 = 0
    /// Where the reader stood after the latest batch.
    private var point: TraceResumePoint?
    private var failed = false

    /// A snapshotter for a pass of `builder` (nil when it cannot take checkpoints or there is no key).
    init?(builder: TraceModelBuilder, interval: UInt64? = MomentSnapshotter.fixedInterval) {
        guard builder.takesCheckpoints, let key = IndexKey.current, let spool = MomentSpool() else { return nil }
        self.key = key
        self.spool = spool
        self.interval = interval
    }

    /// After each batch the pass hands `builder`: `batch` as the index records it, and the reader.
    mutating func ended(_ batch: TraceIndex.Batch, builder: TraceModelBuilder, reader: TraceReader) {
        batches += 1
        latest = max(latest, batch.lastTime)
        point = reader.resumePoint()
        let since = batch.endOffset - lastOffset
        guard since >= interval ?? max(Self.minimumInterval, lastLength * Self.budgetRatio) else { return }
        // The next is measured from the last one kept: one left out waits until its size fits.
        if take(builder: builder, within: interval == nil ? since / Self.budgetRatio : nil) {
            lastOffset = batch.endOffset
        }
    }

    /// After the pass read its last batch: the snapshot a moment at or after the trace's end starts from.
    mutating func finished(builder: TraceModelBuilder) {
        guard entries.last?.batch != batches else { return }
        _ = take(builder: builder, within: nil)
    }

    /// Takes a snapshot unless it would take more than `budget` bytes; true if it was kept.
    private mutating func take(builder: TraceModelBuilder, within budget: UInt64?) -> Bool {
        guard !failed, batches > 0, let point else { return false }
        var fields = IndexFieldWriter()
        let resume = point.encoded()
        fields.put(resume.count)
        fields.append(resume)
        builder.encodeCheckpoint(to: &fields)
        let bytes = fields.bytes
        lastLength = UInt64(bytes.count)
        if let budget, lastLength > budget { return false }
        guard spool.append(bytes) else { failed = true; return false }
        entries.append(IndexedMoments.Entry(batch: batches, latestBefore: latest, actionsBegun: builder.outermostActionsBegun,
                                            offset: spool.length - lastLength, length: bytes.count,
                                            tag: key.tag(bytes)))
        return true
    }

    /// The section for the index of the pass, with its `names`, or nil if a snapshot could not be spooled.
    func moments(names: [IndexedMoments.Name]) -> IndexedMoments? {
        failed ? nil : IndexedMoments(entries: entries, names: names, spool: spool)
    }
}

extension TraceIndex {
    /// Whether the index keeps snapshots (not only the names).
    var hasSnapshots: Bool { moments?.entries.isEmpty == false }
    /// Whether the index keeps snapshots of the model: a question about a moment reads the trace
    /// only from the latest snapshot before it.
    public var keepsSnapshots: Bool { hasSnapshots }

    /// The reader's point and the builder's checkpoint of `entry`, read from the index file
    /// beside `tracePath` (or, for an index not written, its spool) and checked against the entry's tag.
    func snapshot(_ entry: IndexedMoments.Entry, forTrace tracePath: String) throws(TraceIndexError)
        -> (TraceResumePoint, IndexFieldReader) {
        guard let key = IndexKey.current else { throw .unavailable("no snapshots") }
        let bytes: [UInt8]
        if let start = moments?.tailStart {
            let path = Self.path(forTrace: tracePath)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { throw .unavailable("cannot read \(path)") }
            defer { close(descriptor) }
            bytes = try Self.read(descriptor, at: Int(start + entry.offset), count: entry.length)
        } else if let spool = moments?.spool {
            // An index not written (a follower's): its snapshots are still in the spool.
            guard let spooled = spool.read(at: entry.offset, count: entry.length) else {
                throw .unavailable("cannot read a snapshot")
            }
            bytes = spooled
        } else {
            throw .unavailable("no snapshots")
        }
        guard key.tag(bytes) == entry.tag else { throw .damaged("a snapshot that fails its tag") }
        var fields = IndexFieldReader(bytes)
        let length = try fields.count(atMost: UInt64(fields.readableBytes))
        guard let point = TraceResumePoint(encoded: try fields.bytes(length)) else { throw .damaged("a snapshot's reader state") }
        return (point, fields)
    }
}

extension TraceModel {
    /// The model without each node's latest value: what a pass that does not track values builds.
    mutating func forgetValues() {
        for position in nodes.indices {
            nodes[position].value = nil
            nodes[position].valueTimestamp = nil
        }
    }
}
