import ReactorTraceFormat

/// A list of chunks (positions in an index's chunk table) as index sections store it: runs
/// (a gap and a length: a node in every chunk costs a few bytes) or a bitmap from its first
/// chunk (a node in every few chunks, as one thread's events among four threads' chunks: a
/// bit a chunk), whichever is smaller. Built chunk by chunk in increasing order (``add(_:)``).
struct IndexChunkList {
    private var bytes: [UInt8] = []
    /// Up to ``stagedCapacity`` bytes of runs not yet in `bytes`, in order (the first `stagedCount`).
    private var staged: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var stagedCount = 0
    private static let stagedCapacity = 64
    private var count = 0
    private var start = -1
    private var end = 0
    private var closedEnd = 0
    private var first = -1

    /// Adds `chunk`, at or after the last chunk added (a chunk added twice in a row is one).
    mutating func add(_ chunk: Int) {
        if first < 0 { first = chunk }
        if start >= 0, chunk < end { return }
        if chunk == end, start >= 0 {
            end += 1
            return
        }
        close()
        start = chunk
        end = chunk + 1
    }

    private mutating func close() {
        guard start >= 0 else { return }
        append(UInt64(start - closedEnd), UInt64(end - start - 1))
        count += 1
        closedEnd = end
        start = -1
    }

    /// Appends two varints (as ``Varint/append(_:to:)`` writes them). A run closes for most
    /// chunks of a node that several threads touch: its bytes are staged in eight words and go
    /// to the array 64 at a time, not with an append (a uniqueness and capacity check, and
    /// the array's storage read, often out of the cache) a byte.
    @inline(__always)
    private mutating func append(_ gap: UInt64, _ length: UInt64) {
        guard gap < 0x80, length < 0x80 else {
            flush()
            Varint.append(gap, to: &bytes)
            Varint.append(length, to: &bytes)
            return
        }
        if stagedCount == Self.stagedCapacity { flush() }
        let at = stagedCount
        withUnsafeMutableBytes(of: &staged) { staged in
            staged[at] = UInt8(truncatingIfNeeded: gap)
            staged[at + 1] = UInt8(truncatingIfNeeded: length)
        }
        stagedCount += 2
    }

    /// Moves the staged bytes to the array.
    private mutating func flush() {
        guard stagedCount > 0 else { return }
        let words = staged, count = stagedCount
        withUnsafeBytes(of: words) { words in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: words.bindMemory(to: UInt8.self)[0..<count]))
        }
        stagedCount = 0
    }

    /// Writes the list: runs, or a bitmap when that is smaller.
    mutating func encode(to fields: inout IndexFieldWriter) {
        close()
        flush()
        let bitmapBytes = first < 0 ? 0 : (closedEnd - first + 7) / 8
        guard count > 0, bitmapBytes + 4 < bytes.count else {
            fields.put(false)
            fields.put(count)
            fields.append(bytes)
            return
        }
        var bitmap = [UInt8](repeating: 0, count: bitmapBytes)
        var reader = ByteReader(bytes)
        var end = 0
        while let gap = reader.readVarint(), let length = reader.readVarint() {
            let start = end + Int(gap)
            end = start + Int(length) + 1
            for chunk in start..<end { bitmap[(chunk - first) / 8] |= UInt8(1 << ((chunk - first) % 8)) }
        }
        fields.put(true)
        fields.put(first)
        fields.put(bytes: bitmap)
    }

    /// Reads a list ``encode(to:)`` wrote, every chunk checked to be below `batchCount`; the
    /// ranges of chunks (in order, none adjacent), or none when not `keep` (checked all the same).
    static func decode(from fields: inout IndexFieldReader, batchCount: Int,
                       keep: Bool = true) throws(TraceIndexError) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        if try fields.bool() {
            // A bitmap: its first chunk, then a bit a chunk from there.
            let first = try fields.count(atMost: UInt64(batchCount))
            let bitmap = try fields.bytes()
            guard bitmap.count <= (batchCount - first + 7) / 8 else { throw .damaged("a position outside the trace") }
            for (offset, byte) in bitmap.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let chunk = first + offset * 8 + bit
                    guard chunk < batchCount else { throw .damaged("a position outside the trace") }
                    guard keep else { continue }
                    if let last = ranges.last, last.upperBound == chunk {
                        ranges[ranges.count - 1] = last.lowerBound..<(chunk + 1)
                    } else {
                        ranges.append(chunk..<(chunk + 1))
                    }
                }
            }
            return ranges
        }
        var end = 0
        for _ in 0..<(try fields.elements(eachAtLeast: 2)) {
            let start = end + (try fields.count(atMost: UInt64(batchCount - end)))
            let length = 1 + (try fields.count(atMost: UInt64(max(0, batchCount - start - 1))))
            guard start + length <= batchCount else { throw .damaged("a position outside the trace") }
            if keep { ranges.append(start..<(start + length)) }
            end = start + length
        }
        return ranges
    }
}
