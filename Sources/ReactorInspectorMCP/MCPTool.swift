import MCP

/// One tool of `reactor-inspect mcp`: the subcommand of its name, its
/// arguments and how they become that subcommand's command line.
struct MCPTool: Sendable {
    /// An option (`top` → `--top N`) or a positional argument after the trace.
    struct Parameter: Sendable {
        enum Kind: Sendable { case integer, string }
        let name: String
        let kind: Kind
        let description: String
        let required: Bool
        /// Given as a positional argument (after the trace), not as `--name value`.
        let positional: Bool

        static func option(_ name: String, _ kind: Kind, _ description: String, required: Bool = false) -> Parameter {
            Parameter(name: name, kind: kind, description: description, required: required, positional: false)
        }

        static func argument(_ name: String, _ description: String) -> Parameter {
            Parameter(name: name, kind: .string, description: description, required: true, positional: true)
        }
    }

    let name: String
    let description: String
    let parameters: [Parameter]
    /// The words that make the command print what the tool answers (`--json`).
    let outputWords: [String]
    /// Exit statuses that are answers, not failures (`check`: 1, a budget exceeded, is an error result with its report).
    let answeringStatuses: Set<Int32>

    init(name: String, description: String, parameters: [Parameter], outputWords: [String] = ["--json"],
         answeringStatuses: Set<Int32> = [0]) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.outputWords = outputWords
        self.answeringStatuses = answeringStatuses
    }

    /// The tools, each answering what its command's `--json` prints (graph: DOT).
    static let all: [MCPTool] = [
        MCPTool(name: "summary", description: "Counts, duration, nodes, flushes, actions, issues and the top computations of a Reactor trace (reactor-inspect summary --json).",
                parameters: [.option("top", .integer, "how many computations and actions to list (default 5)")]),
        MCPTool(name: "hot", description: "The computations that reran most or took longest, with p50/p99/max, self time and top causes (hot --json).",
                parameters: [.option("top", .integer, "how many computations to list (default 10)"),
                             .option("by", .string, "rank by reruns or time (default reruns)")]),
        MCPTool(name: "why", description: "Why a computation ran: the causal chain of each run, action → changed → invalidated → reran, grouped by pattern (why --json).",
                parameters: [.argument("computation", "the computation's name as hot prints it, or #id"),
                             .option("limit", .integer, "how many runs to list one by one (all are counted)")]),
        MCPTool(name: "state", description: "Every live node's value and dependencies at a moment (state --json); needs a trace recorded with values.",
                parameters: [.option("at", .string, "the moment: a trace time (1.5ms), action:N (after the N-th action ended) or end", required: true),
                             .option("filter", .string, "only nodes whose name contains this text")]),
        MCPTool(name: "history", description: "One node's values over time, each with the action that set it (history --json).",
                parameters: [.argument("name", "the node's name or #id")]),
        MCPTool(name: "waste", description: "Reruns that read only values equal to their previous run's, the writes that caused them and the fix (waste --json).",
                parameters: []),
        MCPTool(name: "check", description: "Check the trace against a performance budget file (check --json); an exceeded budget is an error result with the report.",
                parameters: [.option("budget", .string, "the budget JSON file (docs/BUDGETS.md)", required: true)],
                answeringStatuses: [0, 1]),
        MCPTool(name: "sql", description: "Answer one read-only SQL query over the trace imported into SQLite (sql --json: an array of rows); tables in docs/SQL.md (node_stats, node_actions, action_stats per name; runs, invalidations, actions, flushes… per event).",
                parameters: [.argument("query", "one SELECT statement"),
                             .option("db", .string, "keep the database in this file")]),
        MCPTool(name: "graph", description: "The dependency graph as Graphviz DOT text (graph --format dot).",
                parameters: [.option("focus", .string, "draw the neighbourhood of this node"),
                             .option("depth", .integer, "with focus: how many edges away"),
                             .option("top", .integer, "draw the N hottest computations and their neighbours"),
                             .option("at", .string, "the graph at a trace time or after action:N")],
                outputWords: ["--format", "dot", "-o", "-"]),
    ]

    /// The tool as `tools/list` describes it.
    var listing: Tool {
        var properties: [String: Value] = ["trace": .object(["type": .string("string"),
                                                             "description": .string("the trace file's path")])]
        var required: [Value] = [.string("trace")]
        for parameter in parameters {
            properties[parameter.name] = .object(["type": .string(parameter.kind == .integer ? "integer" : "string"),
                                                  "description": .string(parameter.description)])
            if parameter.required { required.append(.string(parameter.name)) }
        }
        return Tool(name: name, description: description,
                    inputSchema: .object(["type": .string("object"), "properties": .object(properties),
                                          "required": .array(required), "additionalProperties": .bool(false)]))
    }

    /// The command line for `arguments`, or why they are wrong (one line).
    func commandLine(_ arguments: [String: Value]) -> Result<[String], MCPArgumentError> {
        let known = Set(["trace"] + parameters.map(\.name))
        if let unknown = arguments.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(MCPArgumentError("\(name) takes no argument \"\(unknown)\" (it takes \(known.sorted().joined(separator: ", ")))"))
        }
        guard case let .string(trace)? = arguments["trace"], !trace.isEmpty else {
            return .failure(MCPArgumentError("\(name) needs `trace`, the path of a trace file (a string)"))
        }
        var words = [name]
        var positional = [trace]
        for parameter in parameters {
            guard let value = arguments[parameter.name], value != .null else {
                if parameter.required { return .failure(MCPArgumentError("\(name) needs `\(parameter.name)`: \(parameter.description)")) }
                continue
            }
            let text: String
            switch (parameter.kind, value) {
            case let (.string, .string(string)):
                text = string
            case let (.integer, .int(number)):
                text = String(number)
            case let (.integer, .double(number)) where number.rounded() == number && abs(number) < 1e15:
                text = String(Int64(number))
            default:
                return .failure(MCPArgumentError("`\(parameter.name)` must be \(parameter.kind == .integer ? "a whole number" : "a string")"))
            }
            if parameter.positional { positional.append(text) } else { words += ["--\(parameter.name)", text] }
        }
        // `--` ends the options: a path or name that starts with a dash stays an argument.
        return .success(words + outputWords + ["--no-progress", "--color", "never", "--"] + positional)
    }
}

/// A tool call's arguments that do not fit the tool.
struct MCPArgumentError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
