import ReactorTraceFormat

/// Which events `replay` prints: by kind, by node name and by time window.
public struct ReplayFilter: Sendable, Equatable {
    /// Kinds to keep (nil: all).
    public var kinds: Set<TraceEventKind>?
    /// Keep events involving a node whose name contains one of these
    /// (case-insensitive; empty: all).
    public var names: [String]
    /// Keep events at or after this trace time.
    public var from: UInt64?
    /// Keep events at or before this trace time.
    public var to: UInt64?

    /// Creates a filter; the defaults keep everything.
    public init(kinds: Set<TraceEventKind>? = nil, names: [String] = [], from: UInt64? = nil, to: UInt64? = nil) {
        self.kinds = kinds
        self.names = names
        self.from = from
        self.to = to
    }

    /// The kinds a word on the command line names: a kind's name (`depend`,
    /// `rerun-begin`…) or a family (`rerun`, `action`, `flush`, `node`); nil if none.
    public static func kinds(named word: String) -> Set<TraceEventKind>? {
        let word = word.lowercased()
        if let kind = TraceEventKind.allCases.first(where: { $0.name == word }) { return [kind] }
        switch word {
        case "rerun", "run": return [.rerunBegan, .rerunEnded]
        case "action": return [.actionBegan, .actionEnded]
        case "flush": return [.flushBegan, .flushEnded]
        case "node", "lifecycle": return [.nodeCreated, .nodeNamed, .nodeStopped]
        case "invalidated", "invalidation": return [.invalidated]
        case "issues": return [.issue]
        default: return nil
        }
    }

    /// Every word ``kinds(named:)`` accepts.
    public static var kindWords: [String] {
        TraceEventKind.allCases.map(\.name) + ["rerun", "action", "flush", "node"]
    }
}
