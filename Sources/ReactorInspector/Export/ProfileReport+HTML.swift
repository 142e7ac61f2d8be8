import ReactorTraceFormat

extension ProfileReport {
    private static func x(_ text: String) -> String { MarkupEscaping.xml(text) }

    /// The report as one self-contained HTML page.
    public func html() -> String {
        let totals = self.totals
        let hot = hotComputations
        let hottest = hot.first?.stats.totalNanoseconds ?? 0
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Reactor profile · \(Self.x(traceName))</title>
        <style>\(Self.stylesheet)</style>
        </head>
        <body>
        <header>
        <div class="brand">Reactor profile</div>
        <h1>\(Self.x(traceName))</h1>
        <p class="subtitle">\(Self.x(DurationText.format(profile.durationNanoseconds))) traced · \(profile.eventCount) events · \(profile.threads.count) thread\(profile.threads.count == 1 ? "" : "s")</p>
        </header>
        <main>
        <section class="cards">

        """
        let flushes = profile.flushes
        let cards: [(String, String, String)] = [
            ("Reruns", "\(totals.reruns)", "in \(profile.computations.filter { $0.reruns > 0 }.count) computations"),
            ("Rerun time", DurationText.format(totals.rerunNanoseconds), "all reruns, nested included"),
            ("Computations", "\(totals.computations)", "\(profile.computations.count) distinct names"),
            ("Actions", "\(totals.actions)", "\(profile.actions.count) distinct"),
            ("Flushes", "\(flushes.count)", flushes.count == 0 ? "none" : "longest \(DurationText.format(flushes.maxNanoseconds))"),
            ("Issues", "\(totals.issues)", totals.issues == 0 ? "none reported" : profile.issues.map { "\($0.count) \($0.kind.budgetName)" }.joined(separator: ", ")),
        ]
        for (index, card) in cards.enumerated() {
            let alert = index == 5 && totals.issues > 0 ? " alert" : ""
            page += "<div class=\"card\(alert)\"><div class=\"label\">\(Self.x(card.0))</div><div class=\"value\">\(Self.x(card.1))</div><div class=\"detail\">\(Self.x(card.2))</div></div>\n"
        }
        page += "</section>\n"

        page += "<section><h2>Hot computations</h2><p class=\"lead\">Ranked by total time (every run, first runs included: see docs/METRICS.md); the bar compares each with the hottest. “Why” is the causal chain of the latest rerun.</p>\n"
        if hot.isEmpty {
            page += "<p class=\"empty\">Nothing reran.</p>"
        } else {
            page += "<table><thead><tr><th>Computation</th><th class=\"num\">Runs</th><th class=\"num\">Reruns</th><th class=\"num\">Total</th><th class=\"bar-col\"></th><th class=\"num\">Self</th><th class=\"num\">Mean</th><th class=\"num\">Max</th><th>Why (latest rerun)</th></tr></thead><tbody>\n"
            for computation in hot.prefix(hotLimit) {
                let stats = computation.stats
                let share = hottest == 0 ? 0 : Double(stats.totalNanoseconds) / Double(hottest)
                var instances = computation.instances > 1 ? " <span class=\"muted\">×\(computation.instances)</span>" : ""
                if let site = computation.site { instances += " <span class=\"muted site\">\(Self.x(site))</span>" }
                page += "<tr><td class=\"name\"><span class=\"kind kind-\(computation.kind)\">\(computation.kind)</span> <code>\(Self.x(computation.name))</code>\(instances)</td>"
                page += "<td class=\"num\">\(stats.runs)</td><td class=\"num\">\(stats.reruns)</td><td class=\"num\">\(Self.x(DurationText.format(stats.totalNanoseconds)))</td>"
                page += "<td class=\"bar-col\"><div class=\"meter\"><div style=\"width:\(Self.f(max(share * 100, 1.5)))%\"></div></div></td>"
                page += "<td class=\"num\">\(Self.x(DurationText.format(stats.selfNanoseconds)))</td><td class=\"num\">\(Self.x(DurationText.format(stats.meanNanoseconds)))</td><td class=\"num\">\(Self.x(DurationText.format(stats.maxNanoseconds)))</td>"
                page += "<td class=\"chain\">\(chainHTML(computation.latestRerunCause))</td></tr>\n"
            }
            page += "</tbody></table>"
            if hot.count > hotLimit { page += "<p class=\"note\">\(hot.count - hotLimit) more computations reran; see <code>reactor-inspect hot</code>.</p>" }
        }
        page += "</section>\n"

        page += "<section><h2>Actions</h2><p class=\"lead\">Each action is charged with the reruns its changes caused, followed through computeds.</p>\n"
        let actions = rankedActions
        if actions.isEmpty {
            page += "<p class=\"empty\">No store actions in this trace.</p>"
        } else {
            page += "<table><thead><tr><th>Action</th><th class=\"num\">Calls</th><th class=\"num\">Reruns caused</th><th class=\"num\">Worst call</th><th class=\"num\">Total time</th><th class=\"num\">Longest</th><th>Worst call’s arguments</th></tr></thead><tbody>\n"
            for action in actions {
                page += "<tr><td><code>\(Self.x(action.qualifiedName))</code></td><td class=\"num\">\(action.invocations)</td><td class=\"num\">\(action.rerunsCaused)</td>"
                page += "<td class=\"num\">\(action.maxRerunsPerInvocation)</td><td class=\"num\">\(Self.x(DurationText.format(action.totalNanoseconds)))</td>"
                page += "<td class=\"num\">\(Self.x(DurationText.format(action.maxNanoseconds)))</td><td><code class=\"args\">\(Self.x(action.worstInvocationArguments))</code></td></tr>\n"
            }
            page += "</tbody></table>"
        }
        page += "</section>\n"

        page += wasteHTML()
        if let actionTimeline, !actionTimeline.steps.isEmpty { page += actionTimelineHTML(actionTimeline) }

        page += "<section class=\"split\"><div><h2>Rerun durations</h2>\(histogramSVG())</div></section>\n"
        page += "<section><h2>Timeline</h2><p class=\"lead\">Actions and flushes over the trace, per thread. Hover for details.</p>\(timelineSVG())</section>\n"

        if let graphSVG {
            let outlined = hot.prefix(5)
            page += "<section><h2>Dependency graph</h2><p class=\"lead\">Autoruns are boxes, computeds hexagons, state ellipses (as the legend says); fill colour shows total run time (first runs included), and "
            page += outlined.count == 1 ? "the hottest by rerun time is outlined in blue: " : "the \(outlined.count) hottest by rerun time are outlined in blue: "
            page += outlined.map { "<code>\(Self.x($0.name))</code>" }.joined(separator: ", ")
            page += ".</p><div class=\"graph\">\(SVGEmbedding.inline(graphSVG, highlighted: Set(outlined.map(\.name))))</div></section>\n"
        }

        let issues = profile.issues
        if !issues.isEmpty {
            page += "<section><h2>Issues</h2><table><thead><tr><th>Kind</th><th class=\"num\">Count</th><th>Node</th><th>First message</th></tr></thead><tbody>\n"
            for issue in issues {
                page += "<tr><td><span class=\"kind kind-issue\">\(issue.kind.budgetName)</span></td><td class=\"num\">\(issue.count)</td>"
                page += "<td><code>\(Self.x(issue.firstNode))</code></td><td>\(Self.x(issue.firstMessage))</td></tr>\n"
            }
            page += "</tbody></table></section>\n"
        }
        page += "</main>\n<footer>Generated by <code>reactor-inspect report</code> from \(Self.x(traceName)).</footer>\n</body>\n</html>\n"
        return page
    }

    private func chainHTML(_ steps: [String]) -> String {
        guard !steps.isEmpty else { return "<span class=\"muted\">–</span>" }
        return steps.map { "<span class=\"step\">\(Self.x($0))</span>" }.joined(separator: "<span class=\"arrow\">→</span>")
    }

    static let stylesheet = """
    :root{--ink:#0f172a;--muted:#64748b;--line:#e2e8f0;--bg:#f8fafc;--card:#fff;--accent:#4f46e5;--hot:#ea580c;--flush:#0ea5e9;--action:#8b5cf6;--bad:#dc2626}
    *{box-sizing:border-box}
    body{margin:0;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
    header{background:linear-gradient(135deg,#1e1b4b,#4338ca);color:#fff;padding:28px 40px 24px}
    header h1{margin:4px 0 2px;font-size:26px;font-weight:650;letter-spacing:-.01em;word-break:break-all}
    .brand{text-transform:uppercase;letter-spacing:.12em;font-size:11px;opacity:.75}
    .subtitle{margin:0;opacity:.85}
    main{max-width:1140px;margin:0 auto;padding:24px 24px 8px}
    section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin-bottom:20px;box-shadow:0 1px 2px rgba(15,23,42,.04)}
    details.action{border-top:1px solid var(--line);padding:6px 0}details.action summary{cursor:pointer}details.action table{margin:8px 0}
    section.cards{display:grid;grid-template-columns:repeat(6,1fr);gap:12px;background:none;border:none;box-shadow:none;padding:0}
    .card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
    .card .label{font-size:11px;text-transform:uppercase;letter-spacing:.08em;color:var(--muted)}
    .card .value{font-size:24px;font-weight:650;margin:2px 0}
    .card .detail{font-size:12px;color:var(--muted)}
    .card.alert{border-color:#fecaca;background:#fef2f2}.card.alert .value{color:var(--bad)}
    h2{font-size:16px;margin:0 0 4px}
    .lead{margin:0 0 12px;color:var(--muted);font-size:13px}.lead code{word-break:normal;white-space:nowrap}
    table{width:100%;border-collapse:collapse;font-size:13px}
    th{text-align:left;font-weight:600;color:var(--muted);font-size:11px;text-transform:uppercase;letter-spacing:.06em;border-bottom:1px solid var(--line);padding:6px 8px}
    td{border-bottom:1px solid #f1f5f9;padding:7px 8px;vertical-align:top}
    tbody tr:hover{background:#f8fafc}
    .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f1f5f9;border-radius:4px;padding:1px 5px;word-break:break-all}
    code.args{background:none;color:var(--muted)}
    .kind{display:inline-block;font-size:10px;text-transform:uppercase;letter-spacing:.06em;border-radius:999px;padding:1px 7px;font-weight:600}
    .kind-autorun{background:#e0e7ff;color:#3730a3}.kind-computed{background:#dcfce7;color:#166534}.kind-issue{background:#fee2e2;color:#991b1b;text-transform:none;letter-spacing:0}
    .bar-col{width:120px}
    .meter{height:8px;background:#f1f5f9;border-radius:4px;margin-top:6px;overflow:hidden}
    .meter div{height:100%;background:linear-gradient(90deg,#f59e0b,var(--hot));border-radius:4px}
    td.name{white-space:nowrap;max-width:340px}td.name code{word-break:normal;white-space:nowrap}
    .chain{font-size:12px;color:#334155;min-width:260px;overflow-wrap:anywhere}
    .step{white-space:normal}.arrow{color:var(--muted);margin:0 4px}
    .muted,.note,.empty{color:var(--muted)}.note{font-size:12px;margin:8px 0 0}
    svg.chart{width:100%;height:auto;display:block}
    .chart .grid{stroke:#eef2f7;stroke-width:1}
    .chart .axis{fill:var(--muted);font-size:11px}.chart .axis-title{fill:var(--muted);font-size:12px}
    .chart .bar{fill:var(--accent)}.chart g:hover .bar{fill:#6366f1}
    .chart .count{fill:#334155;font-size:11px;font-weight:600}
    .chart .lane{fill:#334155;font-size:12px}
    .chart .lane-bg{fill:#f8fafc;stroke:#eef2f7}
    .chart .span-flush{fill:var(--flush)}.chart .span-action{fill:var(--action)}
    .chart rect:hover{opacity:.8}
    .graph{overflow:auto;max-height:900px;border:1px solid var(--line);border-radius:8px;padding:8px;background:#fff;text-align:center}
    .graph svg{max-width:100%;height:auto}
    .graph g.hot polygon,.graph g.hot ellipse,.graph g.hot path{stroke:#2563eb;stroke-width:5px}
    footer{text-align:center;color:var(--muted);font-size:12px;padding:8px 0 28px}
    @media (max-width:900px){section.cards{grid-template-columns:repeat(3,1fr)}}
    """
}

extension ProfileReport {
    /// One `<details>` per action: open one to see what it changed and the reruns up to it.
    func actionTimelineHTML(_ timeline: ActionTimeline) -> String {
        func x(_ text: String) -> String { MarkupEscaping.xml(text) }
        var out = "<section><h2>Action timeline</h2><p class=\"lead\">Every action in order; open one to see what it changed (before → after"
        out += timeline.hasValues ? ")" : "; this trace has no values: record with REACTOR_TRACE_VALUES=N)"
        out += " and the reruns counted up to its end (with the flush it ran).</p>\n"
        for step in timeline.steps {
            out += "<details class=\"action\"><summary>#\(step.ordinal) <code>\(x(step.name))</code>"
            if !step.arguments.isEmpty { out += " <code class=\"args\">\(x(step.arguments))</code>" }
            out += " at \(x(DurationText.formatTime(step.began)))</summary>\n"
            if step.changes.isEmpty {
                out += "<p class=\"empty\">\(timeline.hasValues ? "No value changed." : "No values recorded.")</p>\n"
            } else {
                out += "<table><thead><tr><th>Changed</th><th>Before</th><th>After</th></tr></thead><tbody>\n"
                for change in step.changes {
                    out += "<tr><td><code>\(x(change.name))</code></td><td><code class=\"args\">\(change.before.map(x) ?? "<em>unknown</em>")</code></td>"
                    out += "<td><code class=\"args\">\(x(change.after))</code></td></tr>\n"
                }
                out += "</tbody></table>"
                if step.omittedChanges > 0 { out += "<p class=\"note\">\(step.omittedChanges) more changes.</p>" }
            }
            if !step.rerunsSoFar.isEmpty {
                out += "<table><thead><tr><th>Reruns up to here</th><th class=\"num\">Reruns</th></tr></thead><tbody>\n"
                for (name, reruns) in step.rerunsSoFar {
                    out += "<tr><td><code>\(x(name))</code></td><td class=\"num\">\(reruns)</td></tr>\n"
                }
                out += "</tbody></table>"
            }
            out += "</details>\n"
        }
        if timeline.omitted > 0 { out += "<p class=\"note\">\(timeline.omitted) more actions are not listed.</p>" }
        return out + "</section>\n"
    }
}
