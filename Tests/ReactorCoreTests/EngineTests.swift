import Testing
import ReactorCore

/// A reactive integer for the engine tests.
private final class Source {
    @Reactive var value = 0
}

/// What the propagation engine guarantees beyond Tracker's semantics: the
/// depth of a graph costs no stack, and a body may stop its own computation.
@Suite struct EngineTests {
    /// A chain far deeper than a recursive refresh could walk on a thread's
    /// stack: each computed is first computed as it is made (its source is
    /// clean then), so only the refresh after a write walks the whole chain.
    @Test func aVeryDeepChainRefreshesWithoutRecursion() {
        let reactor = Reactor()
        let source = Source()
        let length = 100_000
        var chain = [reactor.computed { source.value + 1 }]
        chain.reserveCapacity(length)
        for _ in 1..<length {
            let previous = chain[chain.count - 1]
            let next = reactor.computed { previous.value + 1 }
            _ = next.value
            chain.append(next)
        }
        var seen: [Int] = []
        do {
            let last = chain[length - 1]
            let effect = reactor.autorun { _ in seen.append(last.value) }
            source.value = 1
            source.value = 2
            effect.stop()
        }
        #expect(seen == [length, length + 1, length + 2])
        // Released from the end, with no other reference left: each computed's
        // body holds the one before it, which the array still holds, so each
        // release frees one computed (releasing the last of a chain held only
        // by its successors would free them all recursively).
        while !chain.isEmpty { chain.removeLast() }
    }

    /// A body that stops its own computation goes on running what it
    /// captured; the capture is released once the operation ends.
    @Test func aBodyThatStopsItsComputationKeepsItsCapturesUntilItReturns() {
        final class Token { var uses = 0 }
        let reactor = Reactor(scheduler: .manual)
        let source = Source()
        weak var weakToken: Token?
        var usesAfterStop = 0
        let computation: Computation
        do {
            let token = Token()
            weakToken = token
            computation = reactor.autorun { computation in
                if source.value > 0 {
                    computation.stop()
                    token.uses += 1
                    usesAfterStop = token.uses
                }
            }
        }
        source.value = 1
        #expect(weakToken != nil)
        reactor.flush()
        #expect(computation.isStopped)
        #expect(usesAfterStop == 1)
        #expect(weakToken == nil)
    }
}
