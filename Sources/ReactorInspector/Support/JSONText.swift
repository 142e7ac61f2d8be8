import Foundation

/// Encodes reports as the JSON the CLI prints: sorted keys, pretty-printed.
package enum JSONText {
    /// `value` as JSON text, with a trailing newline.
    public static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
