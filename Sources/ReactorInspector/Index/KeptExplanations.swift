/// The explanations `why` built, kept in the index by target so that asking
/// again reads nothing of the trace (docs/INSPECT.md, "The index").
///
/// Each is what one pass explaining its target alone built: its counts, its
/// chains grouped by shape, and its first runs one by one (as many as that pass
/// listed); the kind, instances and site come from the plain model the index
/// keeps, the issues too. Only the one asked for is decoded. The section stays
/// within a budget: the explanations asked for longest ago make room.
///
/// Why not every computation's at once: explaining all of them in one pass
/// keeps every computation's chains alive; on a 100 M-event stress trace (1,000
/// computations, hundreds of 30-step chain shapes each) that grew past 500 MB
/// and would need tens of MB of index (measured; docs/INSPECT.md).
struct KeptExplanations: Sendable, Equatable {
    /// The section's bytes (``TraceIndex`` encoding).
    let bytes: [UInt8]
    /// Per target, in the order they were kept (oldest first): where its explanation's
    /// bytes are in ``bytes``, and how many runs its pass listed one by one.
    private let kept: [(target: String, limit: Int, bytes: Range<Int>)]
    private let positions: [String: Int]

    /// Targets kept, oldest first.
    var targets: [String] { kept.map(\.target) }

    /// The largest section kept for a trace of `traceSize` bytes (a fiftieth of it, and 1 MiB).
    static func budget(forTrace traceSize: UInt64) -> Int {
        Int(min(traceSize / 50, UInt64(Int.max / 2))) + (1 << 20)
    }

    /// No explanation.
    static let none = Self(entries: [])

    private init(entries: [(target: String, limit: Int, blob: [UInt8])]) {
        var fields = IndexFieldWriter()
        fields.put(entries.count)
        for entry in entries {
            fields.put(entry.target)
            fields.put(entry.limit)
            fields.put(bytes: entry.blob)
        }
        // Read back: one layout, one reader.
        self = try! Self(decoding: fields.bytes)
    }

    /// These explanations and `report`, built by a pass explaining `report.target` and listing
    /// up to `limit` runs one by one, replacing any kept for that target; the oldest go while
    /// the section is over `budget` (a report larger than that on its own is not kept).
    func adding(_ report: WhyReport, limit: Int, budget: Int) -> Self {
        var entries = kept.filter { $0.target != report.target }
            .map { (target: $0.target, limit: $0.limit, blob: Array(bytes[$0.bytes])) }
        entries.append((report.target, limit, Self.encode(report)))
        var size = entries.reduce(0) { $0 + $1.blob.count + $1.target.utf8.count + 8 }
        while size > budget, let oldest = entries.first {
            size -= oldest.blob.count + oldest.target.utf8.count + 8
            entries.removeFirst()
        }
        return Self(entries: entries)
    }

    /// Reads a section's directory (explanations are decoded when asked for), checking
    /// every length against the bytes there are.
    init(decoding bytes: [UInt8]) throws(TraceIndexError) {
        var fields = IndexFieldReader(bytes)
        let count = try fields.elements(eachAtLeast: 3)
        var kept: [(target: String, limit: Int, bytes: Range<Int>)] = []
        var positions: [String: Int] = [:]
        kept.reserveCapacity(count)
        for _ in 0..<count {
            let target = try fields.string()
            let limit = try fields.int()
            let blob = try fields.bytes()
            let end = bytes.count - fields.readableBytes
            guard positions.updateValue(kept.count, forKey: target) == nil else {
                throw .damaged("an explanation kept twice")
            }
            kept.append((target, limit, (end - blob.count)..<end))
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its explanations") }
        self.bytes = bytes
        self.kept = kept
        self.positions = positions
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }

    /// The explanation `why target --limit limit` prints for the trace whose plain model is
    /// `model` (issues not attached yet), as a pass explaining `target` makes it; nil when
    /// the section cannot say (not kept, or more runs asked for one by one than its pass listed).
    func report(for target: String, limit: Int, model: TraceModel) throws(TraceIndexError) -> WhyReport? {
        let matching = WhyReport.computations(matching: target, in: model.nodes)
        // A target no computation matches is unknown, whatever a pass collected for it.
        guard !matching.isEmpty else { return WhyReport(target: target) }
        guard let position = positions[target] else { return nil }
        let entry = kept[position]
        let report = try Self.decode(Array(bytes[entry.bytes]), target: target)
        // Runs past the ones listed are counted, not known: a longer list needs a pass.
        guard limit <= entry.limit || report.omittedEntries == 0 else { return nil }
        var answer = report.limited(to: limit)
        answer.describe(matching)
        return answer
    }
}

extension WhyReport {
    /// The report as a pass listing only the first `limit` runs one by one would make it.
    func limited(to limit: Int) -> WhyReport {
        guard entries.count > limit else { return self }
        var limited = self
        limited.omittedEntries += entries.count - limit
        limited.entries = Array(entries.prefix(limit))
        return limited
    }
}
