/// What a recording says about itself (format 1.2, the metadata block): the commit and
/// scenario it was recorded at, the app's name and the app's own keys, in the order written.
public struct TraceMetadata: Sendable, Equatable, Codable {
    /// The key of the commit (`REACTOR_TRACE_COMMIT`, else `GITHUB_SHA`).
    public static let commitKey = "commit"
    /// The key of the scenario (`REACTOR_TRACE_SCENARIO`, else the executable's name).
    public static let scenarioKey = "scenario"
    /// The key of the app's name (`TraceRecorder.Options.appName`).
    public static let appKey = "app"

    /// The entries, in the order the recorder wrote them; a key appears once.
    public private(set) var entries: [(key: String, value: String)]

    /// Metadata holding `entries`; a later entry with the same key replaces the earlier one.
    public init(_ entries: [(key: String, value: String)] = []) {
        self.entries = []
        for entry in entries { self[entry.key] = entry.value }
    }

    /// The value of `key`, if the recording has one; setting nil removes it.
    public subscript(key: String) -> String? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// The commit the recording was made at, if known.
    public var commit: String? { self[Self.commitKey] }
    /// The scenario the recording ran, if known.
    public var scenario: String? { self[Self.scenarioKey] }
    /// The app's name, if given.
    public var app: String? { self[Self.appKey] }
    /// True when there are no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The metadata block's payload (docs/TRACE_FORMAT.md, "Metadata block"): a varint
    /// count, then each key and value as a varint byte length and UTF-8, each cut to 4,096 bytes.
    package func encodedPayload() -> [UInt8] {
        var bytes: [UInt8] = []
        Varint.append(UInt64(entries.count), to: &bytes)
        for (key, value) in entries {
            for text in [key, value] {
                let utf8 = Array(Self.cut(text).utf8)
                Varint.append(UInt64(utf8.count), to: &bytes)
                bytes.append(contentsOf: utf8)
            }
        }
        return bytes
    }

    /// The metadata a block's payload holds; nil when it is malformed.
    package init?(payload: UnsafeBufferPointer<UInt8>) {
        var reader = UnsafeByteReader(payload)
        guard let count = reader.readVarint(), count <= UInt64(payload.count) else { return nil }
        var entries: [(key: String, value: String)] = []
        for _ in 0..<Int(count) {
            guard let keyLength = reader.readVarint(), keyLength <= UInt64(reader.readableBytes),
                  let key = reader.readString(Int(keyLength)),
                  let valueLength = reader.readVarint(), valueLength <= UInt64(reader.readableBytes),
                  let value = reader.readString(Int(valueLength)) else { return nil }
            entries.append((key, value))
        }
        self.init(entries)
    }

    /// `text` cut at a character boundary to at most ``TraceFormat/maxStringLength`` UTF-8 bytes.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > TraceFormat.maxStringLength else { return text }
        var result = ""
        for character in text {
            if result.utf8.count + character.utf8.count > TraceFormat.maxStringLength { break }
            result.append(character)
        }
        return result
    }

    public static func == (lhs: TraceMetadata, rhs: TraceMetadata) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Encoded as a JSON object, keys in the order written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in entries { try container.encode(value, forKey: Key(stringValue: key)) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(try container.allKeys.map { ($0.stringValue, try container.decode(String.self, forKey: $0)) })
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
