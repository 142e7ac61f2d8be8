import Testing
import ReactorCore

@Suite struct SmokeTests {
    @Test func autorunRerunsOnChange() {
        let reactor = Reactor(scheduler: .manual)
        let dep = Dependency("x")
        var runs = 0
        reactor.autorun { _ in dep.depend(); runs += 1 }
        #expect(runs == 1)
        dep.changed()
        #expect(runs == 1)
        reactor.flush()
        #expect(runs == 2)
    }
}
