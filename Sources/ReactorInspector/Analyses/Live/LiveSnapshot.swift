/// What a live view shows at one moment: the state of the recording, the hot
/// table, the latest actions and the issues. `top` prints it as text, or as
/// JSON with `--json` (its field names are the JSON keys).
public struct LiveSnapshot: Sendable, Codable, Equatable {
    /// An action that ended, as the live views list it.
    public struct Action: Sendable, Codable, Equatable {
        /// Its N for `state --at action:N` (0: not known).
        public let ordinal: Int
        /// `Store.action`.
        public let name: String
        /// Its arguments as recorded.
        public let arguments: String
        /// When it began, from the start of the trace.
        public let atNanoseconds: UInt64
        /// How long it took.
        public let durationNanoseconds: UInt64
        /// The names of the dependencies it changed (first ones, no repeats).
        public let changed: [String]
        /// How many `changed` events it made in all.
        public let changeCount: Int
        /// The value each of ``changed`` held after the action, where the trace
        /// records values (`null` for the others).
        public let values: [String?]
    }

    /// An issue the runtime reported.
    public struct Issue: Sendable, Codable, Equatable {
        /// When, from the start of the trace.
        public let atNanoseconds: UInt64
        /// The issue kind's name.
        public let kind: String
        /// The node it is about, by name (empty when none).
        public let node: String
        /// The runtime's message.
        public let message: String
    }

    /// The trace file.
    public let path: String
    /// `waiting`, `recording`, `finished` or `damaged`.
    public let status: String
    /// What is awaited, or where the damage is (empty otherwise).
    public let statusDetail: String
    /// Events read so far, every kind counted (``TraceModel/totalEvents``, as `summary` counts them).
    public let events: Int
    /// Events per second over the last interval.
    public let eventsPerSecond: Double
    /// Nodes so far.
    public let nodes: Int
    /// Dependency edges held now.
    public let liveEdges: Int
    /// From the first event to the last, so far.
    public let durationNanoseconds: UInt64
    /// The interval the rates are over (the whole trace for a first snapshot).
    public let intervalNanoseconds: UInt64
    /// The hottest computations, by reruns in the last interval, then in all.
    public let hot: [LiveHotRow]
    /// How many computations there are in all.
    public let computations: Int
    /// The latest actions, newest first.
    public let actions: [Action]
    /// The latest issues, newest first.
    public let issues: [Issue]
    /// How many issues there are in all.
    public let issueCount: Int
}
