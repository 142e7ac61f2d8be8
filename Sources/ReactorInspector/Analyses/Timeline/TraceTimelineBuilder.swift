import ReactorTraceFormat

/// Builds a ``TraceTimeline`` from the importer's events (an
/// ``ImportedEventVisitor``), or from an index's sums of them
/// (``TraceIndexSession``): keeps the slices of the window at least a pixel
/// wide and sums the narrower ones per row and pixel.
///
/// A pixel is ``pixel`` nanoseconds, counted from time 0 (not from the
/// window's start), and ``pixel`` is the window's span over its width rounded up
/// to ``pixelSignificantBits`` significant bits: so a pixel is a whole number of
/// any power-of-two bucket of at most its lowest set bit, and an index's sums per
/// such bucket add up to exactly the sums a pass makes per pixel.
struct TraceTimelineBuilder: ImportedEventVisitor {
    let from: UInt64
    let to: UInt64
    let width: Int
    /// Nanoseconds a pixel stands for (at least 1).
    let pixel: UInt64
    /// The pixels of the window: a slice narrower than a pixel is drawn when it begins in one of them.
    let firstPixel: UInt64
    let lastPixel: UInt64

    /// How many significant bits a pixel's length has: at most 1/4 more than the span over the width.
    static let pixelSignificantBits = 3

    /// A row: one thread at one depth.
    private struct Row: Hashable {
        let thread: UInt32
        let depth: Int
    }

    /// The slices narrower than a pixel in one pixel of a row: how many, their time, and
    /// the longest (the earliest of equally long ones, then by name and kind).
    struct Sum {
        var count = 0
        var total: UInt64 = 0
        var longest: UInt64 = 0
        var longestBegin: UInt64 = 0
        var name = ""
        var kind = ""

        /// Whether a slice of `duration` from `begin` named `name`, `kind` is longer than the longest so far.
        func isOutdone(by duration: UInt64, begin: UInt64, name: String, kind: String) -> Bool {
            if count == 0 { return true }
            if duration != longest { return duration > longest }
            if begin != longestBegin { return begin < longestBegin }
            if name != self.name { return name < self.name }
            return kind < self.kind
        }
    }

    /// A run, action or flush the trace ended inside (open at its last event).
    struct Open: Equatable {
        var thread: UInt32
        var isFlush: Bool
        var begin: UInt64
        var name: String
        var kind: String
    }

    private var slices: [UInt32: [TraceTimeline.Slice]] = [:]
    private var sums: [Row: [UInt64: Sum]] = [:]
    private var threads: Set<UInt32> = []
    private var markers: [TraceTimeline.Marker] = []
    private var first = UInt64.max
    private var last: UInt64 = 0

    init(from: UInt64, to: UInt64, width: Int) {
        self.from = from
        self.to = to
        self.width = max(1, width)
        pixel = Self.pixel(span: to &- from, width: self.width)
        firstPixel = from / pixel
        lastPixel = to / pixel
    }

    /// The pixel's length for a window of `span` nanoseconds drawn `width` pixels wide: the span over
    /// the width, rounded up, then rounded up again to ``pixelSignificantBits`` significant bits.
    static func pixel(span: UInt64, width: Int) -> UInt64 {
        let wide = UInt64(max(1, width))
        let exact = max(1, span / wide + (span % wide == 0 ? 0 : 1))
        let shift = max(0, exact.bitWidth - exact.leadingZeroBitCount - pixelSignificantBits)
        let unit = UInt64(1) << shift
        let units = exact >> shift + (exact & (unit - 1) == 0 ? 0 : 1)
        let (rounded, overflow) = units.multipliedReportingOverflow(by: unit)
        return overflow ? UInt64(1) << 63 : rounded
    }

    mutating func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        first = min(first, event.time)
        last = max(last, event.time)
        threads.insert(event.thread)
        if case let .issue(kind, _, message) = event.record {
            addMarker(thread: event.thread, time: event.time, kind: kind.budgetName, message: importer.string(message))
            return
        }
        guard let slice = event.slice, slice.ends else { return }
        let (name, kind) = Self.label(slice.kind, node: event.node, action: event.action, importer)
        add(thread: event.thread, depth: slice.kind == .flush ? TraceTimeline.flushDepth : event.depth, begin: slice.begin, duration: slice.durationNanoseconds,
            name: name, kind: kind, unfinished: false)
    }

    /// An issue at `time` on `thread`: a marker when in the window and fewer than ``TraceTimeline/markerLimit`` came before.
    mutating func addMarker(thread: UInt32, time: UInt64, kind: String, message: String) {
        if time >= from, time <= to, markers.count < TraceTimeline.markerLimit {
            markers.append(TraceTimeline.Marker(thread: thread, timeNanoseconds: time, kind: kind, message: message))
        }
    }

    /// Whether another issue can still be a marker.
    var takesMarkers: Bool { markers.count < TraceTimeline.markerLimit }

    /// A slice's name and kind label.
    static func label(_ kind: ImportedSlice.Kind, node: Int32, action: Int32,
                      _ importer: TraceModelBuilder) -> (String, String) {
        switch kind {
        case .run:
            guard node >= 0 else { return ("run", "computation") }
            return (importer.name(ofNode: node), (importer.createdKind(ofNode: node) ?? .computation).label)
        case .action:
            return (action >= 0 ? importer.actionName(action) : "action", "action")
        case .flush:
            return ("flush", "flush")
        }
    }

    /// A finished slice (as the importer paired it, or as an index kept it), or one the trace ended inside.
    mutating func add(thread: UInt32, depth: Int, begin: UInt64, duration: UInt64, name: String, kind: String,
                      unfinished: Bool) {
        if duration >= pixel || unfinished {
            let end = begin.addingReportingOverflow(duration).overflow ? UInt64.max : begin + duration
            guard end >= from, begin <= to else { return }
            slices[thread, default: []].append(TraceTimeline.Slice(
                depth: depth, beginNanoseconds: begin, durationNanoseconds: duration, name: name, kind: kind, count: 1,
                totalNanoseconds: duration, unfinished: unfinished))
            return
        }
        var one = Sum()
        one.count = 1
        one.total = duration
        one.longest = duration
        one.longestBegin = begin
        one.name = name
        one.kind = kind
        add(one, thread: thread, depth: depth, pixel: begin / pixel)
    }

    /// Slices narrower than a pixel, summed, in pixel `index` (time / ``pixel``) of the row `thread`, `depth`.
    mutating func add(_ sum: Sum, thread: UInt32, depth: Int, pixel index: UInt64) {
        guard index >= firstPixel, index <= lastPixel, sum.count > 0 else { return }
        let row = Row(thread: thread, depth: depth)
        sums[row, default: [:]][index, default: Sum()].merge(sum)
    }

    /// Widens the trace's first and last times and its threads to the whole trace's, when
    /// only the chunks near the window were read (``TraceIndexSession``).
    mutating func cover(begin: UInt64, end: UInt64, threads: [UInt32]) {
        first = min(first, begin)
        last = max(last, end)
        self.threads.formUnion(threads)
    }

    /// The runs, actions and flushes `importer` holds open on each of `threads`, outermost first.
    static func open(in importer: TraceModelBuilder, threads: [UInt32]) -> [Open] {
        threads.flatMap { thread in
            importer.openSlices(onThread: thread).map { open in
                let (name, kind) = label(open.slice.kind, node: open.node, action: open.action, importer)
                return Open(thread: thread, isFlush: open.slice.kind == .flush, begin: open.slice.begin, name: name,
                            kind: kind)
            }
        }
    }

    /// The timeline, with the slices the trace ended inside drawn to its last event.
    mutating func finish(_ importer: TraceModelBuilder) -> TraceTimeline {
        finish(open: Self.open(in: importer, threads: threads.sorted()))
    }

    /// The timeline, with `open` (each thread's, outermost first: what the trace ended inside) drawn to its last event.
    mutating func finish(open: [Open]) -> TraceTimeline {
        var depths: [UInt32: Int] = [:]
        for slice in open where threads.contains(slice.thread) {
            let lane = slice.isFlush ? TraceTimeline.flushDepth : depths[slice.thread, default: 0]
            if !slice.isFlush { depths[slice.thread, default: 0] += 1 }
            add(thread: slice.thread, depth: lane, begin: slice.begin, duration: last &- min(slice.begin, last),
                name: slice.name, kind: slice.kind, unfinished: true)
        }
        for (row, pixels) in sums {
            for (index, sum) in pixels {
                let slice = sum.count == 1
                    ? TraceTimeline.Slice(depth: row.depth, beginNanoseconds: sum.longestBegin, durationNanoseconds: sum.total,
                                          name: sum.name, kind: sum.kind, count: 1, totalNanoseconds: sum.total,
                                          unfinished: false)
                    : TraceTimeline.Slice(depth: row.depth, beginNanoseconds: index * pixel, durationNanoseconds: pixel,
                                          name: sum.name, kind: sum.kind, count: sum.count, totalNanoseconds: sum.total,
                                          unfinished: false)
                slices[row.thread, default: []].append(slice)
            }
        }
        let tracks = threads.sorted().map { thread in
            let rows = (slices[thread] ?? []).sorted(by: Self.drawnBefore)
            return TraceTimeline.Track(thread: thread, depth: (rows.map(\.depth).max() ?? -1) + 1, slices: rows)
        }
        return TraceTimeline(traceBeginNanoseconds: first == .max ? 0 : first, traceEndNanoseconds: last,
                             fromNanoseconds: from, toNanoseconds: to, tracks: tracks, markers: markers)
    }

    /// A track's order: by depth, then time, then every other figure (whatever order the slices came in).
    private static func drawnBefore(_ a: TraceTimeline.Slice, _ b: TraceTimeline.Slice) -> Bool {
        if a.depth != b.depth { return a.depth < b.depth }
        if a.beginNanoseconds != b.beginNanoseconds { return a.beginNanoseconds < b.beginNanoseconds }
        if a.name != b.name { return a.name < b.name }
        if a.durationNanoseconds != b.durationNanoseconds { return a.durationNanoseconds < b.durationNanoseconds }
        if a.kind != b.kind { return a.kind < b.kind }
        if a.count != b.count { return a.count < b.count }
        if a.totalNanoseconds != b.totalNanoseconds { return a.totalNanoseconds < b.totalNanoseconds }
        return !a.unfinished && b.unfinished
    }
}

extension TraceTimelineBuilder.Sum {
    /// Adds `other`'s slices: the order sums are added in changes nothing.
    mutating func merge(_ other: TraceTimelineBuilder.Sum) {
        guard other.count > 0 else { return }
        if isOutdone(by: other.longest, begin: other.longestBegin, name: other.name, kind: other.kind) {
            longest = other.longest
            longestBegin = other.longestBegin
            name = other.name
            kind = other.kind
        }
        count += other.count
        total = total.saturatingAdd(other.total)
    }
}
