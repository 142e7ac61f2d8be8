import ReactorTraceFormat

/// The trace's time, one track per recording thread, for a window drawn
/// `width` pixels wide: what the page's timeline draws.
///
/// Runs, actions and flushes are slices at their nesting depth, as the one
/// importer pairs them (the slices `export --format chrome` writes). Its size
/// is bounded by the picture, not by the trace: a slice at least a pixel wide
/// is kept as it is when it overlaps the window (slices of one thread and depth
/// do not overlap, so a row holds at most `width` of them), and the narrower
/// ones of a row are summed per pixel into one slice that says how many runs it
/// stands for, the longest one's name and their total time.
///
/// A pixel is the window's span over `width`, rounded up to three significant
/// bits (at most a quarter more), and pixels are counted from time 0: pixel `i`
/// is `[i × pixel, (i + 1) × pixel)`. A slice narrower than a pixel belongs to the
/// pixel it begins in, and is drawn when that pixel holds a time of the window.
/// So the sums an index keeps per power-of-two bucket of time add up to a
/// pixel's exactly (``TraceIndex``'s overview), and the picture is the same with
/// and without it. A sum of one slice is that slice; of more, it spans its
/// pixel, named after its longest slice (the earliest of equally long ones, then
/// by name and kind).
public struct TraceTimeline: Sendable, Equatable, Encodable {
    /// One slice, or several narrower than a pixel summed into one.
    public struct Slice: Sendable, Equatable, Encodable {
        /// The nesting depth of a run or action on its thread (0: outermost);
        /// ``TraceTimeline/flushDepth`` for a flush, which the page draws as a band of its own.
        public let depth: Int
        /// When it began, in trace nanoseconds.
        public let beginNanoseconds: UInt64
        /// Its wall time (for a sum: the pixel's span).
        public let durationNanoseconds: UInt64
        /// The node's or action's name (`flush` for a flush); for a sum, its longest slice's.
        public let name: String
        /// `autorun`, `computed`, … for a run; `action` or `flush` otherwise.
        public let kind: String
        /// How many slices it stands for (1: a slice as it is).
        public let count: Int
        /// The wall time of the slices it stands for (a slice's own for 1).
        public let totalNanoseconds: UInt64
        /// The trace ended inside it (a crash or a recording still going on).
        public let unfinished: Bool
    }

    /// One recording thread.
    public struct Track: Sendable, Equatable, Encodable {
        /// The thread's index in the trace.
        public let thread: UInt32
        /// How deep its runs and actions nest in the window (0 with none).
        public let depth: Int
        /// Its slices in the window.
        public let slices: [Slice]
    }

    /// An issue the runtime reported.
    public struct Marker: Sendable, Equatable, Encodable {
        public let thread: UInt32
        public let timeNanoseconds: UInt64
        /// The kind as budgets name it (`runaway`, `uncaughtError`…).
        public let kind: String
        public let message: String
    }

    /// The trace's first and last event times.
    public let traceBeginNanoseconds: UInt64
    public let traceEndNanoseconds: UInt64
    /// The window drawn.
    public let fromNanoseconds: UInt64
    public let toNanoseconds: UInt64
    /// One track per thread that recorded an event, by thread index.
    public let tracks: [Track]
    /// The issues in the window (at most ``markerLimit``).
    public let markers: [Marker]

    /// The depth of flushes: runs nest inside them, so they have a lane above the runs.
    public static let flushDepth = -1

    /// The most markers an answer holds: a runaway loop reports thousands.
    public static let markerLimit = 1000
}

extension TraceTimeline {
    /// The timeline of the trace at `path` between `from` and `to` (trace
    /// nanoseconds; nil: its first or last event) for a picture `width` pixels
    /// wide: one pass over the trace as it stands.
    public static func read(path: String, from: UInt64? = nil, to: UInt64? = nil,
                            width: Int) throws(TraceFileError) -> TraceTimeline {
        // The window's ends are needed to size a pixel before the pass when not given.
        var first = from, last = to
        if first == nil || last == nil {
            var begin = UInt64.max, end: UInt64 = 0
            _ = try TraceFile.forEachBatch(path: path) { batch in
                for index in 0..<batch.count {
                    let time = batch.events[index].timestamp
                    begin = min(begin, time)
                    end = max(end, time)
                }
            }
            if begin > end { begin = 0 }
            first = first ?? begin
            last = last ?? end
        }
        var builder = TraceTimelineBuilder(from: first ?? 0, to: max(last ?? 0, first ?? 0), width: width)
        let importer = TraceModelBuilder()
        _ = try TraceFile.forEachBatch(path: path) { batch in importer.consume(batch, visiting: &builder) }
        return builder.finish(importer)
    }
}

extension TraceTimeline {
    /// The timeline of `events` (a whole trace, in order) between `from` and
    /// `to` (nil: the first or last event's time) for a picture `width` pixels wide.
    public static func build(_ events: [TraceEvent], from: UInt64? = nil, to: UInt64? = nil, width: Int) -> TraceTimeline {
        let first = from ?? events.map(\.timestamp).min() ?? 0
        let last = to ?? events.map(\.timestamp).max() ?? 0
        var builder = TraceTimelineBuilder(from: first, to: max(last, first), width: width)
        let importer = TraceModelBuilder()
        for event in events { importer.consume(event, visiting: &builder) }
        return builder.finish(importer)
    }
}
