import Foundation
import Testing

/// What the samples print about themselves.
enum SampleProcess {
    /// The JSON object a sample printed.
    static func json(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(line)")
    }
}
