import Foundation

/// Answers that depend on a trace file's bytes and a question alone, each computed once per test
/// process for each content and question (the first asker computes, later ones wait and share it):
/// a pass's model, or what a command prints (the same with the index beside the trace as without:
/// IndexCommandTests). Tests copy a sample into a folder of their own (for an index of their own):
/// the copies hold the same bytes, so a pass over any of them says what a pass over the first said.
final class TraceContentMemo<Value: Sendable>: @unchecked Sendable {
    private struct Key: Hashable {
        let bytes: Data
        let question: String
    }

    /// One answer, computed by the first asker while later ones wait.
    private final class Entry: @unchecked Sendable {
        let lock = NSLock()
        var value: Value?
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]

    /// `compute`'s answer to `question` about the trace at `path`, computed the first time a trace
    /// with these bytes is asked it. `compute` must answer from those bytes and `question` alone.
    func value(forTraceAt path: String, _ question: String = "", _ compute: () throws -> Value) throws -> Value {
        let key = Key(bytes: try Data(contentsOf: URL(fileURLWithPath: path)), question: question)
        let entry = lock.withLock {
            if let entry = entries[key] { return entry }
            let entry = Entry()
            entries[key] = entry
            return entry
        }
        return try entry.lock.withLock {
            if let value = entry.value { return value }
            let value = try compute()
            entry.value = value
            return value
        }
    }
}
