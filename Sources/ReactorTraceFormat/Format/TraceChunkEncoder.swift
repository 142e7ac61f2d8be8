/// Encodes the events that restate definitions (docs/TRACE_FORMAT.md, "Bounded recordings")
/// into one fresh-context chunk payload: node creations, names, sites, values and clock events.
/// The hot path has its own encoder (`ThreadRecorder`); this one serves the writer thread.
package struct TraceChunkEncoder {
    /// The payload so far.
    package private(set) var bytes: [UInt8] = []
    /// Events encoded so far.
    package private(set) var count: UInt32 = 0
    private var time: UInt64 = 0
    private var node: UInt64 = 0
    private var valueNode: UInt64 = 0
    private var strings: [String: UInt64] = [:]
    private var values: [String: UInt64] = [:]
    private var sites: [String: UInt64] = [:]

    package init() {}

    /// A clock event at `nanoseconds` (never earlier than the thread's events before it):
    /// the time of the untimed events after it; the register `T` stays as it is.
    package mutating func clock(_ nanoseconds: UInt64) {
        var body: [UInt8] = []
        Varint.append(nanoseconds, to: &body)
        bytes.append(TraceFormat.clockTag)
        Varint.append(UInt64(body.count), to: &bytes)
        bytes.append(contentsOf: body)
        count += 1
    }

    /// A `nodeCreated` event at `nanoseconds`.
    package mutating func created(id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64, at nanoseconds: UInt64) {
        bytes.append(TraceEventKind.nodeCreated.rawValue)
        bytes.append(kind.rawValue)
        appendID(id)
        appendString(name)
        appendOptionalID(parent)
        let delta = advanceTime(to: nanoseconds)
        Varint.append(delta, to: &bytes)
        count += 1
    }

    /// A `nodeNamed` event (untimed).
    package mutating func named(id: UInt64, name: String, owner: UInt64) {
        bytes.append(TraceEventKind.nodeNamed.rawValue)
        appendID(id)
        appendString(name)
        appendOptionalID(owner)
        count += 1
    }

    /// A value event (untimed): `node` holds the value `text`.
    package mutating func value(node id: UInt64, _ text: String) {
        var body: [UInt8] = []
        Varint.append(Varint.zigzagDelta(id, from: valueNode), to: &body)
        valueNode = id
        Self.appendEntry(text, table: &values, to: &body)
        appendExtension(TraceFormat.valueTag, body)
    }

    /// A site event (untimed): `node`'s creation site.
    package mutating func site(node id: UInt64, _ text: String) {
        var body: [UInt8] = []
        Varint.append(id, to: &body)
        Varint.append(0, to: &body)
        Self.appendEntry(text, table: &sites, to: &body)
        appendExtension(TraceFormat.siteTag, body)
    }

    private mutating func appendExtension(_ tag: UInt8, _ body: [UInt8]) {
        bytes.append(tag)
        Varint.append(UInt64(body.count), to: &bytes)
        bytes.append(contentsOf: body)
        count += 1
    }

    /// A `time` field's delta to `nanoseconds` (never back in time), with `T` moved there.
    private mutating func advanceTime(to nanoseconds: UInt64) -> UInt64 {
        let target = Swift.max(nanoseconds, time)
        defer { time = target }
        return target - time
    }

    private mutating func appendID(_ id: UInt64) {
        Varint.append(Varint.zigzagDelta(id, from: node), to: &bytes)
        node = id
    }

    private mutating func appendOptionalID(_ id: UInt64) {
        guard id != 0 else { Varint.append(0, to: &bytes); return }
        Varint.append(Varint.zigzagDelta(id, from: node) &+ 1, to: &bytes)
        node = id
    }

    private mutating func appendString(_ text: String) {
        Self.appendEntry(text, table: &strings, to: &bytes)
    }

    /// A table reference, or 0 and a new entry (cut to the longest string the format writes).
    private static func appendEntry(_ text: String, table: inout [String: UInt64], to output: inout [UInt8]) {
        if let entry = table[text] {
            Varint.append(entry, to: &output)
            return
        }
        let utf8 = Array(TraceMetadata.cut(text).utf8)
        Varint.append(0, to: &output)
        Varint.append(UInt64(utf8.count), to: &output)
        output.append(contentsOf: utf8)
        table[text] = UInt64(table.count + 1)
    }
}
