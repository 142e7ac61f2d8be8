import ReactorInspector

extension ScenarioTrace {
    /// The unneeded work of the scenario, as `reactor-inspect waste` reports it
    /// (record with `TraceRecorder.Options(values: .described(maxLength: 200))` to judge reruns).
    public var waste: WasteReport { WasteReport(profile: profile) }

    /// The reruns of the computations named `name` that read only values equal to their previous run's.
    public func unneededReruns(of name: String) -> Int {
        waste.entries(named: name).reduce(0) { $0 + $1.unneededReruns }
    }

    /// Whether the computations named `name` reran unneeded at most `limit`
    /// times (the budget rule `maxUnneededReruns`); a name the trace does not
    /// hold fails, and so does a trace recorded without values.
    public func unneededReruns(of name: String, atMost limit: Int) -> BudgetVerdict {
        guard !model.computations(named: name).isEmpty else {
            return BudgetVerdict(check: BudgetCheck(results: []), problem: "no computation named \"\(name)\" in the trace")
        }
        var pattern = ""
        for character in name {
            if "*?[]\\".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
        guard let glob = try? Glob(pattern) else {
            return BudgetVerdict(check: BudgetCheck(results: []), problem: "\"\(name)\" cannot be matched")
        }
        return check(Budget(computations: [Budget.ComputationRule(match: glob, maxUnneededReruns: limit,
                                                                  path: "unneededReruns(of:)")]))
    }
}
