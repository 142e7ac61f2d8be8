import ReactorTraceFormat

extension Budget {
    /// The keys a budget's top-level object may hold.
    public static let topLevelKeys = ["computations", "actions", "maxFlushMilliseconds", "forbid"]
    /// The keys a `computations[]` rule may hold.
    public static let computationRuleKeys = ["match", "maxReruns", "maxTotalMilliseconds", "maxRerunMilliseconds",
                                              "maxUnneededReruns"]
    /// The keys an `actions[]` rule may hold.
    public static let actionRuleKeys = ["match", "maxRerunsPerAction"]

    /// Parses a budget strictly: any syntax error, unknown key, wrong type,
    /// negative limit or bad glob is an error naming its JSON path and position.
    public static func parse(_ text: String) throws(BudgetError) -> Budget {
        let document: PositionedJSON
        do {
            document = try PositionedJSONParser.parse(text)
        } catch {
            throw .syntax(error)
        }
        let members = try object(document, path: "budget")
        try rejectUnknownKeys(members, allowed: topLevelKeys, prefix: "")
        var budget = Budget()
        for member in members {
            switch member.key {
            case "computations":
                let elements = try array(member.value, path: "computations")
                for (index, element) in elements.enumerated() {
                    budget.computations.append(try computationRule(element, path: "computations[\(index)]"))
                }
            case "actions":
                let elements = try array(member.value, path: "actions")
                for (index, element) in elements.enumerated() {
                    budget.actions.append(try actionRule(element, path: "actions[\(index)]"))
                }
            case "maxFlushMilliseconds":
                budget.maxFlushMilliseconds = try milliseconds(member.value, path: "maxFlushMilliseconds")
            case "forbid":
                let elements = try array(member.value, path: "forbid")
                for (index, element) in elements.enumerated() {
                    let path = "forbid[\(index)]"
                    guard case .string(let name) = element.value else {
                        throw .invalidValue(path: path, position: element.position,
                                            message: "expected a string, found \(element.typeName)")
                    }
                    guard let kind = TraceIssueKind(budgetName: name) else {
                        let known = TraceIssueKind.allCases.map(\.budgetName)
                        throw .invalidValue(path: path, position: element.position,
                                            message: "unknown issue kind \"\(name)\" (one of: \(known.joined(separator: ", ")))")
                    }
                    if !budget.forbid.contains(kind) { budget.forbid.append(kind) }
                }
            default:
                break  // rejected above
            }
        }
        return budget
    }

    private static func computationRule(_ value: PositionedJSON, path: String) throws(BudgetError) -> ComputationRule {
        let members = try object(value, path: path)
        try rejectUnknownKeys(members, allowed: computationRuleKeys, prefix: path)
        var rule = ComputationRule(match: try glob(members, in: value, path: path), path: path)
        for member in members {
            let memberPath = "\(path).\(member.key)"
            switch member.key {
            case "maxReruns": rule.maxReruns = try count(member.value, path: memberPath)
            case "maxTotalMilliseconds": rule.maxTotalMilliseconds = try milliseconds(member.value, path: memberPath)
            case "maxRerunMilliseconds": rule.maxRerunMilliseconds = try milliseconds(member.value, path: memberPath)
            case "maxUnneededReruns": rule.maxUnneededReruns = try count(member.value, path: memberPath)
            default: break
            }
        }
        if rule.maxReruns == nil, rule.maxTotalMilliseconds == nil, rule.maxRerunMilliseconds == nil,
           rule.maxUnneededReruns == nil {
            throw .invalidValue(path: path, position: value.position,
                                message: "the rule sets no limit (add maxReruns, maxTotalMilliseconds, maxRerunMilliseconds or maxUnneededReruns)")
        }
        return rule
    }

    private static func actionRule(_ value: PositionedJSON, path: String) throws(BudgetError) -> ActionRule {
        let members = try object(value, path: path)
        try rejectUnknownKeys(members, allowed: actionRuleKeys, prefix: path)
        var rule = ActionRule(match: try glob(members, in: value, path: path), path: path)
        if let member = members.first(where: { $0.key == "maxRerunsPerAction" }) {
            rule.maxRerunsPerAction = try count(member.value, path: "\(path).maxRerunsPerAction")
        } else {
            throw .missingKey(path: "\(path).maxRerunsPerAction", position: value.position)
        }
        return rule
    }

    private static func glob(_ members: [PositionedJSON.Member], in value: PositionedJSON,
                             path: String) throws(BudgetError) -> Glob {
        guard let member = members.first(where: { $0.key == "match" }) else {
            throw .missingKey(path: "\(path).match", position: value.position)
        }
        guard case .string(let pattern) = member.value.value else {
            throw .invalidValue(path: "\(path).match", position: member.value.position,
                                message: "expected a glob string, found \(member.value.typeName)")
        }
        do {
            return try Glob(pattern)
        } catch {
            throw .invalidValue(path: "\(path).match", position: member.value.position, message: error.description)
        }
    }

    private static func object(_ value: PositionedJSON, path: String) throws(BudgetError) -> [PositionedJSON.Member] {
        guard case .object(let members) = value.value else {
            throw .invalidValue(path: path, position: value.position, message: "expected an object, found \(value.typeName)")
        }
        return members
    }

    private static func array(_ value: PositionedJSON, path: String) throws(BudgetError) -> [PositionedJSON] {
        guard case .array(let elements) = value.value else {
            throw .invalidValue(path: path, position: value.position, message: "expected an array, found \(value.typeName)")
        }
        return elements
    }

    private static func count(_ value: PositionedJSON, path: String) throws(BudgetError) -> Int {
        guard case .number(let number) = value.value else {
            throw .invalidValue(path: path, position: value.position, message: "expected a whole number, found \(value.typeName)")
        }
        guard number >= 0, number.rounded() == number, number <= Double(Int32.max) else {
            throw .invalidValue(path: path, position: value.position,
                                message: "expected a whole number from 0 to \(Int32.max), found \(number)")
        }
        return Int(number)
    }

    private static func milliseconds(_ value: PositionedJSON, path: String) throws(BudgetError) -> Double {
        guard case .number(let number) = value.value else {
            throw .invalidValue(path: path, position: value.position, message: "expected milliseconds as a number, found \(value.typeName)")
        }
        guard number >= 0 else {
            throw .invalidValue(path: path, position: value.position, message: "expected a non-negative number, found \(number)")
        }
        return number
    }

    private static func rejectUnknownKeys(_ members: [PositionedJSON.Member], allowed: [String],
                                          prefix: String) throws(BudgetError) {
        for member in members where !allowed.contains(member.key) {
            let path = prefix.isEmpty ? member.key : "\(prefix).\(member.key)"
            throw .unknownKey(path: path, position: member.keyPosition, suggestion: closest(to: member.key, in: allowed))
        }
    }

    /// The allowed key nearest to a misspelt one, for "did you mean": within an edit
    /// distance of a third of its length, else sharing most of its beginning
    /// (an abbreviation such as `maxFlushMs`).
    private static func closest(to key: String, in allowed: [String]) -> String? {
        let lowered = key.lowercased()
        let scored = allowed.map { ($0, editDistance(lowered, $0.lowercased())) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, best.0.count / 3) { return best.0 }
        let prefixes = allowed.map { candidate in
            (candidate, zip(lowered, candidate.lowercased()).prefix { $0 == $1 }.count)
        }
        guard let longest = prefixes.max(by: { $0.1 < $1.1 }), longest.1 >= 5, longest.1 * 3 >= lowered.count * 2 else { return nil }
        return longest.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
