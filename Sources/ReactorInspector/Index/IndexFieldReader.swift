import ReactorTraceFormat

/// Reads an index body's varint fields, throwing ``TraceIndexError/damaged(_:)``
/// for a field that is cut short or out of range: no count read here can make
/// a decoder allocate more than the bytes left could describe.
struct IndexFieldReader {
    private var reader: ByteReader

    init(_ bytes: [UInt8]) { reader = ByteReader(bytes) }

    /// Bytes not read yet.
    var readableBytes: Int { reader.readableBytes }

    mutating func next() throws(TraceIndexError) -> UInt64 {
        guard let value = reader.readVarint() else { throw .damaged("cut short") }
        return value
    }

    /// A figure no larger than `limit`.
    mutating func count(atMost limit: UInt64) throws(TraceIndexError) -> Int {
        let value = try next()
        guard value <= limit, value <= UInt64(Int.max) else { throw .damaged("a figure out of range") }
        return Int(value)
    }

    /// A figure that fits an `Int`.
    mutating func int() throws(TraceIndexError) -> Int { try count(atMost: UInt64(Int.max)) }

    /// How many elements follow, each taking at least `bytesEach` bytes.
    mutating func elements(eachAtLeast bytesEach: Int) throws(TraceIndexError) -> Int {
        try count(atMost: UInt64(readableBytes / max(1, bytesEach)))
    }

    /// `count` raw bytes.
    mutating func bytes(_ count: Int) throws(TraceIndexError) -> [UInt8] {
        guard let slice = reader.readBytes(count) else { throw .damaged("cut short") }
        return Array(slice)
    }

    mutating func bool() throws(TraceIndexError) -> Bool { try count(atMost: 1) == 1 }

    /// A run of raw bytes written by ``IndexFieldWriter/put(bytes:)``.
    mutating func bytes() throws(TraceIndexError) -> [UInt8] {
        let length = try count(atMost: UInt64(readableBytes))
        guard let bytes = reader.readBytes(length) else { throw .damaged("cut short") }
        return Array(bytes)
    }

    mutating func string() throws(TraceIndexError) -> String {
        let length = try count(atMost: UInt64(readableBytes))
        guard let text = reader.readString(length) else { throw .damaged("cut short") }
        return text
    }

    /// Strings written by ``IndexFieldWriter/put(strings:)``.
    mutating func strings() throws(TraceIndexError) -> [String] {
        var strings: [String] = []
        for _ in 0..<(try elements(eachAtLeast: 1)) { strings.append(try string()) }
        return strings
    }

    /// A value written by ``IndexFieldWriter/put(optional:)``.
    mutating func optional() throws(TraceIndexError) -> UInt64? {
        try bool() ? try next() : nil
    }

    mutating func optionalString() throws(TraceIndexError) -> String? {
        try bool() ? try string() : nil
    }

    /// A raw value of `Kind`.
    mutating func kind<Kind: RawRepresentable>(_ type: Kind.Type) throws(TraceIndexError) -> Kind
    where Kind.RawValue == UInt8 {
        guard let kind = Kind(rawValue: UInt8(truncatingIfNeeded: try count(atMost: 255))) else {
            throw .damaged("an unknown kind")
        }
        return kind
    }
}
