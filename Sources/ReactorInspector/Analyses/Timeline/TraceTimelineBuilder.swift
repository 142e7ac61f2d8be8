import ReactorTraceFormat

/// Builds a ``TraceTimeline`` from the importer's events (an
/// ``ImportedEventVisitor``): keeps the slices of the window at least a pixel
/// wide and sums the narrower ones per row and pixel.
struct TraceTimelineBuilder: ImportedEventVisitor {
    let from: UInt64
    let to: UInt64
    let width: Int
    /// Nanoseconds a pixel stands for (at least 1).
    let pixel: UInt64

    /// A row: one thread at one depth.
    private struct Row: Hashable {
        let thread: UInt32
        let depth: Int
    }

    /// The slices narrower than a pixel in one pixel of a row.
    private struct Sum {
        var count = 0
        var begin: UInt64 = 0
        var total: UInt64 = 0
        var longest: UInt64 = 0
        var name = ""
        var kind = ""
    }

    private var slices: [UInt32: [TraceTimeline.Slice]] = [:]
    private var sums: [Row: [Int: Sum]] = [:]
    private var threads: Set<UInt32> = []
    private var markers: [TraceTimeline.Marker] = []
    private var first = UInt64.max
    private var last: UInt64 = 0

    init(from: UInt64, to: UInt64, width: Int) {
        self.from = from
        self.to = to
        self.width = max(1, width)
        let span = to &- from
        pixel = max(1, span / UInt64(self.width) + (span % UInt64(self.width) == 0 ? 0 : 1))
    }

    mutating func visit(_ event: ImportedEvent, from importer: TraceModelBuilder) {
        first = min(first, event.time)
        last = max(last, event.time)
        threads.insert(event.thread)
        if case let .issue(kind, _, message) = event.record {
            if event.time >= from, event.time <= to, markers.count < TraceTimeline.markerLimit {
                markers.append(TraceTimeline.Marker(thread: event.thread, timeNanoseconds: event.time,
                                                    kind: kind.budgetName, message: importer.string(message)))
            }
            return
        }
        guard let slice = event.slice, slice.ends else { return }
        let (name, kind) = Self.label(slice.kind, node: event.node, action: event.action, importer)
        add(thread: event.thread, depth: slice.kind == .flush ? TraceTimeline.flushDepth : event.depth, begin: slice.begin, duration: slice.durationNanoseconds,
            name: name, kind: kind, unfinished: false)
    }

    /// A slice's name and kind label.
    private static func label(_ kind: ImportedSlice.Kind, node: Int32, action: Int32,
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

    private mutating func add(thread: UInt32, depth: Int, begin: UInt64, duration: UInt64, name: String, kind: String,
                              unfinished: Bool) {
        let end = begin.addingReportingOverflow(duration).overflow ? UInt64.max : begin + duration
        guard end >= from, begin <= to else { return }
        if duration >= pixel || unfinished {
            slices[thread, default: []].append(TraceTimeline.Slice(
                depth: depth, beginNanoseconds: begin, durationNanoseconds: duration, name: name, kind: kind, count: 1,
                totalNanoseconds: duration, unfinished: unfinished))
            return
        }
        let index = Int((max(begin, from) - from) / pixel)
        var sum = sums[Row(thread: thread, depth: depth), default: [:]][index, default: Sum()]
        sum.count += 1
        if sum.count == 1 { sum.begin = begin }
        sum.total = sum.total.saturatingAdd(duration)
        if sum.count == 1 || duration > sum.longest {
            sum.longest = duration
            sum.name = name
            sum.kind = kind
        }
        sums[Row(thread: thread, depth: depth), default: [:]][index] = sum
    }

    /// Widens the trace's first and last times and its threads to the whole trace's, when
    /// only the chunks near the window were read (``TraceIndexSession``).
    mutating func cover(begin: UInt64, end: UInt64, threads: [UInt32]) {
        first = min(first, begin)
        last = max(last, end)
        self.threads.formUnion(threads)
    }

    /// The timeline, with the slices the trace ended inside drawn to its last event.
    mutating func finish(_ importer: TraceModelBuilder) -> TraceTimeline {
        for thread in threads.sorted() {
            var depth = 0
            for open in importer.openSlices(onThread: thread) {
                let lane = open.slice.kind == .flush ? TraceTimeline.flushDepth : depth
                if open.slice.kind != .flush { depth += 1 }
                let (name, kind) = Self.label(open.slice.kind, node: open.node, action: open.action, importer)
                add(thread: thread, depth: lane, begin: open.slice.begin, duration: last &- min(open.slice.begin, last),
                    name: name, kind: kind, unfinished: true)
            }
        }
        for (row, pixels) in sums {
            for (index, sum) in pixels {
                let begin = from + UInt64(index) * pixel
                let slice = sum.count == 1
                    ? TraceTimeline.Slice(depth: row.depth, beginNanoseconds: sum.begin, durationNanoseconds: sum.total,
                                          name: sum.name, kind: sum.kind, count: 1, totalNanoseconds: sum.total,
                                          unfinished: false)
                    : TraceTimeline.Slice(depth: row.depth, beginNanoseconds: begin, durationNanoseconds: pixel,
                                          name: sum.name, kind: sum.kind, count: sum.count, totalNanoseconds: sum.total,
                                          unfinished: false)
                slices[row.thread, default: []].append(slice)
            }
        }
        let tracks = threads.sorted().map { thread in
            let rows = (slices[thread] ?? []).sorted {
                ($0.depth, $0.beginNanoseconds, $0.name) < ($1.depth, $1.beginNanoseconds, $1.name)
            }
            return TraceTimeline.Track(thread: thread, depth: (rows.map(\.depth).max() ?? -1) + 1, slices: rows)
        }
        return TraceTimeline(traceBeginNanoseconds: first == .max ? 0 : first, traceEndNanoseconds: last,
                             fromNanoseconds: from, toNanoseconds: to, tracks: tracks, markers: markers)
    }
}
