/// How a computation's traced runs pass secrets on (see `Graph+Secrets.swift`),
/// and, while one runs, the state of the code it interrupted.
@usableFromInline
struct RunSecrecy {
    /// `reveals: true`: what a run produces is clear, whatever it read.
    @usableFromInline let reveals: Bool
    /// `redacted: true`: what a run produces is secret, whatever it read.
    @usableFromInline let isMarked: Bool
    /// While a traced run is on the stack: `Graph.producesSecret` of the code it interrupted.
    var outerProducesSecret = false
    /// While a traced run is on the stack: `Graph.runReveals` of the code it interrupted.
    var outerReveals = false
    /// Its last traced run produced secrets: an error it threw may hold one.
    var lastRunProducedSecret = false

    /// The secrecy of a computation created with those options.
    @usableFromInline
    init(reveals: Bool, isMarked: Bool) {
        self.reveals = reveals
        self.isMarked = isMarked
    }

    /// Passes secrets on as the data flows: neither option.
    @usableFromInline
    static var follows: RunSecrecy { RunSecrecy(reveals: false, isMarked: false) }
}
