import ReactorTraceFormat

/// What a pass over a trace leaves beside it so that later questions about a
/// moment read only the part of the trace up to that moment: a cache, derived
/// from the trace alone, never required (docs/INSPECT.md, "The index").
///
/// It holds, per batch of events (a chunk that holds any, in file order),
/// where the chunk ends in the file and the earliest and latest time of its
/// events; and how the whole pass went (its ``TraceReadReport`` and the
/// figures of the model that depend on every event read: events, threads,
/// the latest time, whether the trace has values). A question about a moment
/// (`state --at`, `graph --at`) reads the trace from its start only as far as
/// the last chunk that can hold an event at or before the moment, checking
/// each chunk it reads against the index, and takes the rest from the index.
///
/// The index names the trace it was built from by ``Identity``: its size and
/// checksums of its first and last bytes. It is written only for a trace read
/// to its end (not one still being recorded).
public struct TraceIndex: Sendable, Equatable {
    /// One chunk that held events (a batch, as ``TraceReader/nextBatch(_:)`` lends it).
    public struct Batch: Sendable, Equatable {
        /// The file offset right after the chunk.
        public var endOffset: UInt64
        /// The earliest time of its events.
        public var firstTime: UInt64
        /// The latest time of its events.
        public var lastTime: UInt64
    }

    /// Which trace an index was built from.
    public struct Identity: Sendable, Equatable {
        /// The trace's size in bytes.
        public var size: UInt64
        /// CRC32 of its first ``TraceIndex/identityBytes`` bytes (the header and what follows).
        public var headCRC: UInt32
        /// CRC32 of its last ``TraceIndex/identityBytes`` bytes (the end block and the last chunks' checksums).
        public var tailCRC: UInt32
    }

    /// The index format's version: an index of another version is rebuilt.
    public static let version: UInt16 = 9
    /// How many bytes at each end of the trace ``Identity`` checksums.
    public static let identityBytes = 4096

    /// The trace it was built from.
    public var identity: Identity
    /// Events read (``TraceReadReport/events``).
    public var events: Int
    /// Events of unknown kinds, skipped.
    public var skippedEvents: Int
    /// Clock events.
    public var clockEvents: Int
    /// Where and why reading stopped early (nil for an intact trace).
    public var truncation: TraceTruncation?
    /// Where bytes after the end block begin, if any.
    public var trailingBytesOffset: Int?
    /// The end block, if the trace has one.
    public var end: TraceEnd?
    /// Recording threads seen (the highest thread index plus one).
    public var threadCount: Int
    /// The latest event time in the trace.
    public var latestTimestamp: UInt64
    /// Whether the trace holds value events.
    public var hasValues: Bool
    /// The chunks that held events, in file order.
    public var batches: [Batch]
    /// True for the index of a trace still being recorded, as far as it was read
    /// (``LiveTrace/index()``: held in memory, never written).
    public internal(set) var stillRecording = false
    /// The whole trace's plain model (what `hot`, `summary` and `graph` read),
    /// when the pass that built the index built it.
    var model: IndexedModel?
    /// What a profile of the whole trace found (what `report`, `check` and `diff`
    /// read), once a question built one; only beside ``model``, which its figures share.
    var profile: IndexedProfile?
    /// The explanations `why` built (``KeptExplanations``): only beside the plain model,
    /// which names their computations.
    var explanations: KeptExplanations?
    /// Snapshots of the pass that built the index, every so many bytes and at the end
    /// (``IndexedMoments``), when that pass took them.
    var moments: IndexedMoments?
    /// Every computation's explanation (``AllExplanations``), once the first `why` built them:
    /// only beside the plain model, which names their computations.
    var allExplanations: AllExplanations?
    /// Per node, the chunks that hold its events (``IndexedPositions``): only beside the model.
    var positions: IndexedPositions?
    /// Per chunk, a light resume point (``IndexedLightPoints``): only beside the model, whose actions they name.
    var lightPoints: IndexedLightPoints?
    /// Per node, every chunk that mentions it (``IndexedMentions``): only beside the model, whose nodes they list.
    var mentions: IndexedMentions?
    /// The timeline's sums per stretch of chunks (``IndexedOverview``): only in the follower's
    /// live index (``LiveTrace/index()``), which gathers them as it reads; never in the file,
    /// where no command would read them.
    var overview: IndexedOverview?
    /// Per node with value events, its values as rows (``IndexedValueRows``): only beside the model, whose actions they name.
    var valueRows: IndexedValueRows?

    /// Whether the index keeps the whole trace's plain model (questions about the
    /// whole trace, such as `hot`, then read nothing but the index).
    public var keepsModel: Bool { model != nil }
    /// Whether the index keeps the whole trace's profile (`report`, `check` and
    /// `diff` then read nothing but the index).
    public var keepsProfile: Bool { profile != nil }
    /// The whole trace's profile the index keeps, if any.
    public var profileFigures: ProfileFigures? { profile?.figures }

    /// The computations (as `why` was asked about them) whose explanations the index
    /// keeps: asked again, `why` reads nothing but the index.
    public var explainedTargets: [String] { explanations?.targets ?? [] }

    /// Whether the index keeps every computation's explanation: `why` of any reads nothing but the index.
    public var explainsEveryComputation: Bool { allExplanations != nil }

    /// Per batch, the earliest first time of it and every batch after it: a
    /// question about time T needs no batch from the first one whose value exceeds T.
    let earliestFrom: [UInt64]

    /// Creates an index; ``earliestFrom`` is derived.
    init(identity: Identity, events: Int, skippedEvents: Int, clockEvents: Int, truncation: TraceTruncation?,
         trailingBytesOffset: Int?, end: TraceEnd?, threadCount: Int, latestTimestamp: UInt64, hasValues: Bool,
         batches: [Batch], model: IndexedModel? = nil, explanations: KeptExplanations? = nil,
         moments: IndexedMoments? = nil) {
        self.identity = identity
        self.events = events
        self.skippedEvents = skippedEvents
        self.clockEvents = clockEvents
        self.truncation = truncation
        self.trailingBytesOffset = trailingBytesOffset
        self.end = end
        self.threadCount = threadCount
        self.latestTimestamp = latestTimestamp
        self.hasValues = hasValues
        self.batches = batches
        self.model = model
        self.explanations = explanations
        self.moments = moments
        var earliest = [UInt64](repeating: .max, count: batches.count + 1)
        for position in batches.indices.reversed() {
            earliest[position] = min(batches[position].firstTime, earliest[position + 1])
        }
        earliestFrom = earliest
    }

    /// Where the index of the trace at `tracePath` lives: beside it.
    public static func path(forTrace tracePath: String) -> String { tracePath + ".rindex" }

    /// How reading the whole trace went, as the pass that built the index reported it.
    func readReport(path: String) -> TraceReadReport {
        // The metadata and history blocks precede the first chunk: read from the trace, not kept in the index.
        let reader = try? TraceReader(path: path)
        _ = try? reader?.nextBatch { _ in }
        return TraceReadReport(path: path, events: events, truncation: truncation, skippedEvents: skippedEvents,
                               clockEvents: clockEvents, trailingBytesOffset: trailingBytesOffset, end: end,
                               stillRecording: stillRecording, metadata: reader?.metadata ?? TraceMetadata(),
                               history: reader?.history)
    }

    /// Where a pass for a moment at `time` that reads from the start stops: the first position
    /// after at least one batch from which no batch holds an event at or before `time`.
    func firstUnread(atOrBefore time: UInt64) -> Int {
        var position = 1
        while !nothingAtOrBefore(time, from: position) { position += 1 }
        return position
    }

    /// True when no batch from `position` on holds an event at or before `time`.
    func nothingAtOrBefore(_ time: UInt64, from position: Int) -> Bool {
        position >= batches.count || earliestFrom[position] > time
    }
}
