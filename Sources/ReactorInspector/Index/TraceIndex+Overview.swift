import ReactorTraceFormat

/// The timeline's sums per stretch of chunks (docs/SERVE.md, "How it works"), in serve's live
/// index: what a window of the timeline many chunks wide is drawn from without reading them
/// (``TraceTimelineBuilder``).
///
/// The chunks are grouped in stretches of about a million events (``OverviewCollector``). Per
/// stretch: its bucket (a power of two of nanoseconds); per thread, depth and bucket, the runs,
/// actions and flushes that ended in the stretch narrower than the bucket, summed by the bucket
/// of their beginning (how many, their total time, the longest one's time, beginning and
/// label); the wider ones as they are; its first ``TraceTimeline/markerLimit`` issues and
/// whether it has more. Beside them the labels (a name and a kind) the sums and slices name,
/// and the runs, actions and flushes open at the end of what the index covers. Kept as its
/// bytes, made in memory by the follower, and decoded, every figure checked, when a question
/// uses it. Not in the index file: no command would read it there.
struct IndexedOverview: Sendable, Equatable {
    /// One stretch, decoded.
    struct Stretch {
        /// Its chunks (positions in the chunk table).
        var chunks: Range<Int>
        /// Its bucket is `1 << shift` nanoseconds.
        var shift: Int
        var sums: [OverviewCollector.Sum]
        var slices: [OverviewCollector.Slice]
        var issues: [OverviewCollector.Issue]
        var moreIssues: Bool
    }

    /// The section, decoded.
    struct Decoded {
        var labels: [(name: String, kind: String)]
        var stretches: [Stretch]
        /// What the trace ends inside, each thread's outermost first.
        var open: [TraceTimelineBuilder.Open]
    }

    /// The section's bytes.
    let bytes: [UInt8]

    /// The section of an index of `batchCount` chunks and `threadCount` threads, every figure checked.
    func decode(batchCount: Int, threadCount: Int) throws(TraceIndexError) -> Decoded {
        var fields = IndexFieldReader(bytes)
        var labels: [(name: String, kind: String)] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
            let name = try fields.string(), kind = try fields.string()
            labels.append((name, kind))
        }
        func label() throws(TraceIndexError) -> Int32 {
            let value = try fields.next()
            guard value < UInt64(labels.count) else { throw .damaged("an unknown label in the overview") }
            return Int32(value)
        }
        func thread() throws(TraceIndexError) -> UInt32 {
            let value = try fields.next()
            guard value < UInt64(threadCount), value <= UInt64(UInt32.max) else {
                throw .damaged("an unknown thread in the overview")
            }
            return UInt32(value)
        }
        func depth() throws(TraceIndexError) -> Int32 { Int32(try fields.count(atMost: UInt64(Int32.max))) - 1 }
        var stretches: [Stretch] = []
        var chunk = 0
        for _ in 0..<(try fields.count(atMost: UInt64(batchCount))) {
            let chunks = try fields.count(atMost: UInt64(batchCount - chunk))
            guard chunks > 0 else { throw .damaged("an empty stretch in the overview") }
            let shift = try fields.count(atMost: 63)
            let bucketLength = UInt64(1) << shift
            var sums: [OverviewCollector.Sum] = []
            var bucket: UInt64 = 0
            for _ in 0..<(try fields.elements(eachAtLeast: 8)) {
                let thread = try thread(), depth = try depth()
                bucket = Varint.undoZigzagDelta(try fields.next(), from: bucket)
                let count = try fields.count(atMost: UInt64(Int32.max)), total = try fields.next()
                let longest = try fields.next(), offset = try fields.next()
                guard count > 0, bucket <= UInt64.max >> shift, longest < bucketLength, offset < bucketLength,
                      total >= longest else { throw .damaged("a sum out of range in the overview") }
                sums.append(OverviewCollector.Sum(thread: thread, depth: depth, bucket: bucket, count: count,
                                                  total: total, longest: longest,
                                                  longestBegin: bucket << shift | offset, label: try label()))
            }
            var slices: [OverviewCollector.Slice] = []
            var begin: UInt64 = 0
            for _ in 0..<(try fields.elements(eachAtLeast: 5)) {
                let thread = try thread(), depth = try depth()
                begin = Varint.undoZigzagDelta(try fields.next(), from: begin)
                let duration = try fields.next()
                guard duration >> shift != 0 else { throw .damaged("a slice out of range in the overview") }
                slices.append(OverviewCollector.Slice(thread: thread, depth: depth, begin: begin, duration: duration,
                                                      label: try label()))
            }
            var issues: [OverviewCollector.Issue] = []
            let issueCount = try fields.count(atMost: UInt64(TraceTimeline.markerLimit))
            let moreIssues = try fields.bool()
            for _ in 0..<issueCount {
                let thread = try thread(), time = try fields.next()
                issues.append(OverviewCollector.Issue(thread: thread, time: time, kind: try fields.string(),
                                                      message: try fields.string()))
            }
            stretches.append(Stretch(chunks: chunk..<chunk + chunks, shift: shift, sums: sums, slices: slices,
                                     issues: issues, moreIssues: moreIssues))
            chunk += chunks
        }
        guard chunk == batchCount else { throw .damaged("an overview of another chunk table") }
        var open: [TraceTimelineBuilder.Open] = []
        for _ in 0..<(try fields.elements(eachAtLeast: 4)) {
            let thread = try thread(), isFlush = try fields.bool(), begin = try fields.next()
            let named = labels[Int(try label())]
            open.append(TraceTimelineBuilder.Open(thread: thread, isFlush: isFlush, begin: begin, name: named.name,
                                                  kind: named.kind))
        }
        guard fields.readableBytes == 0 else { throw .damaged("bytes after its overview") }
        return Decoded(labels: labels, stretches: stretches, open: open)
    }
}
