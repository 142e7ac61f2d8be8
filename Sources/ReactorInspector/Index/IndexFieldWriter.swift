import ReactorTraceFormat

/// Writes the fields ``IndexFieldReader`` reads.
struct IndexFieldWriter {
    private(set) var bytes: [UInt8] = []

    mutating func put(_ value: UInt64) { Varint.append(value, to: &bytes) }
    /// A count or figure; never negative in a model (clamped to 0 if it were).
    mutating func put(_ value: Int) { put(UInt64(max(0, value))) }
    mutating func put(_ value: Bool) { put(value ? 1 as UInt64 : 0) }
    mutating func put(_ text: String) {
        let utf8 = Array(text.utf8)
        put(utf8.count)
        bytes.append(contentsOf: utf8)
    }
    mutating func put(optional value: UInt64?) {
        put(value != nil)
        if let value { put(value) }
    }
    mutating func put(optional text: String?) {
        put(text != nil)
        if let text { put(text) }
    }
    /// A count, then each string.
    mutating func put(strings: [String]) {
        put(strings.count)
        for text in strings { put(text) }
    }
    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
}
