import ReactorTraceFormat

extension ReplayFilter {
    /// A `--filter` term that could not be understood.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The term.
        public let term: String
        /// What is wrong with it.
        public let reason: String

        /// One line for a user.
        public var description: String { "bad filter '\(term)': \(reason)" }
    }

    /// Adds `--filter` terms: `kind:WORD` (an event kind or family, see
    /// ``kindWords``), `name:TEXT` (a node whose name contains TEXT),
    /// `from:TIME`, `to:TIME` (`1.5ms`, `200us`, `2s`); a bare word is a kind
    /// if it names one, else a name.
    public mutating func add(terms: [String]) throws(ParseError) {
        for term in terms {
            let parts = term.split(separator: ":", maxSplits: 1).map(String.init)
            let key = parts.count == 2 ? parts[0].lowercased() : ""
            let value = parts.count == 2 ? parts[1] : term
            switch key {
            case "kind":
                guard let kinds = Self.kinds(named: value) else {
                    throw ParseError(term: term, reason: "unknown kind; use one of \(Self.kindWords.joined(separator: ", "))")
                }
                add(kinds: kinds)
            case "name":
                guard !value.isEmpty else { throw ParseError(term: term, reason: "empty name") }
                names.append(value)
            case "from", "to":
                guard let time = DurationText.parse(value) else {
                    throw ParseError(term: term, reason: "not a time (examples: 1.5ms, 200us, 2s)")
                }
                if key == "from" { from = time } else { to = time }
            default:
                if parts.count == 2 && !["kind", "name", "from", "to"].contains(key), Self.kinds(named: term) == nil,
                   parts[0].allSatisfy(\.isLetter) {
                    throw ParseError(term: term, reason: "unknown key '\(parts[0])'; use kind:, name:, from: or to:")
                }
                if let kinds = Self.kinds(named: term) { add(kinds: kinds) } else { names.append(term) }
            }
        }
        if let from, let to, from > to {
            throw ParseError(term: "from:\(DurationText.formatTime(from)) to:\(DurationText.formatTime(to))",
                             reason: "the window ends before it starts")
        }
    }

    /// Keeps events of `kinds` too.
    public mutating func add(kinds more: Set<TraceEventKind>) {
        kinds = (kinds ?? []).union(more)
    }
}
