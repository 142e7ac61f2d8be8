import Testing
import ReactorCore

/// Orders that Tracker's implementation fixes beyond its test suite.
@Suite struct TrackerOrderTests {
    @Test func dependentsAreInvalidatedInCreationOrder() {
        // Tracker keeps a dependency's dependents in an object keyed by
        // computation id, so `changed()` invalidates them in creation order,
        // whatever order they depended in.
        let reactor = Reactor(scheduler: .manual)
        let shared = Dependency("shared"), onlyFirst = Dependency("onlyFirst")
        var order: [String] = []
        let first = reactor.autorun { c in
            shared.depend()
            onlyFirst.depend()
            c.onInvalidate { _ in order.append("invalidate first") }
            if !c.isFirstRun { order.append("run first") }
        }
        let second = reactor.autorun { c in
            shared.depend()
            c.onInvalidate { _ in order.append("invalidate second") }
            if !c.isFirstRun { order.append("run second") }
        }
        // first reruns alone, so it depends on `shared` again after second did.
        onlyFirst.changed()
        reactor.flush()
        order.removeAll()
        shared.changed()
        reactor.flush()
        #expect(order == ["invalidate first", "invalidate second", "run first", "run second"])
        first.stop()
        second.stop()
    }

    @Test func onInvalidateCallbacksRunInRegistrationOrderThenOnStop() {
        let reactor = Reactor(scheduler: .manual)
        var order: [Int] = []
        let computation = reactor.autorun { c in
            c.onStop { _ in order.append(3) }
            c.onInvalidate { _ in order.append(1) }
            reactor.onInvalidate { _ in order.append(2) }
            c.onStop { _ in order.append(4) }
        }
        computation.stop()
        #expect(order == [1, 2, 3, 4])
    }

    @Test func pendingComputationsRerunInInvalidationOrder() {
        let reactor = Reactor(scheduler: .manual)
        var order: [String] = []
        let a = reactor.autorun { c in if !c.isFirstRun { order.append("a") } }
        let b = reactor.autorun { c in if !c.isFirstRun { order.append("b") } }
        let c = reactor.autorun { c in if !c.isFirstRun { order.append("c") } }
        c.invalidate()
        a.invalidate()
        b.invalidate()
        reactor.flush()
        #expect(order == ["c", "a", "b"])
    }
}
