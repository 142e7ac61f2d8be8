import ReactorCore

/// Owns one case's ReactorCore runtime and effects, and stops the effects when
/// the case goes away (a running autorun is kept alive by its dependencies).
final class ReactorHarness {
    let reactor = Reactor(scheduler: .endOfBatch)
    let counter = EffectCounter()
    private var effects: [Computation] = []

    /// An autorun that runs `body` and counts its runs (the JS cases' `effect`).
    func effect(_ body: @escaping () -> Void) {
        let counter = counter
        effects.append(reactor.autorun { _ in
            body()
            counter.runs += 1
        })
    }

    deinit {
        for effect in effects { effect.stop() }
    }
}
