// Meteor Tracker's own test suite (packages/tracker/tracker_tests.js), ported
// case by case. Each test is named after the Tracker test it ports. Tracker
// flushes by hand in its tests, so these use `.manual` scheduling; where
// Tracker throws on misuse, Reactor reports through `issueHandler` instead.
import Dispatch
import Testing
import ReactorCore

@Suite struct TrackerTests {
    @Test("tracker - run")
    func run() {
        let reactor = Reactor(scheduler: .manual)
        let d = Dependency()
        var x = 0
        let handle = reactor.autorun { _ in
            d.depend()
            x += 1
        }
        #expect(x == 1)
        reactor.flush()
        #expect(x == 1)
        d.changed()
        #expect(x == 1)
        reactor.flush()
        #expect(x == 2)
        d.changed()
        #expect(x == 2)
        reactor.flush()
        #expect(x == 3)
        d.changed()
        // Prevent the function from running further.
        handle.stop()
        reactor.flush()
        #expect(x == 3)
        d.changed()
        reactor.flush()
        #expect(x == 3)

        reactor.autorun { internalHandle in
            d.depend()
            x += 1
            if x == 6 { internalHandle.stop() }
        }
        #expect(x == 4)
        d.changed()
        reactor.flush()
        #expect(x == 5)
        d.changed()
        // Increment to 6 and stop.
        reactor.flush()
        #expect(x == 6)
        d.changed()
        reactor.flush()
        // Still 6!
        #expect(x == 6)
        // Tracker also checks that autorun() without a function throws: the
        // Swift signature makes that call impossible to write.
    }

    @Test("tracker - nested run")
    func nestedRun() {
        let reactor = Reactor(scheduler: .manual)
        let a = Dependency("a"), b = Dependency("b"), c = Dependency("c")
        let d = Dependency("d"), e = Dependency("e"), f = Dependency("f")
        var buf = ""

        reactor.autorun { _ in
            a.depend()
            buf += "a"
            reactor.autorun { _ in
                b.depend()
                buf += "b"
                reactor.autorun { _ in
                    c.depend()
                    buf += "c"
                    var c2: Computation?
                    c2 = reactor.autorun { _ in
                        d.depend()
                        buf += "d"
                        reactor.autorun { _ in
                            e.depend()
                            buf += "e"
                            reactor.autorun { _ in
                                f.depend()
                                buf += "f"
                            }
                        }
                        reactor.onInvalidate { _ in
                            // only run once
                            c2?.stop()
                        }
                    }
                }
            }
            reactor.onInvalidate { c1 in c1.stop() }
        }

        func expectAndClear(_ string: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(buf == string, sourceLocation: sourceLocation)
            buf = ""
        }
        func changeAndExpect(_ dependency: Dependency, _ string: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
            dependency.changed()
            reactor.flush()
            expectAndClear(string, sourceLocation: sourceLocation)
        }
        func dependents() -> [Bool] { [a, b, c, d, e, f].map(\.hasDependents) }

        expectAndClear("abcdef")
        #expect(dependents() == [true, true, true, true, true, true])

        b.changed()
        expectAndClear("")  // didn't flush yet
        reactor.flush()
        expectAndClear("bcdef")

        c.changed()
        reactor.flush()
        expectAndClear("cdef")

        // should cause running
        changeAndExpect(e, "ef")
        changeAndExpect(f, "f")
        // invalidate inner context
        changeAndExpect(d, "")
        // no more running!
        changeAndExpect(e, "")
        changeAndExpect(f, "")
        #expect(dependents() == [true, true, true, false, false, false])

        // rerun C
        changeAndExpect(c, "cdef")
        changeAndExpect(e, "ef")
        changeAndExpect(f, "f")
        // rerun B
        changeAndExpect(b, "bcdef")
        changeAndExpect(e, "ef")
        changeAndExpect(f, "f")
        #expect(dependents() == [true, true, true, true, true, true])

        // kill A
        a.changed()
        changeAndExpect(f, "")
        changeAndExpect(e, "")
        changeAndExpect(d, "")
        changeAndExpect(c, "")
        changeAndExpect(b, "")
        changeAndExpect(a, "")
        #expect(dependents() == [false, false, false, false, false, false])
    }

    @Test("tracker - flush")
    func flush() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        var buf = ""

        let c1 = reactor.autorun { c in
            buf += "a"
            // invalidate first time
            if c.isFirstRun { c.invalidate() }
        }
        #expect(buf == "a")
        reactor.flush()
        #expect(buf == "aa")
        reactor.flush()
        #expect(buf == "aa")
        c1.stop()
        reactor.flush()
        #expect(buf == "aa")

        //////

        buf = ""
        let c2 = reactor.autorun { c in
            buf += "a"
            // invalidate first time
            if c.isFirstRun { c.invalidate() }
            reactor.onInvalidate { _ in buf += "*" }
        }
        #expect(buf == "a*")
        reactor.flush()
        #expect(buf == "a*a")
        c2.stop()
        #expect(buf == "a*a*")
        reactor.flush()
        #expect(buf == "a*a*")

        /////
        // Can flush a different run from a run;
        // no current computation in afterFlush

        buf = ""
        let c3 = reactor.autorun { c in
            buf += "a"
            // invalidate first time
            if c.isFirstRun { c.invalidate() }
            reactor.afterFlush { buf += reactor.isActive ? "1" : "0" }
        }
        reactor.afterFlush { buf += "c" }
        let c4 = reactor.autorun { _ in buf += "b" }
        reactor.flush()
        #expect(buf == "aba0c0")
        c3.stop()
        c4.stop()
        reactor.flush()
        #expect(log.issues.isEmpty)

        // cases where flush throws in Tracker, and is reported here

        var ran = false
        reactor.afterFlush {
            ran = true
            reactor.flush()  // illegal nested flush
        }
        reactor.flush()
        #expect(ran)
        #expect(log.kinds == ["nestedFlush"])

        log.removeAll()
        reactor.autorun { _ in
            reactor.flush()  // illegal to flush from a computation
        }
        #expect(log.kinds == ["flushInsideComputation"])

        log.removeAll()
        reactor.autorun { _ in
            reactor.autorun { _ in }
            reactor.flush()
        }
        #expect(log.kinds == ["flushInsideComputation"])
    }

    @Test("tracker - lifecycle")
    func lifecycle() {
        let reactor = Reactor(scheduler: .manual)
        #expect(!reactor.isActive)
        #expect(reactor.currentComputation == nil)

        var runCount = 0
        var firstRun = true
        var buf: [Int] = []
        var cbID = 1
        func makeCallback() -> () -> Void {
            let id = cbID
            cbID += 1
            return { buf.append(id) }
        }
        var shouldStop = false
        var stateSeen: [[Bool]] = []

        let c1 = reactor.autorun { c in
            stateSeen.append([reactor.isActive, reactor.currentComputation === c,
                              c.isStopped, c.isInvalidated, c.isFirstRun == firstRun])

            let onInvalidate = makeCallback()  // 1, 6, ...
            reactor.onInvalidate { _ in onInvalidate() }
            reactor.afterFlush(makeCallback())  // 2, 7, ...

            reactor.autorun { x in
                x.stop()
                let outer = makeCallback()  // 3, 8, ...
                c.onInvalidate { _ in outer() }
                let inner = makeCallback()  // 4, 9, ...
                reactor.onInvalidate { _ in inner() }
                reactor.afterFlush(makeCallback())  // 5, 10, ...
            }
            runCount += 1
            if shouldStop { c.stop() }
        }
        firstRun = false

        #expect(runCount == 1)
        #expect(buf == [4])
        c1.invalidate()
        #expect(runCount == 1)
        #expect(c1.isInvalidated)
        #expect(!c1.isStopped)
        #expect(buf == [4, 1, 3])

        reactor.flush()

        #expect(runCount == 2)
        #expect(!c1.isInvalidated)
        #expect(buf == [4, 1, 3, 9, 2, 5, 7, 10])

        // test self-stop
        buf.removeAll()
        shouldStop = true
        c1.invalidate()
        #expect(buf == [6, 8])
        reactor.flush()
        #expect(buf == [6, 8, 14, 11, 13, 12, 15])

        // Inside the body: active, current, not stopped, not invalidated, firstRun as expected.
        #expect(stateSeen.count == 3)
        for state in stateSeen { #expect(state == [true, true, false, false, true]) }
    }

    @Test("tracker - onInvalidate")
    func onInvalidate() {
        let reactor = Reactor(scheduler: .manual)
        var buf = ""
        let c1 = reactor.autorun { _ in buf += "*" }
        var wrongContext = 0

        func append(_ string: String, _ expected: Computation? = nil) -> (Computation) -> Void {
            { given in
                // Callbacks run non-reactively and receive their computation.
                if reactor.isActive || given !== (expected ?? c1) { wrongContext += 1 }
                buf += string
            }
        }

        c1.onStop(append("s"))

        c1.onInvalidate(append("a"))
        c1.onInvalidate(append("b"))
        #expect(buf == "*")
        reactor.autorun { me in
            reactor.onInvalidate(append("z", me))
            me.stop()
            #expect(buf == "*z")
            c1.invalidate()
        }
        #expect(buf == "*zab")
        c1.onInvalidate(append("c"))
        c1.onInvalidate(append("d"))
        #expect(buf == "*zabcd")
        reactor.flush()
        #expect(buf == "*zabcd*")

        // afterFlush ordering
        buf = ""
        c1.onInvalidate(append("a"))
        c1.onInvalidate(append("b"))
        reactor.afterFlush {
            append("x")(c1)
            c1.onInvalidate(append("c"))
            c1.invalidate()
            reactor.afterFlush {
                append("y")(c1)
                c1.onInvalidate(append("d"))
                c1.invalidate()
            }
        }
        reactor.afterFlush {
            append("z")(c1)
            c1.onInvalidate(append("e"))
            c1.invalidate()
        }
        #expect(buf == "")
        reactor.flush()
        #expect(buf == "xabc*ze*yd*")

        buf = ""
        c1.onInvalidate(append("m"))
        reactor.flush()
        #expect(buf == "")
        c1.stop()
        #expect(buf == "ms")  // s is from onStop
        reactor.flush()
        #expect(buf == "ms")
        c1.onStop(append("S"))
        #expect(buf == "msS")
        #expect(wrongContext == 0)
    }

    @Test("tracker - invalidate at flush time")
    func invalidateAtFlushTime() {
        // Test this sentence of the docs: Functions are guaranteed to be
        // called at a time when there are no invalidated computations that
        // need rerunning.
        let reactor = Reactor(scheduler: .manual)
        var buf: [String] = []

        reactor.afterFlush { buf.append("C") }

        // When c1 is invalidated, it invalidates c2, then stops.
        var c2: Computation?
        let c1 = reactor.autorun { c in
            if !c.isFirstRun {
                buf.append("A")
                c2?.invalidate()
                c.stop()
            }
        }
        c2 = reactor.autorun { c in
            if !c.isFirstRun {
                buf.append("B")
                c.stop()
            }
        }

        // Invalidate c1. If all goes well, the re-running of
        // c2 should happen before the afterFlush.
        c1.invalidate()
        reactor.flush()
        #expect(buf.joined() == "ABC")
    }

    @Test("tracker - throwFirstError")
    func throwFirstError() {
        // Tracker logs a later error, or throws it from flush with
        // `_throwFirstError`; Reactor reports it, and the computation lives on.
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let d = Dependency()
        let c = reactor.autorun { c in
            d.depend()
            if !c.isFirstRun { throw TestError("foo") }
        }
        d.changed()
        reactor.flush()
        #expect(log.kinds == ["uncaughtError"])
        #expect(log.issues.first?.uncaughtError as? TestError == TestError("foo"))

        d.changed()
        reactor.flush()
        #expect(log.kinds == ["uncaughtError", "uncaughtError"])
        #expect(log.issues.last?.uncaughtError as? TestError == TestError("foo"))
        if case let .uncaughtError(_, computation) = log.issues.last {
            #expect(computation === c)
        }
        #expect(!c.isStopped)
    }

    @Test("tracker - no infinite recomputation")
    func noInfiniteRecomputation() {
        // Tracker's automatic flush yields to the event loop every 1000 reruns,
        // so a computation that always invalidates itself does not hang the page.
        // Reactor's flush returns too: it stops the computation at the runaway
        // limit and reports it. The flush runs on its own queue, as Tracker's
        // runs from setTimeout.
        let queue = DispatchQueue(label: "tracker - no infinite recomputation")
        let reactor = Reactor(scheduler: .dispatch(queue))
        let reported = DispatchSemaphore(value: 0)
        let log = IssueLog(reactor)
        reactor.issueHandler = { [log] issue in
            log.append(issue)
            reported.signal()
        }

        queue.suspend()  // so that nothing reruns before the first check
        var reran = false
        var runs = 0
        let c = reactor.autorun { c in
            runs += 1
            if !c.isFirstRun { reran = true }
            c.invalidate()
        }
        #expect(!reran)
        queue.resume()

        #expect(reported.wait(timeout: .now() + 60) == .success)
        c.stop()
        let done = DispatchSemaphore(value: 0)
        var seenInAfterFlush: (reran: Bool, stopped: Bool)?
        reactor.afterFlush {
            seenInAfterFlush = (reran, c.isStopped)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(seenInAfterFlush?.reran == true)
        #expect(seenInAfterFlush?.stopped == true)
        #expect(log.kinds == ["runaway"])
        if case let .runaway(computation, reruns) = log.issues.first {
            #expect(computation === c)
            #expect(reruns == 10_000)
        }
        #expect(runs == 10_001)
    }

    @Test("tracker - Tracker.flush finishes")
    func flushFinishes() {
        // Tracker's _runFlush "yields" every 1000 computations unless run by
        // Tracker.flush: Tracker.flush must be able to run 2000 of them.
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        var n = 0
        reactor.autorun { c in
            n += 1
            if n < 2000 { c.invalidate() }
        }
        #expect(n == 1)
        reactor.flush()
        #expect(n == 2000)
        #expect(log.issues.isEmpty)
    }

    @Test("tracker - Tracker.autorun, onError option")
    func autorunOnErrorOption() {
        let reactor = Reactor(scheduler: .manual)
        let log = IssueLog(reactor)
        let d = Dependency()
        var errors: [String] = []
        let c = reactor.autorun(onError: { errors.append("\($0)") }) { c in
            d.depend()
            if !c.isFirstRun { throw TestError("foo") }
        }
        d.changed()
        reactor.flush()
        #expect(errors == ["foo"])
        #expect(log.issues.isEmpty)
        #expect(!c.isStopped)
    }

    @Test("tracker - async function - basics")
    func asyncFunctionBasics() async {
        // Inside the body the computation is current and firstRun is true;
        // outside, nothing is current and firstRun is false. The part after
        // Tracker's awaits is a Task that re-enters with `withComputation`
        // (see TrackerAsyncTests for the other async cases).
        let reactor = Reactor(scheduler: .manual)
        var inside: (firstRun: Bool, current: Bool)?
        var afterAwait: Task<(firstRun: Bool, current: Bool), Never>?
        let computation = reactor.autorun { computation in
            inside = (computation.isFirstRun, reactor.currentComputation === computation)
            afterAwait = Task {
                await Task.yield()
                return reactor.withComputation(computation) {
                    (computation.isFirstRun, reactor.currentComputation === computation)
                }
            }
        }
        #expect(inside?.firstRun == true)
        #expect(inside?.current == true)
        #expect(reactor.currentComputation == nil)
        #expect(!computation.isFirstRun)
        let after = await afterAwait?.value
        #expect(after?.firstRun == false)
        #expect(after?.current == true)
    }

    @Test("tracker - async function - synchronize - firstRunPromise")
    func synchronizeFirstRunPromise() {
        // Tracker awaits `firstRunPromise` for the first run to finish; Reactor's
        // autorun returns only once it has, so the second autorun sees the
        // first one's complete effect.
        let reactor = Reactor(scheduler: .manual)
        var counter = 0
        var seen: [Int] = []
        reactor.autorun { _ in
            seen.append(counter)
            counter += 1
            seen.append(counter)
            counter *= 2
            seen.append(counter)
        }
        reactor.autorun { _ in
            seen.append(counter)
            counter += 1
            seen.append(counter)
            counter *= 2
            seen.append(counter)
        }
        #expect(seen == [0, 1, 2, 2, 3, 6])
    }

    @Test("computation - #flush")
    func computationFlush() {
        let reactor = Reactor(scheduler: .manual)
        var i = 0, j = 0
        let d = Dependency()
        let c1 = reactor.autorun { _ in
            d.depend()
            i += 1
        }
        reactor.autorun { _ in
            d.depend()
            j += 1
        }
        #expect(i == 1)
        #expect(j == 1)

        d.changed()
        c1.flush()
        #expect(i == 2)
        #expect(j == 1)

        reactor.flush()
        #expect(i == 2)
        #expect(j == 2)
    }

    @Test("computation - #run")
    func computationRun() {
        let reactor = Reactor(scheduler: .manual)
        var i = 0
        let d = Dependency(), d2 = Dependency()
        let computation = reactor.autorun { _ in
            d.depend()
            i += 1
            // when run() is called, this dependency should be picked up
            if i >= 2 && i < 4 { d2.depend() }
        }
        #expect(i == 1)
        computation.run()
        #expect(i == 2)

        d.changed()
        reactor.flush()
        #expect(i == 3)

        // we expect to depend on d2 at this point
        d2.changed()
        reactor.flush()
        #expect(i == 4)

        // we no longer depend on d2, only d
        d2.changed()
        reactor.flush()
        #expect(i == 4)
        d.changed()
        reactor.flush()
        #expect(i == 5)
    }
}
