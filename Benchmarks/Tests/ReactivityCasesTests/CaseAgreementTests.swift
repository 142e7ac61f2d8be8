import Testing
@testable import ReactivityCases

/// Every implementation of every case computes the same values, so that the
/// benchmark compares equal work; the glitch-free ones also run their effects
/// exactly as often as a change reaches them.
@Suite("Case agreement")
struct CaseAgreementTests {
    @Test("Every measured implementation reads and ends with the baseline's values",
          arguments: CaseDefinition.all)
    func implementationsAgree(_ definition: CaseDefinition) {
        let baseline = definition.make(.baseline)
        let expectedChecksums = [baseline.run(), baseline.run(), baseline.run()]
        let expectedSnapshot = baseline.snapshot()
        for implementation in definition.implementations where implementation != .baseline {
            let instance = definition.make(implementation)
            #expect([instance.run(), instance.run(), instance.run()] == expectedChecksums,
                    "\(definition.name) \(implementation)")
            #expect(instance.snapshot() == expectedSnapshot, "\(definition.name) \(implementation)")
        }
    }

    @Test("ReactorCore runs each effect once per change, as the glitch-free baseline does",
          arguments: CaseDefinition.all)
    func reactorCoreIsGlitchFree(_ definition: CaseDefinition) {
        let reactor = definition.make(.reactorCore)
        let baseline = definition.make(.baseline)
        #expect(reactor.effectRuns == baseline.effectRuns, "\(definition.name) first runs")
        _ = reactor.run()
        _ = baseline.run()
        #expect(reactor.effectRuns == baseline.effectRuns, "\(definition.name) after one run")
    }

    @Test("The plain map chains run each sink once per write, as the baseline runs its effects",
          arguments: CaseDefinition.all.filter { $0.implementations.contains(.openCombineMapChain) })
    func mapChainRunsEachSinkOncePerWrite(_ definition: CaseDefinition) {
        let chain = definition.make(.openCombineMapChain)
        let baseline = definition.make(.baseline)
        #expect(chain.effectRuns == baseline.effectRuns, "\(definition.name) first runs")
        _ = chain.run()
        _ = baseline.run()
        #expect(chain.effectRuns == baseline.effectRuns, "\(definition.name) after one run")
    }

    @Test("Deep and broad have the plain map chain as their peer; the cases with joins do not")
    func mapChainIsThePeerOfDeepAndBroad() {
        let withChain = CaseDefinition.all.filter { $0.implementations.contains(.openCombineMapChain) }.map(\.name)
        #expect(withChain == ["deepPropagation", "broadPropagation"])
    }

    @Test("Triangle's effect runs once per batch, as the JS case asserts")
    func triangleCountsOneEffectRunPerBatch() {
        let triangle = Triangle.make(.reactorCore)
        let before = triangle.effectRuns
        _ = triangle.run()
        #expect(triangle.effectRuns - before == Triangle.writes + 1)
    }

    @Test("OpenCombine's cellx agrees on small graphs, where its glitches stay affordable",
          arguments: [2, 5, 10])
    func openCombineCellxAgreesOnSmallGraphs(_ layers: Int) {
        let combine = Cellx.make(.openCombine, layers: layers)
        let baseline = Cellx.make(.baseline, layers: layers)
        #expect([combine.run(), combine.run()] == [baseline.run(), baseline.run()])
        #expect(combine.snapshot() == baseline.snapshot())
        // Not glitch-free: more effect runs than changes.
        #expect(combine.effectRuns > baseline.effectRuns)
    }

    @Test("cellx ends as the published JS expectations say")
    func cellxMatchesPublishedValues() {
        #expect(Cellx.endValues(layers: 1000, sources: Cellx.initial) == [-3, -6, -2, 2])
        #expect(Cellx.endValues(layers: 1000, sources: Cellx.written) == [-2, -4, 2, 3])
        #expect(Cellx.endValues(layers: 2500, sources: Cellx.initial) == [-3, -6, -2, 2])
        #expect(Cellx.endValues(layers: 2500, sources: Cellx.written) == [-2, -4, 2, 3])
        #expect(Cellx.endValues(layers: 5000, sources: Cellx.initial) == [2, 4, -1, -6])
        #expect(Cellx.endValues(layers: 5000, sources: Cellx.written) == [-2, 1, -4, -4])
    }
}
