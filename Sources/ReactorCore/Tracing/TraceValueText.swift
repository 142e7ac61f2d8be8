/// Turns values and action arguments into the bounded, redacted descriptions a
/// tracer records (only called while a tracer asks for values). `package`: a
/// tracer that fans events out to tracers with smaller limits cuts them the same way.
@usableFromInline
package enum TraceValueText {
    /// What a redacted value is written as.
    package static let redacted = "‹redacted›"
    /// Appended to a description that was cut.
    static let cutMarker = "…"

    /// `value`'s description: ``redacted`` for a redacted value or a
    /// ``Redacted``, else its `traceDescription` or `String(reflecting:)`, cut
    /// to `limit` UTF-8 bytes.
    static func describe<T>(_ value: T, limit: Int, redacted isRedacted: Bool = false) -> String {
        if isRedacted || value is any RedactedTraceValue { return redacted }
        if let describable = value as? any TraceValueDescribable {
            return bounded(describable.traceDescription, limit: limit)
        }
        return bounded(String(reflecting: value), limit: limit)
    }

    /// Action arguments as one line, `"buy milk", 3`, each described as a value
    /// and the whole cut to `limit` UTF-8 bytes.
    static func arguments(_ arguments: [Any], limit: Int) -> String {
        var summary = ""
        for argument in arguments {
            if !summary.isEmpty { summary += ", " }
            summary += describe(argument, limit: limit)
            if summary.utf8.count > limit { break }
        }
        return bounded(summary, limit: limit)
    }

    /// `count` arguments that are all secrets, `‹redacted›, ‹redacted›`, cut
    /// to `limit` UTF-8 bytes as ``arguments(_:limit:)`` would.
    static func redactedArguments(count: Int, limit: Int) -> String {
        bounded(Array(repeating: redacted, count: min(count, limit)).joined(separator: ", "), limit: limit)
    }

    /// `text` if it fits in `limit` UTF-8 bytes, else its longest prefix of whole
    /// characters that fits with ``cutMarker`` after it.
    package static func bounded(_ text: String, limit: Int) -> String {
        if text.utf8.count <= limit { return text }
        let room = max(0, limit - cutMarker.utf8.count)
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            let size = text.utf8.distance(from: index, to: next)
            if used + size > room { break }
            used += size
            end = next
        }
        return String(text[..<end]) + cutMarker
    }

    /// Records `value` as `node`'s value, described within `limit` bytes. Out
    /// of line: writes call it only on their traced path, with values on.
    @usableFromInline @inline(never)
    static func record<T>(_ value: T, node: UInt64, redacted: Bool, limit: Int, to tracer: any ReactorTracer) {
        tracer.value(node, description: describe(value, limit: limit, redacted: redacted))
    }
}
