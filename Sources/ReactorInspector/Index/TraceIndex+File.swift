#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorTraceFormat

/// Reading and writing index files, and checking one against its trace.
extension TraceIndex {
    /// The identity of the trace at `path` as it is now: its size and the
    /// checksums of its first and last ``identityBytes`` bytes.
    static func identity(ofTrace path: String) throws(TraceIndexError) -> Identity {
        // Non-blocking: a FIFO given as the trace must not hang here; only a regular file is indexed.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unavailable(Self.reason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unavailable(Self.reason(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unavailable("\(path) is not a regular file") }
        let size = Int(status.st_size)
        let span = min(size, identityBytes)
        let head = try Self.read(descriptor, at: 0, count: span)
        let tail = try Self.read(descriptor, at: size - span, count: span)
        return Identity(size: UInt64(size), headCRC: CRC32.checksum(head), tailCRC: CRC32.checksum(tail))
    }

    /// The index beside the trace at `tracePath`, checked against the trace as
    /// it is now; nil when there is none, or an error saying why the one there
    /// cannot be used.
    public static func load(forTrace tracePath: String) throws(TraceIndexError) -> TraceIndex? {
        let path = Self.path(forTrace: tracePath)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unavailable("cannot read \(path): \(Self.reason(errno))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unavailable(Self.reason(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .damaged("not a regular file") }
        let identity = try Self.identity(ofTrace: tracePath)
        guard UInt64(status.st_size) <= Self.sizeLimit(forTrace: identity.size) else {
            throw .damaged("larger than its trace")
        }
        // The body, not the snapshots after it: a question reads the one snapshot it starts from.
        let size = Int(status.st_size)
        guard size >= prefixLength else { throw .damaged("cut inside its header") }
        let prefix = try Self.read(descriptor, at: 0, count: prefixLength)
        let bodyLength = (12..<16).reduce(0) { $0 | Int(prefix[$1]) << (8 * ($1 - 12)) }
        guard prefix.starts(with: magic) else { throw .notAnIndex }
        guard bodyLength <= size - prefixLength else { throw .damaged("its length is wrong") }
        let index = try decode(try Self.read(descriptor, at: 0, count: prefixLength + bodyLength),
                               tailLength: UInt64(size - prefixLength - bodyLength))
        guard index.identity == identity else { throw .stale }
        return index
    }

    /// Writes the index beside the trace at `tracePath`, atomically: to a
    /// temporary file renamed over the index, so that a reader sees the old
    /// index or the new one, never part of one.
    mutating func write(forTrace tracePath: String) throws(TraceIndexError) {
        let limit = Self.sizeLimit(forTrace: identity.size)
        // The index encoded once, and again only after a part was left out.
        var encoding: [UInt8]?
        func size() -> UInt64 {
            if encoding == nil { encoding = encoded() }
            return UInt64(encoding?.count ?? 0)
        }
        // Whether the index with its snapshots is larger than a reader accepts.
        func overLimit() -> Bool { size() + (moments?.tailLength ?? 0) > limit }
        // Leaves `part` out of the file; the encoding is made again when next needed.
        func leaveOut<Part>(_ part: WritableKeyPath<TraceIndex, Part?>) {
            self[keyPath: part] = nil
            encoding = nil
        }
        if let section = positions, UInt64(section.bytes.count) > IndexedPositions.budget(forTrace: identity.size)
            || overLimit() {
            // Positions over their budget or larger than a reader accepts: questions about one node answer by passes.
            leaveOut(\.positions)
        }
        if let section = lightPoints, UInt64(section.bytes.count) > IndexedLightPoints.budget(forTrace: identity.size)
            || overLimit() {
            // Light points over their budget or larger than a reader accepts: `history` reads from snapshots.
            leaveOut(\.lightPoints)
        }
        if let section = mentions, UInt64(section.bytes.count) > IndexedMentions.budget(forTrace: identity.size)
            || overLimit() {
            // Mentions over their budget or larger than a reader accepts: `replay` of a name reads every stretch.
            leaveOut(\.mentions)
        }
        if let section = valueRows, UInt64(section.bytes.count) > IndexedValueRows.budget(forTrace: identity.size)
            || overLimit() {
            // Value rows over their budget or larger than a reader accepts: `history` reads the trace.
            leaveOut(\.valueRows)
        }
        if let moments, size() + moments.tailLength > limit
            || moments.tailLength > 0 && moments.spool == nil && moments.tailStart == nil {
            // Snapshots larger than a reader accepts, or whose bytes are gone: none.
            leaveOut(\.moments)
        }
        if allExplanations != nil, overLimit() {
            // Every explanation, larger than a reader accepts: `why` answers by passes.
            leaveOut(\.allExplanations)
        }
        if explanations != nil, overLimit() {
            // Explanations larger than a reader accepts: `why` answers by passes.
            leaveOut(\.explanations)
        }
        if size() > limit {
            // A model larger than a reader accepts (a trace of many nodes and few events): the table alone.
            model = nil
            profile = nil
            explanations = nil
            allExplanations = nil
            positions = nil
            lightPoints = nil
            mentions = nil
            valueRows = nil
            encoding = nil
        }
        let bytes = encoding ?? encoded()
        do {
            let output = try OutputFile(path: Self.path(forTrace: tracePath), inputs: [tracePath])
            try output.write(bytes)
            if let spool = moments?.spool {
                try spool.copy { piece throws(OutputFileError) in try output.write(piece) }
            } else if let moments, let start = moments.tailStart {
                // An index read back and written again with more (a profile): its snapshots from the file it replaces.
                try Self.copyTail(of: Self.path(forTrace: tracePath), from: start, length: moments.tailLength) {
                    piece throws(OutputFileError) in try output.write(piece)
                }
            }
            try output.commit()
        } catch {
            moments = nil
            throw .unavailable(error.description)
        }
        // From now on the snapshots are read from the file.
        moments?.tailStart = UInt64(bytes.count)
        moments?.spool = nil
    }

    /// Hands `write` the `length` bytes of the file at `path` from `start`, in pieces.
    private static func copyTail(of path: String, from start: UInt64, length: UInt64,
                                 _ write: ([UInt8]) throws(OutputFileError) -> Void) throws(OutputFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: "its snapshots cannot be read") }
        defer { close(descriptor) }
        var done: UInt64 = 0
        while done < length {
            let count = Int(min(length - done, 1 << 20))
            guard let piece = try? Self.read(descriptor, at: Int(start + done), count: count) else {
                throw .cannotWrite(path: path, reason: "its snapshots cannot be read")
            }
            try write(piece)
            done += UInt64(count)
        }
    }

    /// The index file's size: the body and the snapshots after it.
    public var fileSize: Int { encoded().count + Int(moments?.tailLength ?? 0) }

    /// The largest index read for a trace of `size` bytes: a few bytes per chunk (of at
    /// least 28 bytes) and a model that grows with nodes, each of which some event names;
    /// a larger file is refused unread.
    static func sizeLimit(forTrace size: UInt64) -> UInt64 {
        (size > UInt64.max / 4 ? UInt64.max : size * 4).saturatingAdd(1 << 20)
    }

    static func read(_ descriptor: Int32, at offset: Int, count: Int) throws(TraceIndexError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw .unavailable(got < 0 ? Self.reason(errno) : "the file shrank while read") }
            done += got
        }
        return bytes
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
