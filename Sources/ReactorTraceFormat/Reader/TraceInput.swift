#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reader's bytes come from: an open file, read forward in pieces, or bytes in memory.
/// Internal storage: used by one reader at a time.
final class TraceInput: @unchecked Sendable {
    private enum Source {
        case file(descriptor: Int32, path: String)
        case bytes([UInt8])
    }

    private var source: Source
    private var buffer: [UInt8] = []
    /// Where `read(2)` lands before what it got is appended to `buffer`: growing
    /// `buffer` by a zero-filled block first would cost a block's writes at every
    /// poll of a growing file's end.
    private var landing = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var bufferStart = 0
    private var atEnd = false
    /// Bytes read from the file so far.
    private var filled = 0
    /// How far the file is read: its size when it was opened, for a reader of
    /// the file as it was then (a recorder may keep writing); unbounded when following.
    private var limit = Int.max
    /// The offset of the next byte `read` returns.
    private(set) var offset = 0
    /// Whether the end of the file is only the end of what has been written so
    /// far: `ensure` reads again past it (a trace that is still being recorded).
    var following = false

    /// Opens `path`; `bounded` reads it only up to its size now, or up to `limit` bytes when that is less.
    init(path: String, bounded: Bool = false, limit byteLimit: Int? = nil) throws(TraceDecodingError) {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is rejected below).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .unreadable(path: path, reason: reason)
        }
        // Only regular files: a directory, FIFO, socket or device could block or never end.
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            close(descriptor)
            throw .unreadable(path: path, reason: "it is a directory")
        default:
            close(descriptor)
            throw .unreadable(path: path, reason: "not a regular file")
        }
        source = .file(descriptor: descriptor, path: path)
        if bounded { limit = min(Int(status.st_size), max(0, byteLimit ?? .max)) }
    }

    /// True if reading stopped at the size the file had when it was opened
    /// and the file is longer now: what lies past that point was written
    /// since (a block cut there is still being written, not damaged).
    var grewPastLimit: Bool {
        guard limit != Int.max, filled >= limit, case let .file(descriptor, _) = source else { return false }
        var status = stat()
        return fstat(descriptor, &status) == 0 && Int(status.st_size) > limit
    }

    init(bytes: [UInt8]) {
        source = .bytes(bytes)
        buffer = bytes
        atEnd = true
    }

    deinit {
        if case let .file(descriptor, _) = source { close(descriptor) }
        landing.deallocate()
    }

    /// Up to `count` bytes from the current offset: fewer only at the end of the input.
    func read(_ count: Int) throws(TraceDecodingError) -> [UInt8] {
        try withBytes(count) { Array($0) }
    }

    /// Calls `body` with up to `count` bytes from the current offset, in place in
    /// the input buffer (fewer only at the end of the input), and moves past them.
    /// The bytes are valid only inside `body`.
    func withBytes<Result>(_ count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) throws(TraceDecodingError)
        -> Result {
        while buffer.count - bufferStart < count, !atEnd { try fill(count - (buffer.count - bufferStart)) }
        let available = min(count, buffer.count - bufferStart)
        let start = bufferStart
        let result = buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<start + available])) }
        bufferStart += available
        offset += available
        if bufferStart >= 1 << 20 || bufferStart == buffer.count {
            buffer.removeFirst(bufferStart)
            bufferStart = 0
        }
        return result
    }

    /// Moves forward to `target` (at or after the current offset) without
    /// reading what lies between, in a file; false when the input ends before it.
    func skip(to target: Int) throws(TraceDecodingError) -> Bool {
        guard target >= offset else { return false }
        if case let .file(descriptor, path) = source {
            guard target <= limit || limit == Int.max else { return false }
            guard lseek(descriptor, off_t(target), SEEK_SET) >= 0 else {
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            buffer.removeAll(keepingCapacity: true)
            bufferStart = 0
            filled = target
            offset = target
            atEnd = filled >= limit
            return true
        }
        let distance = target - offset
        return try withBytes(distance) { $0.count } == distance
    }

    /// Reads ahead until `count` bytes from the current offset are buffered or
    /// the file ends, without moving past them; returns how many are buffered.
    /// When following, an earlier end of file is tried again (the file may have grown).
    func ensure(_ count: Int) throws(TraceDecodingError) -> Int {
        if following, case .file = source { atEnd = false }
        while buffer.count - bufferStart < count, !atEnd { try fill(count - (buffer.count - bufferStart)) }
        return buffer.count - bufferStart
    }

    /// The little-endian `UInt32` at `distance` bytes past the current offset
    /// (which `ensure` must have buffered).
    func peekUInt32(at distance: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(buffer[bufferStart + distance + index]) << (8 * index) }
        return value
    }

    private func fill(_ wanted: Int) throws(TraceDecodingError) {
        guard case let .file(descriptor, path) = source, filled < limit else { atEnd = true; return }
        let size = min(max(wanted, 256 << 10), limit - filled)
        if landing.count < size {
            landing.deallocate()
            landing = .allocate(capacity: size)
        }
        var got: Int
        repeat {
            got = systemRead(descriptor, landing.baseAddress!, size)
        } while got < 0 && errno == EINTR
        if got < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: landing[..<got]))
        filled += got
        if got == 0 || filled >= limit { atEnd = true }
    }
}

/// `read(2)`, out of the reach of `TraceInput.read(_:)`'s name.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
