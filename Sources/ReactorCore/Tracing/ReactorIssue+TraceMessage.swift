extension ReactorIssue {
    /// The issue's ``description`` as a trace records it: the error an autorun
    /// or computed threw is withheld (`‹redacted›`) when the run that threw had
    /// read a secret, since its text may hold it. Graph lock held.
    var traceMessage: String {
        guard case let .uncaughtError(_, computation) = self, computation.secrecy.lastRunProducedSecret else {
            return description
        }
        let name = computation.name ?? "#\(computation.id)"
        return "computation '\(name)' threw \(TraceValueText.redacted); pass onError: to autorun to handle it"
    }
}
