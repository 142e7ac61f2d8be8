import Foundation
import ReactorInspector
import ReactorTraceFormat

/// The answers of the JSON endpoints (docs/SERVE.md), each the same report a
/// CLI command prints: built from the follower's model for what it has read,
/// or from the trace file itself, as far as it is written, for what needs a
/// pass of its own (`why`, `state --at`, `replay`: ``TraceFile`` reads the file as it is when the pass begins, so a
/// recorder that keeps writing does not keep the pass going). Synchronous: the server runs the slow ones off its
/// connection threads.
package struct InspectorAPI: Sendable {
    /// The followed trace.
    package let follower: TraceFollower
    /// Whether `why` may answer from the index beside a finished trace (not with `serve --no-index`).
    package let answersFromIndex: Bool

    package init(follower: TraceFollower, answersFromIndex: Bool = true) {
        self.follower = follower
        self.answersFromIndex = answersFromIndex
    }

    /// `summary --json --top N` of the trace so far.
    package func summary(top: Int) -> InspectorResponse {
        let current = follower.current
        guard let model = current.model else { return Self.waiting(current.status) }
        return Self.json(text: (try? JSONText.encode(SummaryReport(model: model, top: top, end: current.end,
                                                                       metadata: current.metadata, history: current.history))) ?? "")
    }

    /// The latest live snapshot (`top --json`, as of the last update).
    package func snapshot() -> InspectorResponse {
        let current = follower.current
        guard let snapshot = current.snapshot else { return Self.waiting(current.status) }
        return Self.json(text: (try? JSONText.encode(snapshot)) ?? "")
    }

    /// The dependency graph as SVG (rendered by Graphviz) with the name of each drawn node;
    /// with `at`, as it stood at that moment (`graph --at`: from the index's latest snapshot before it).
    package func graph(focus: String?, depth: Int, top: Int?, at: String? = nil,
                       layers: Set<Int>? = nil, in followed: FollowedTrace? = nil) -> InspectorResponse {
        let current = followed ?? follower.current
        guard var model = current.model else { return Self.waiting(current.status) }
        var moment: UInt64?
        if let at {
            let parsed: TraceMoment
            switch TraceMoment.parse(at) {
            case let .success(value): parsed = value
            case let .failure(error): return Self.error(status: 400, error.description)
            }
            do {
                let (atModel, resolved) = try self.model(at: parsed, in: current)
                model = atModel
                moment = resolved.timestamp
            } catch {
                switch error {
                case .moment: return Self.error(status: 404, error.description)
                default: return Self.error(status: 500, error.description)
                }
            }
        }
        let selection: GraphSelection
        if let focus, !focus.isEmpty {
            selection = .focus(name: focus, depth: depth)
        } else if let layers {
            selection = .layers(expanded: layers)
        } else if let top {
            selection = .top(top)
        } else {
            selection = .automatic
        }
        do {
            let title = (follower.path as NSString).lastPathComponent
            let rendered = try GraphRenderer.render(model: model, options: GraphOptions(selection: selection, at: moment),
                                                    title: title)
            let answer = GraphAnswer(
                version: current.version, graphVersion: current.graphVersion, svg: rendered.output,
                nodes: rendered.graph.nodes.enumerated().map { index, node in
                    GraphAnswer.Node(id: DOTWriter.elementID(ofNodeAt: index), name: node.name, kind: node.kind.label,
                                     layer: node.layer, members: node.layer == nil ? nil : node.members.count)
                },
                notice: rendered.graph.notice, totalNodes: rendered.graph.totalNodes,
                names: Array(Set(model.nodes.map(\.name))).sorted())
            return Self.json(answer)
        } catch {
            return Self.error(status: 404, error.description)
        }
    }

    /// `why COMPUTATION --json --limit N`: from the index beside a finished trace when it keeps
    /// that explanation (no pass), else one pass over the trace as it stands.
    package func why(_ name: String, limit: Int) -> InspectorResponse {
        let options = TraceModelOptions(explaining: [name], whyEntryLimit: limit)
        let model: TraceModel
        if answersFromIndex, let indexed = TraceFile.explanationFromIndex(path: follower.path, of: name, limit: limit) {
            model = indexed
        } else {
            do {
                model = try TraceFile.model(path: follower.path, options: options).0
            } catch {
                return Self.error(status: 500, error.description)
            }
        }
        guard var report = model.why(name), !report.isUnknown else {
            let suggestions = model.suggestions(for: name)
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?)"
            return Self.error(status: 404, "no computation named '\(name)'\(hint)")
        }
        report.attachIssues(model.issues)
        return Self.json(text: (try? JSONText.encode(report)) ?? "")
    }

    /// `state --at MOMENT --json`, with the moment resolved: every node alive then and its value.
    package func state(at text: String, filter: String?, in followed: FollowedTrace? = nil) -> InspectorResponse {
        let moment: TraceMoment
        switch TraceMoment.parse(text) {
        case let .success(parsed): moment = parsed
        case let .failure(error): return Self.error(status: 400, error.description)
        }
        do {
            let (model, resolved) = try self.model(at: moment, in: followed ?? follower.current)
            let report = StateReport(model: model, moment: resolved, filter: filter)
            return Self.json(StateAnswer(moment: resolved.moment.description, timestampNanoseconds: resolved.timestamp,
                                         action: report.actionName, hasValues: model.hasValues,
                                         entries: report.entries))
        } catch {
            switch error {
            case .moment: return Self.error(status: 404, error.description)
            default: return Self.error(status: 500, error.description)
            }
        }
    }

    /// The model at `moment` of the trace as far as `current` has read it: the
    /// end from the follower's model itself; another moment by a pass that
    /// stops at the chunk it needs, given the follower's index (the same
    /// answer as a pass over the bytes read, asked under a ``TracePass`` of
    /// that limit); `action:N` beyond the actions begun is refused at once, as
    /// that pass would refuse it. Before the follower has an index, the one beside a
    /// finished trace serves; the page has no stderr for its note: a bad index
    /// is rebuilt, one that cannot be written is done without.
    func model(at moment: TraceMoment, in current: FollowedTrace) throws(StateError) -> (TraceModel, ResolvedMoment) {
        if case .end = moment, let model = current.model { return TraceFile.modelAtEnd(model) }
        // `action:N` beyond the actions begun: the pass would read everything to say so.
        if case let .afterAction(ordinal) = moment, current.model != nil, ordinal > current.actionsBegun {
            throw .moment(.beyondActions(requested: ordinal, actions: current.actionsEnded))
        }
        let use: TraceIndexUse = current.index.map { .given($0) } ?? .automatic(note: { _ in })
        let (model, resolved, _) = try TraceFile.model(path: follower.path, at: moment, index: use)
        return (model, resolved)
    }

    /// `replay` with filter terms: the last `limit` matching lines of the trace
    /// so far, as `--json` objects, or with `text` as the lines `replay` prints
    /// (one formatter for both), as `replay --last limit` finds them (``TraceReplay``): from
    /// the index when it can answer (the finished trace's beside it, or the follower's live
    /// index with its model's names, `current`), reading only the chunks those lines need;
    /// else, as `replay`, a pass of its own first reads every value and name
    /// (``TraceLookahead``) and the lines stop where that pass stopped, on a trace the
    /// recorder kept writing meanwhile (always, without ``answersFromIndex``). `matched` counts
    /// every matching line, or is null when the answer did not read back to the start.
    package func replay(terms: [String], limit: Int, text: Bool = false, in current: FollowedTrace? = nil)
        -> InspectorResponse {
        var filter = ReplayFilter()
        do {
            try filter.add(terms: terms)
        } catch {
            return Self.error(status: 400, error.description)
        }
        var kept: [[UInt8]] = []
        let matched: Int?
        do {
            let use: TraceIndexUse = answersFromIndex ? current?.index.map { .given($0) } ?? .automatic(note: { _ in }) : .none
            (_, matched) = try TraceReplay.lines(path: follower.path, filter: filter, json: !text, last: limit,
                                                 index: use, model: current?.model) { kept.append(Array($0)) }
        } catch {
            return Self.error(status: 500, error.description)
        }
        var body = Array("{\"matched\":\(matched.map(String.init) ?? "null"),\"lines\":[".utf8)
        for (index, line) in kept.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            let bytes = line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...]
            if text {
                body += Array(JSONText.quoted(String(decoding: bytes, as: UTF8.self)).utf8)
            } else {
                body += bytes
            }
        }
        body += Array("]}\n".utf8)
        return InspectorResponse(status: 200, contentType: "application/json", body: body)
    }

    /// The timeline between `from` and `to` (trace nanoseconds; nil: the
    /// trace's first or last event) for a picture `width` pixels wide: one
    /// pass over the trace as it stands (``TraceTimeline``), or from the follower's index when it
    /// keeps snapshots: only the chunks whose times reach the window. The first and
    /// last event's times come from the follower's index when it has one (the
    /// earliest and latest time of its chunks), instead of a pass of their own.
    package func timeline(from: UInt64?, to: UInt64?, width: Int, in followed: FollowedTrace? = nil) -> InspectorResponse {
        if let from, let to, from > to { return Self.error(status: 400, "from must not be after to") }
        let current = followed ?? follower.current
        if answersFromIndex, let index = current.index, let threads = current.model?.threadIndexes,
           let timeline = TraceTimeline.read(path: follower.path, from: from, to: to, width: width, index: index,
                                             threads: threads) {
            return Self.json(timeline)
        }
        var from = from, to = to
        if from == nil || to == nil, let index = current.index {
            let begin = index.batches.lazy.map(\.firstTime).min() ?? 0
            let end = index.batches.isEmpty ? 0 : index.latestTimestamp
            from = from ?? begin
            to = to ?? max(end, from ?? 0)
        }
        do {
            return Self.json(try TraceTimeline.read(path: follower.path, from: from, to: to, width: width))
        } catch {
            return Self.error(status: 500, error.description)
        }
    }

    // MARK: - Responses

    static func json(text: String) -> InspectorResponse {
        InspectorResponse(status: 200, contentType: "application/json", body: Array(text.utf8))
    }

    static func json(_ value: some Encodable) -> InspectorResponse {
        json(text: (try? JSONText.encode(value)) ?? "")
    }

    static func error(status: Int, _ message: String) -> InspectorResponse {
        InspectorResponse(status: status, contentType: "application/json",
                          body: Array("{\"error\":\(JSONText.quoted(message))}\n".utf8))
    }

    /// 503 while the trace has not started: the answer says what is awaited.
    static func waiting(_ status: LiveTraceStatus) -> InspectorResponse {
        if case let .waiting(message) = status { return error(status: 503, message) }
        return error(status: 503, "nothing read yet")
    }
}

/// `GET /api/graph`.
struct GraphAnswer: Encodable {
    struct Node: Encodable {
        /// The id of the node's group in the SVG.
        let id: String
        let name: String
        let kind: String
        /// For a layer drawn as one node: its layer, and how many nodes it stands for.
        let layer: Int?
        let members: Int?
    }

    let version: Int
    let graphVersion: Int
    let svg: String
    let nodes: [Node]
    let notice: String?
    /// How many nodes the whole graph has (drawn or not, before layers are grouped).
    let totalNodes: Int
    /// Every node's name, drawn or not: what the page's search box can find.
    let names: [String]
}

/// `GET /api/state`.
struct StateAnswer: Encodable {
    let moment: String
    /// Trace time, as `--at` takes it and the live views show it.
    let timestampNanoseconds: UInt64
    let action: String?
    let hasValues: Bool
    let entries: [StateReport.Entry]
}
