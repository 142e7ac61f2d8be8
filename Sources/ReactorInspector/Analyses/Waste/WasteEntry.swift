/// One computation (all instances sharing a name and kind) in the `waste`
/// report. Its JSON form is the contract of `waste --json`.
public struct WasteEntry: Sendable, Equatable, Codable {
    /// The computation's name.
    public let name: String
    /// `autorun`, `computed`, `operator` or `binding`.
    public let kind: String
    /// Its reruns (runs after the first), as `hot` counts them.
    public let reruns: Int
    /// Reruns that read only values equal to those its previous run read.
    public let unneededReruns: Int
    /// Wall time of those reruns (nested runs included).
    public let unneededNanoseconds: UInt64
    /// Reruns that cannot be judged: a value read is not in the trace (values
    /// off, a plain `Dependency`, a secret, a description cut at the limit) or nothing was read.
    public let undecidedReruns: Int
    /// A computed's reruns that produced a value equal to its previous one:
    /// cut off by `Equatable` (no change followed the run), or announced as a
    /// change of an equal recorded value.
    public let equalResults: Int
    /// Wall time of those reruns.
    public let equalResultNanoseconds: UInt64
    /// The writes that caused the unneeded reruns, most reruns first.
    public let writes: [WasteWrite]
    /// What to change, in one line.
    public let fix: String

    /// Creates an entry.
    public init(name: String, kind: String, reruns: Int, unneededReruns: Int, unneededNanoseconds: UInt64,
                undecidedReruns: Int, equalResults: Int, equalResultNanoseconds: UInt64, writes: [WasteWrite],
                fix: String) {
        self.name = name
        self.kind = kind
        self.reruns = reruns
        self.unneededReruns = unneededReruns
        self.unneededNanoseconds = unneededNanoseconds
        self.undecidedReruns = undecidedReruns
        self.equalResults = equalResults
        self.equalResultNanoseconds = equalResultNanoseconds
        self.writes = writes
        self.fix = fix
    }
}
