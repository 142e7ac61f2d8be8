import ReactorTraceFormat

extension TraceProfile {
    /// Every computation name in the trace, with its counts and times, sorted by name.
    /// A computation that was created but never ran (a computed nobody read) is
    /// listed with zero runs, so that `diff` tells "no longer runs" from "gone".
    public var computations: [ComputationProfile] {
        // The figures are the model's (the one count every view shares); this
        // profile adds only the causal chains of the slowest and latest reruns.
        let model = self.model
        var byName: [String: (profile: ComputationProfile, slowest: CauseLink?, slowestNanoseconds: UInt64,
                              latest: CauseLink?, latestRun: Int, dominant: CauseLink?, dominantCount: Int)] = [:]
        for node in model.nodes where node.isComputation {
            let name = self.name(of: node.id)
            let counter = builder.position(ofNode: node.id).flatMap(rerunChains(atPosition:)) ?? RerunChains()
            let reruns = node.runs.reruns, maxRerun = node.runs.maxRerunNanoseconds
            if var entry = byName[name] {
                entry.profile.instances += 1
                entry.profile.stats.merge(node.runs)
                if entry.profile.site == nil { entry.profile.site = node.site }
                if maxRerun > entry.slowestNanoseconds || (maxRerun == entry.slowestNanoseconds && entry.slowest == nil) {
                    entry.slowestNanoseconds = maxRerun
                    entry.slowest = counter.slowest
                }
                if counter.latest != nil, entry.latest == nil || reruns > entry.latestRun {
                    entry.latest = counter.latest
                    entry.latestRun = reruns
                }
                if counter.dominantCount > entry.dominantCount {
                    entry.dominant = counter.dominant
                    entry.dominantCount = counter.dominantCount
                }
                byName[name] = entry
            } else {
                let profile = ComputationProfile(name: name, kind: node.kind.label,
                                                 instances: 1, stats: node.runs, site: node.site)
                byName[name] = (profile, counter.slowest, maxRerun, counter.latest, reruns, counter.dominant,
                                counter.dominantCount)
            }
        }
        return byName.values.map { entry in
            var profile = entry.profile
            profile.slowestRerunCause = entry.slowest.map(describe) ?? []
            profile.latestRerunCause = entry.latest.map(describe) ?? []
            profile.dominantRerunCause = entry.dominant.map(describe) ?? []
            profile.dominantRerunCount = entry.dominantCount
            return profile
        }.sorted { $0.name < $1.name }
    }

    /// Every action name that ran, grouped by `Store.action`, sorted by that name.
    /// Calls, time and reruns caused are the model's; the worst call is the
    /// one the importer charged with the most reruns (the first to reach them).
    public var actions: [ActionProfile] {
        var byName: [String: ActionProfile] = [:]
        for (position, action) in model.actions.enumerated() {
            let qualified = qualifiedName(store: action.store, action: action.name)
            let worst = worstCalls[Int32(position)]
            if var profile = byName[qualified] {
                profile.invocations += action.count
                profile.rerunsCaused += action.rerunsCaused
                if let worst, worst.reruns > profile.maxRerunsPerInvocation {
                    profile.maxRerunsPerInvocation = worst.reruns
                    profile.worstInvocationArguments = worst.arguments
                    profile.worstInvocationReruns = rerunNames(worst)
                    profile.worstInvocationOrdinal = worst.ordinal
                }
                profile.totalNanoseconds = profile.totalNanoseconds.saturatingAdd(action.totalNanoseconds)
                profile.maxNanoseconds = max(profile.maxNanoseconds, action.durations.maximum)
                byName[qualified] = profile
            } else {
                byName[qualified] = ActionProfile(
                    qualifiedName: qualified, store: action.store == 0 ? "" : name(of: action.store),
                    name: action.name, invocations: action.count, rerunsCaused: action.rerunsCaused,
                    maxRerunsPerInvocation: worst?.reruns ?? 0, worstInvocationArguments: worst?.arguments ?? "",
                    worstInvocationReruns: worst.map(rerunNames) ?? [],
                    worstInvocationOrdinal: worst?.ordinal ?? 0,
                    totalNanoseconds: action.totalNanoseconds, maxNanoseconds: action.durations.maximum)
            }
        }
        return byName.values.sorted { $0.qualifiedName < $1.qualifiedName }
    }

    private func rerunNames(_ call: ActionCall) -> [String] {
        call.rerunNodes.map { builder.name(ofNode: $0) }
    }

    /// Issues per kind, in the order of ``TraceIssueKind``.
    public var issues: [IssueProfile] {
        TraceIssueKind.allCases.compactMap { issueProfiles[$0] }
    }

    /// The issues of `kind` (count 0 when none occurred).
    public func issues(of kind: TraceIssueKind) -> IssueProfile {
        issueProfiles[kind] ?? IssueProfile(kind: kind, count: 0, firstMessage: "", firstNode: "")
    }

    /// A chain as readable steps: `action TodoStore.addTodo(_:) [args]`, `TodoStore.todos changed`,
    /// `computed visibleTodos invalidated`, `computed visibleTodos reran`, … `autorun list reran`.
    func describe(_ chain: CauseLink) -> [String] {
        builder.steps(of: chain).map { step in
            switch step {
            case let .action(name, arguments, _):
                return arguments.isEmpty ? "action \(name)" : "action \(name) [\(arguments)]"
            case let .changed(name, _, _):
                return "\(name) changed"
            case let .invalidated(name, kind, cause):
                let base = "\(Self.kindWord(kind)) \(name) invalidated"
                switch cause {
                case .parent: return base + " (its parent reran)"
                case .explicit: return base + " explicitly"
                case .dependency, .stop, .runaway, .error: return base
                }
            case let .ran(name, kind, firstRun):
                return "\(Self.kindWord(kind)) \(name) " + (firstRun ? "ran (first run)" : "reran")
            case .unknown:
                return step.description
            case .elided:
                return "…"
            }
        }
    }

    private static func kindWord(_ kind: TraceNodeKind) -> String {
        kind == .computed ? "computed" : "autorun"
    }
}
