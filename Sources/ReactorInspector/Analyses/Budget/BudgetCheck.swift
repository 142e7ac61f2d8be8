import ReactorTraceFormat

/// A budget evaluated over a trace's profile: one result per rule, in budget order.
public struct BudgetCheck: Sendable, Equatable {
    /// Every rule's outcome.
    public var results: [BudgetRuleResult]

    /// The rules that failed.
    public var violations: [BudgetRuleResult] { results.filter { !$0.passed } }
    /// True when every rule passed.
    public var passed: Bool { results.allSatisfy(\.passed) }
    /// The process exit code for `check`: 0 within budget, 1 exceeded.
    public var exitCode: Int32 { passed ? 0 : 1 }

    /// Creates a check from results.
    public init(results: [BudgetRuleResult]) {
        self.results = results
    }

    /// Evaluates every rule of `budget` over `profile`, read to its end.
    public init(budget: Budget, profile: TraceProfile) {
        self.init(budget: budget, profile: profile.figures)
    }

    /// Evaluates every rule of `budget` over a profile's figures (as a pass or the index gives them).
    public init(budget: Budget, profile: ProfileFigures) {
        var results: [BudgetRuleResult] = []
        let computations = profile.computations
        let waste = profile.waste
        for rule in budget.computations {
            let matching = computations.filter { rule.match.matches($0.name) }
            let subjectSuffix = "computations matching \"\(rule.match.pattern)\""
            if let limit = rule.maxReruns {
                results.append(Self.evaluate(
                    rule: "\(rule.path).maxReruns", subject: "reruns of \(subjectSuffix)", limit: Double(limit),
                    format: { String(Int($0)) }, candidates: matching,
                    value: { Double($0.reruns) }, name: \.name, cause: \.dominantRerunCause))
            }
            if let limit = rule.maxTotalMilliseconds {
                results.append(Self.evaluate(
                    rule: "\(rule.path).maxTotalMilliseconds", subject: "total rerun time of \(subjectSuffix)",
                    limit: limit, format: Self.milliseconds, candidates: matching,
                    value: { Double($0.totalRerunNanoseconds) / 1e6 }, name: \.name, cause: \.slowestRerunCause))
            }
            if let limit = rule.maxRerunMilliseconds {
                results.append(Self.evaluate(
                    rule: "\(rule.path).maxRerunMilliseconds", subject: "longest rerun of \(subjectSuffix)",
                    limit: limit, format: Self.milliseconds, candidates: matching,
                    value: { Double($0.maxRerunNanoseconds) / 1e6 }, name: \.name, cause: \.slowestRerunCause))
            }
            if let limit = rule.maxUnneededReruns {
                results.append(Self.unneededReruns(rule: rule, limit: limit, subjectSuffix: subjectSuffix,
                                                   matching: matching, waste: waste))
            }
        }
        let actions = profile.actions
        for rule in budget.actions {
            guard let limit = rule.maxRerunsPerAction else { continue }
            let matching = actions.filter { rule.match.matches($0.name) || rule.match.matches($0.qualifiedName) }
            results.append(Self.evaluate(
                rule: "\(rule.path).maxRerunsPerAction",
                subject: "reruns caused by one invocation of actions matching \"\(rule.match.pattern)\"",
                limit: Double(limit), format: { String(Int($0)) }, candidates: matching,
                value: { Double($0.maxRerunsPerInvocation) }, name: \.qualifiedName,
                cause: { action in
                    let arguments = action.worstInvocationArguments.isEmpty ? "" : " [\(action.worstInvocationArguments)]"
                    let more = action.maxRerunsPerInvocation > action.worstInvocationReruns.count
                        ? " and \(action.maxRerunsPerInvocation - action.worstInvocationReruns.count) more" : ""
                    return ["action \(action.qualifiedName)\(arguments)",
                            "reran " + action.worstInvocationReruns.joined(separator: ", ") + more,
                            CountText.of(action.rerunsCaused, "rerun") + " over " + CountText.of(action.invocations, "invocation")]
                }))
        }
        if let limit = budget.maxFlushMilliseconds {
            let flushes = profile.flushes
            let measured = Double(flushes.maxNanoseconds) / 1e6
            let passed = flushes.count == 0 || measured <= limit
            let cause = flushes.slowestFlushReruns.map {
                "\($0.name) reran \($0.reruns)× for \(Self.milliseconds(Double($0.nanoseconds) / 1e6))"
            }
            let offender = flushes.count == 0 ? nil : "flush at \(Self.milliseconds(Double(flushes.slowestStartNanoseconds) / 1e6))"
            results.append(BudgetRuleResult(
                rule: "maxFlushMilliseconds", subject: "longest flush", limit: Self.milliseconds(limit),
                measured: flushes.count == 0 ? nil : Self.milliseconds(measured), worstOffender: offender,
                cause: cause, matched: flushes.count,
                offenders: passed ? [] : [(offender ?? "flush", Self.milliseconds(measured))], passed: passed))
        }
        for kind in budget.forbid {
            let issues = profile.issues(of: kind)
            var cause: [String] = []
            if issues.count > 0 {
                cause.append(issues.firstNode.isEmpty ? issues.firstMessage : "\(issues.firstNode): \(issues.firstMessage)")
            }
            results.append(BudgetRuleResult(
                rule: "forbid.\(kind.budgetName)", subject: "\(kind.budgetName) issues", limit: "0",
                measured: String(issues.count), worstOffender: issues.firstNode.isEmpty ? nil : issues.firstNode,
                cause: cause, matched: issues.count,
                offenders: issues.count > 0 ? [(issues.firstNode.isEmpty ? kind.budgetName : issues.firstNode, String(issues.count))] : [],
                passed: issues.count == 0))
        }
        self.results = results
    }

    /// `maxUnneededReruns`: without values nothing can be judged, and a gate
    /// must not pass on nothing: the rule fails and says so.
    private static func unneededReruns(rule: Budget.ComputationRule, limit: Int, subjectSuffix: String,
                                       matching: [ComputationProfile], waste: WasteReport) -> BudgetRuleResult {
        let path = "\(rule.path).maxUnneededReruns"
        let subject = "unneeded reruns of \(subjectSuffix)"
        guard waste.hasValues || matching.allSatisfy({ $0.reruns == 0 }) else {
            return BudgetRuleResult(
                rule: path, subject: subject, limit: String(limit), measured: nil, worstOffender: nil,
                cause: ["the trace was recorded without values: no rerun can be judged (record with REACTOR_TRACE_VALUES=200)"],
                matched: matching.count, offenders: [], passed: false)
        }
        var byName: [String: WasteEntry] = [:]
        for entry in waste.entries where byName[entry.name] == nil { byName[entry.name] = entry }
        return evaluate(
            rule: path, subject: subject, limit: Double(limit), format: { String(Int($0)) }, candidates: matching,
            value: { Double(byName[$0.name]?.unneededReruns ?? 0) }, name: \.name,
            cause: { computation in
                guard let entry = byName[computation.name] else { return [] }
                return entry.writes.prefix(3).map { write in
                    "\(write.node) written\(write.action.map { " in \($0)" } ?? "")\(write.site.map { " at \($0)" } ?? ""): \(write.reruns) unneeded"
                } + ["fix: \(entry.fix)"]
            })
    }

    private static func evaluate<Candidate>(
        rule: String, subject: String, limit: Double, format: (Double) -> String, candidates: [Candidate],
        value: (Candidate) -> Double, name: (Candidate) -> String, cause: (Candidate) -> [String]
    ) -> BudgetRuleResult {
        let ranked = candidates.map { (candidate: $0, value: value($0)) }
            .sorted { $0.value != $1.value ? $0.value > $1.value : name($0.candidate) < name($1.candidate) }
        guard let worst = ranked.first else {
            return BudgetRuleResult(rule: rule, subject: subject, limit: format(limit), measured: nil, worstOffender: nil,
                                    cause: [], matched: 0, offenders: [], passed: true)
        }
        let over = ranked.filter { $0.value > limit }
        return BudgetRuleResult(
            rule: rule, subject: subject, limit: format(limit), measured: format(worst.value),
            worstOffender: name(worst.candidate), cause: cause(worst.candidate), matched: ranked.count,
            offenders: over.prefix(10).map { (name($0.candidate), format($0.value)) }, passed: over.isEmpty)
    }

    /// `2 ms`, `0.35 ms`, `12.5 ms`: at most three significant decimals, no trailing zeros.
    static func milliseconds(_ value: Double) -> String {
        "\(formatDecimal(value)) ms"
    }
}

/// A number with up to three decimals and no trailing zeros (`2`, `0.35`, `12.125`, `<0.001`).
func formatDecimal(_ value: Double) -> String {
    guard value.isFinite, let thousandths = Int64(exactly: (value * 1000).rounded()) else { return String(value) }
    if thousandths == 0, value != 0 { return value > 0 ? "<0.001" : ">-0.001" }
    let whole = thousandths / 1000
    var fraction = String(abs(thousandths % 1000))
    while fraction.count < 3 { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let sign = thousandths < 0 && whole == 0 ? "-" : ""
    return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}
