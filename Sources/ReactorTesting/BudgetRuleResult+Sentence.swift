import ReactorInspector

extension BudgetRuleResult {
    /// The violation as a sentence: `list reran 14 times, budget 10`.
    var sentence: String {
        let offender = worstOffender ?? "?"
        let measured = self.measured ?? "nothing"
        let more = offenders.count > 1 ? " (and \(offenders.count - 1) more over budget)" : ""
        let key = rule.split(separator: ".").last.map(String.init) ?? rule
        switch key {
        case "maxReruns":
            return "\(offender) reran \(measured) \(measured == "1" ? "time" : "times"), budget \(limit)\(more)"
        case "maxTotalMilliseconds":
            return "\(offender) reran for \(measured) in all, budget \(limit)\(more)"
        case "maxRerunMilliseconds":
            return "\(offender)'s longest rerun took \(measured), budget \(limit)\(more)"
        case "maxRerunsPerAction":
            return "one \(offender) caused \(measured) \(measured == "1" ? "rerun" : "reruns"), budget \(limit)\(more)"
        case "maxFlushMilliseconds":
            return "the longest flush took \(measured), budget \(limit)"
        default:
            if rule.hasPrefix("forbid.") {
                let where_ = worstOffender.map { " (first: \($0))" } ?? ""
                return "\(measured) \(key) \(measured == "1" ? "issue" : "issues")\(where_), budget 0"
            }
            return violationLine
        }
    }
}
