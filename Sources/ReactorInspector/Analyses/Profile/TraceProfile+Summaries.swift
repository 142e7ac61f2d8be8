import ReactorTraceFormat

extension TraceProfile {
    /// Every computation name in the trace, with its counts and times, sorted by name.
    /// A computation that was created but never ran (a computed nobody read) is
    /// listed with zero runs, so that `diff` tells "no longer runs" from "gone".
    public var computations: [ComputationProfile] {
        // The figures are the model's (the one count every view shares); this
        // profile adds only the causal chains of the slowest and latest reruns.
        let model = self.model
        var byName: [String: (profile: ComputationProfile, slowest: CauseStep?, slowestNanoseconds: UInt64,
                              latest: CauseStep?, latestRun: Int)] = [:]
        for node in model.nodes where node.isComputation {
            let name = self.name(of: node.id)
            let counter = causes[node.id] ?? RerunCauses()
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
                byName[name] = entry
            } else {
                let profile = ComputationProfile(name: name, kind: node.kind.label,
                                                 instances: 1, stats: node.runs, site: node.site)
                byName[name] = (profile, counter.slowest, maxRerun, counter.latest, reruns)
            }
        }
        return byName.values.map { entry in
            var profile = entry.profile
            profile.slowestRerunCause = entry.slowest.map(describe) ?? []
            profile.latestRerunCause = entry.latest.map(describe) ?? []
            return profile
        }.sorted { $0.name < $1.name }
    }

    /// Every action name that ran, grouped by `Store.action`, sorted by that name.
    public var actions: [ActionProfile] {
        var byName: [String: ActionProfile] = [:]
        for aggregate in actionAggregates.values {
            let qualified = qualifiedName(store: aggregate.store, action: aggregate.name)
            if var profile = byName[qualified] {
                profile.invocations += aggregate.invocations
                profile.rerunsCaused += aggregate.rerunsCaused
                if aggregate.maxRerunsPerInvocation > profile.maxRerunsPerInvocation {
                    profile.maxRerunsPerInvocation = aggregate.maxRerunsPerInvocation
                    profile.worstInvocationArguments = aggregate.worstInvocation?.arguments ?? ""
                    profile.worstInvocationReruns = rerunNames(aggregate.worstInvocation)
                }
                profile.totalNanoseconds += aggregate.totalNanoseconds
                profile.maxNanoseconds = max(profile.maxNanoseconds, aggregate.maxNanoseconds)
                byName[qualified] = profile
            } else {
                byName[qualified] = ActionProfile(
                    qualifiedName: qualified, store: aggregate.store == 0 ? "" : name(of: aggregate.store),
                    name: aggregate.name, invocations: aggregate.invocations, rerunsCaused: aggregate.rerunsCaused,
                    maxRerunsPerInvocation: aggregate.maxRerunsPerInvocation,
                    worstInvocationArguments: aggregate.worstInvocation?.arguments ?? "",
                    worstInvocationReruns: rerunNames(aggregate.worstInvocation),
                    totalNanoseconds: aggregate.totalNanoseconds, maxNanoseconds: aggregate.maxNanoseconds)
            }
        }
        return byName.values.sorted { $0.qualifiedName < $1.qualifiedName }
    }

    private func rerunNames(_ invocation: ActionInvocation?) -> [String] {
        invocation?.rerunComputations.map { name(of: $0) } ?? []
    }

    /// Issues per kind, in the order of ``TraceIssueKind``.
    public var issues: [IssueProfile] {
        TraceIssueKind.allCases.compactMap { issueProfiles[$0] }
    }

    /// The issues of `kind` (count 0 when none occurred).
    public func issues(of kind: TraceIssueKind) -> IssueProfile {
        issueProfiles[kind] ?? IssueProfile(kind: kind, count: 0, firstMessage: "", firstNode: "")
    }

    /// A chain as readable steps: `action TodoStore.addTodo(_:)`, `TodoStore.todos changed`,
    /// `computed visibleTodos invalidated`, `computed visibleTodos reran`, … `autorun list reran`.
    func describe(_ chain: CauseStep) -> [String] {
        let links = chain.links
        var steps: [String] = []
        for link in links {
            switch link {
            case .action(let store, let name, let arguments):
                let qualified = qualifiedName(store: store, action: name)
                steps.append(arguments.isEmpty ? "action \(qualified)" : "action \(qualified) [\(arguments)]")
            case .changed(let dependency):
                steps.append("\(name(of: dependency)) changed")
            case .invalidated(let computation, let cause):
                let base = "\(kindWord(computation)) \(name(of: computation)) invalidated"
                switch cause {
                case .parent: steps.append(base + " (its parent reran)")
                case .explicit: steps.append(base + " explicitly")
                case .dependency, .stop, .runaway, .error: steps.append(base)
                }
            case .reran(let computation):
                steps.append("\(kindWord(computation)) \(name(of: computation)) reran")
            case .elided:
                steps.append("…")
            }
        }
        return steps
    }

    private func kindWord(_ id: UInt64) -> String {
        model.node(id)?.kind == .computed ? "computed" : "autorun"
    }
}
