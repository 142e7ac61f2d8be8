#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
import ReactorCore
import TracerSlot

/// Settings with a secret token and a plain user name, as an app writes them.
final class AuthSettings: @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive(redacted: true) var apiToken = "tok-SECRET"
    @Reactive var userName = "ada"
}

/// A store whose `use(_:)` action takes what an autorun hands it.
final class HeaderStore: Store, @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive var header = ""

    func use(_ header: String) {
        action(header) { self.header = header }
    }
}

// Members of the serialized `TracerTests` suite (they install the process-wide tracer).
// Each test follows one path along which a secret flows into what a run produces.
extension TracerTests {
    func valueTexts(_ tracer: SignalTraceRecorder, of node: UInt64) -> [String] {
        tracer.events.compactMap { if case let .value(id, text) = $0, id == node { text } else { nil } }
    }

    func noValueContains(_ tracer: SignalTraceRecorder, _ secret: String) -> Bool {
        !tracer.events.contains { event in
            switch event {
            case let .value(_, text): text.contains(secret)
            case let .actionBegan(_, _, arguments): arguments.contains(secret)
            default: false
            }
        }
    }

    func installValues() -> SignalTraceRecorder {
        let tracer = SignalTraceRecorder(valueLengthLimit: 200)
        ReactorTracing.install(tracer)
        return tracer
    }

    @Test func aComputedThatReadsASecretHasASecretValueAndItsReadersToo() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let header = reactor.computed("authHeader") { "Bearer \(settings.apiToken)" }
        let request = reactor.computed("request") { "GET / \(header.value)" }
        let greeting = reactor.computed("greeting") { "Hi \(settings.userName)" }
        let reader = reactor.autorun { _ in _ = request.value; _ = greeting.value }
        settings.apiToken = "tok-OTHER"
        reactor.flush()
        #expect(valueTexts(tracer, of: header.id) == ["‹redacted›", "‹redacted›"])
        #expect(valueTexts(tracer, of: request.id) == ["‹redacted›", "‹redacted›"])
        #expect(valueTexts(tracer, of: greeting.id) == ["\"Hi ada\""])
        #expect(noValueContains(tracer, "SECRET") && noValueContains(tracer, "OTHER"))
        reader.stop()
    }

    @Test func aComputedThatStopsReadingTheSecretIsClearAgain() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let showToken = ReactiveProperty(initialValue: true)
        let label = reactor.computed("label") { showToken.value ? settings.apiToken : "hidden by \(settings.userName)" }
        let reader = reactor.autorun { _ in _ = label.value }
        showToken.value = false
        reactor.flush()
        #expect(valueTexts(tracer, of: label.id) == ["‹redacted›", "\"hidden by ada\""])
        reader.stop()
    }

    @Test func anAutorunCopyingASecretMakesThePropertySecretUntilAClearWrite() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let copy = ReactiveProperty(initialValue: "")
        let copier = reactor.autorun("copier") { _ in copy.value = "Bearer " + settings.apiToken }
        // The copy is now a secret: a run reading it produces secrets.
        let shout = reactor.computed("shout") { copy.value.uppercased() }
        let reader = reactor.autorun { _ in _ = shout.value }
        copier.stop()
        copy.value = "plain words"  // written by plain code: clear again
        reactor.flush()
        #expect(valueTexts(tracer, of: copy.id) == ["\"\"", "‹redacted›", "\"plain words\""])
        #expect(valueTexts(tracer, of: shout.id) == ["‹redacted›", "\"PLAIN WORDS\""])
        #expect(noValueContains(tracer, "SECRET"))
        reader.stop()
    }

    @Test func anAutorunSendingASecretToASubjectSendsASecret() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let subject = PassthroughSubject<String>(name: "outgoing")
        let behavior = BehaviorSubject(value: "start")
        let sender = reactor.autorun { _ in
            subject.send(settings.apiToken)
            behavior.send(settings.apiToken.lowercased())
        }
        // A later subscriber to the behavior subject gets the secret it holds:
        // what it writes with it is a secret too.
        let sink = ReactiveProperty(initialValue: "")
        let subscription = behavior.signal.subscribe { sink.value = $0 }
        #expect(valueTexts(tracer, of: subject.id) == ["‹redacted›"])
        #expect(valueTexts(tracer, of: behavior.id) == ["\"start\"", "‹redacted›"])
        #expect(valueTexts(tracer, of: sink.id) == ["\"\"", "‹redacted›"])
        #expect(noValueContains(tracer, "SECRET") && noValueContains(tracer, "secret"))
        subscription.cancel()
        sender.stop()
    }

    @Test func whatASecretSubjectDeliversIsASecretWhereverItIsWritten() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let passwords = PassthroughSubject<String>(name: "password", redacted: true)
        let target = ReactiveProperty(initialValue: "none")
        let binding = passwords.signal.map { "masked? no: \($0)" }.bind(to: target)
        passwords.send("pw-SECRET")
        #expect(valueTexts(tracer, of: target.id) == ["\"none\"", "‹redacted›"])
        #expect(noValueContains(tracer, "SECRET"))
        binding.cancel()
    }

    @Test func aSignalOfASecretExpressionDeliversSecrets() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let target = ReactiveProperty(initialValue: "")
        let subscription = reactor.signal("token signal") { settings.apiToken }.subscribe { target.value = $0 }
        settings.apiToken = "tok-NEXT-SECRET"
        #expect(valueTexts(tracer, of: target.id) == ["\"\"", "‹redacted›", "‹redacted›"])
        #expect(noValueContains(tracer, "SECRET"))
        subscription.cancel()
    }

    @Test func theActionsAnAutorunCallsAfterReadingASecretHaveSecretArguments() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let store = HeaderStore()
        let caller = reactor.autorun { _ in store.use("Bearer \(settings.apiToken)") }
        store.use("plain")
        let arguments = tracer.events.compactMap { if case let .actionBegan(_, "use(_:)", arguments) = $0 { arguments } else { nil } }
        #expect(arguments == ["‹redacted›", "\"plain\""])
        // The action's body ran inside the run: its write is a secret too.
        #expect(valueTexts(tracer, of: store.$header.projectedDependency.id) == ["\"\"", "‹redacted›", "\"plain\""])
        #expect(noValueContains(tracer, "SECRET"))
        caller.stop()
    }

    @Test func readingARedactedValueInARunMakesItsProductsSecret() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let credentials = ReactiveProperty(initialValue: Redacted("pw-SECRET"))
        let length = reactor.computed("length") { credentials.value.value.count }
        let reader = reactor.autorun { _ in _ = length.value }
        #expect(valueTexts(tracer, of: credentials.id) == ["‹redacted›"])
        #expect(valueTexts(tracer, of: length.id) == ["‹redacted›"])
        reader.stop()
    }

    @Test func revealsDeclassifiesAndRedactedMarksAComputed() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let isLoggedIn = reactor.computed("isLoggedIn", reveals: true) { !settings.apiToken.isEmpty }
        let internalID = reactor.computed("internalID", redacted: true) { "id-\(settings.userName)" }
        let flagCopy = ReactiveProperty(initialValue: false)
        let revealing = reactor.autorun(reveals: true) { _ in flagCopy.value = settings.apiToken.count > 3 }
        let derived = reactor.computed("derivedFromMarked") { internalID.value + "!" }
        let reader = reactor.autorun { _ in _ = isLoggedIn.value; _ = derived.value }
        #expect(valueTexts(tracer, of: isLoggedIn.id) == ["true"])
        #expect(valueTexts(tracer, of: flagCopy.id) == ["false", "true"])
        #expect(valueTexts(tracer, of: internalID.id) == ["‹redacted›"])
        #expect(valueTexts(tracer, of: derived.id) == ["‹redacted›"])
        reader.stop()
        revealing.stop()
    }

    @Test func writesOutsideAnyRunAreSecretOnlyWhenMarked() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let settings = AuthSettings()
        let plain = ReactiveProperty(initialValue: "")
        // Plain code copying a secret is not followed: mark the target, or wrap it.
        plain.value = "copied"
        settings.apiToken = "tok-2"
        #expect(valueTexts(tracer, of: plain.id) == ["\"\"", "\"copied\""])
        #expect(valueTexts(tracer, of: settings.$apiToken.projectedDependency.id) == ["‹redacted›", "‹redacted›"])
    }

    @Test func aTimeOperatorKeepsTheSecrecyOfTheValueItHolds() async {
        let tracer = SignalTraceRecorder(allThreads: true, valueLengthLimit: 200)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let clock = ManualClock()
        let passwords = PassthroughSubject<String>(name: "password", redacted: true)
        let probe = EventProbe<String>()
        let target = ReactiveProperty(initialValue: "")
        let subscription = probe.subscribe(passwords.signal.debounce(for: .seconds(1), clock: clock).map {
            target.value = $0  // written when the timer fires, from the value it held
            return $0
        })
        passwords.send("pw-SECRET")
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(1))
        #expect(await probe.next() == .value("pw-SECRET"))
        #expect(valueTexts(tracer, of: target.id) == ["\"\"", "‹redacted›"])
        subscription.cancel()
    }
}

// Bad input: a secret that is huge or not text, and one handed to an action
// from inside an autorun.
extension TracerTests {
    @Test func aHugeOrNonUTF8RedactedValueIsNeitherDescribedNorLeaked() {
        let tracer = SignalTraceRecorder(valueLengthLimit: 4096)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let huge = ReactiveProperty(initialValue: Redacted(String(repeating: "HUGE-SECRET-", count: 400_000)))
        let bytes = ReactiveProperty(initialValue: Redacted([UInt8]([0xFF, 0xFE, 0xC3, 0x28, 0x80]) + Array("RAW-SECRET".utf8)))
        let joined = reactor.computed("joined") {
            String(huge.value.value.suffix(24)) + String(decoding: bytes.value.value, as: UTF8.self)
        }
        let size = reactor.computed("size", reveals: true) { huge.value.value.utf8.count }
        let reader = reactor.autorun { _ in _ = joined.value; _ = size.value }
        bytes.value = Redacted([0xED, 0xA0, 0x80] + Array("NEXT-SECRET".utf8))
        let texts = tracer.events.compactMap { if case let .value(_, text) = $0 { text } else { nil } }
        #expect(!texts.contains { $0.contains("SECRET") || $0.contains("\u{FFFD}") })
        #expect(texts.allSatisfy { $0.utf8.count <= 4096 })
        #expect(valueTexts(tracer, of: joined.id) == ["‹redacted›", "‹redacted›"])
        #expect(valueTexts(tracer, of: size.id) == ["4800000"])
        reader.stop()
    }

    @Test func aSecretActionArgumentCalledInsideAnAutorunLeaksNothing() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let session = SessionStore()
        let attempts = ReactiveProperty(initialValue: 0, name: "attempts")
        let after = ReactiveProperty(initialValue: "", name: "after")
        let autorun = reactor.autorun("login on attempt") { _ in
            session.login("ada-\(attempts.value)", Redacted("pw-SECRET-\(attempts.value)"))
            // The action's body read the Redacted's value and handed nothing
            // back: what the run writes next is as clear as what it read.
            after.value = "attempt \(attempts.value)"
        }
        attempts.value = 1
        let arguments = tracer.events.compactMap { if case let .actionBegan(_, "login(_:_:)", arguments) = $0 { arguments } else { nil } }
        #expect(arguments == ["\"ada-0\", ‹redacted›", "\"ada-1\", ‹redacted›"])
        #expect(valueTexts(tracer, of: session.$token.projectedDependency.id).allSatisfy { $0 == "‹redacted›" })
        #expect(valueTexts(tracer, of: after.id) == ["\"\"", "\"attempt 0\"", "\"attempt 1\""])
        #expect(noValueContains(tracer, "SECRET"))
        autorun.stop()
    }
}

/// An error whose text holds what the run read.
struct TokenRejected: Error, CustomStringConvertible {
    let token: String
    var description: String { "server rejected \(token)" }
}

/// Records the issue messages of the thread that installed it, with values on.
final class IssueMessageTracer: IgnoringTracer {
    let messages = Mutex<[String]>([])
    var valueLengthLimit: Int { 200 }
    private let thread = pthread_self()
    func issue(_ kind: ReactorTracing.IssueKind, node: UInt64, message: String) {
        guard pthread_equal(pthread_self(), thread) != 0 else { return }
        messages.withLock { $0.append(message) }
    }
}

extension TracerTests {
    @Test func anErrorThrownByARunThatReadASecretIsWithheldFromTheIssueMessage() {
        let tracer = IssueMessageTracer()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        reactor.issueHandler = { _ in }
        let settings = AuthSettings()
        let other = ReactiveProperty(initialValue: "visible-text")
        reactor.autorun("uses token") { _ in throw TokenRejected(token: settings.apiToken) }
        reactor.autorun("uses other") { _ in throw TokenRejected(token: other.value) }
        #expect(tracer.messages.withLock { $0 } == [
            "computation 'uses token' threw ‹redacted›; pass onError: to autorun to handle it",
            "computation 'uses other' threw server rejected visible-text; pass onError: to autorun to handle it",
        ])
    }
}

/// A store whose actions read the settings' secret in their bodies.
final class TokenStore: Store, @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive var header = ""
    @Reactive var refreshes = 0
    let settings: AuthSettings

    init(settings: AuthSettings) {
        self.settings = settings
        super.init()
    }

    /// Reads the token in its body and hands back something derived from it.
    func bearer() -> String {
        action { "Bearer \(settings.apiToken)" }
    }

    /// Reads the token in its body and hands nothing back.
    func countRefresh() {
        action {
            if !settings.apiToken.isEmpty { refreshes += 1 }
        }
    }

    /// Writes what it was given.
    func use(_ header: String) {
        action(header) { self.header = header }
    }
}

// Secrets read where a run does not track its reads: `nonreactive {}`, an
// action's body, and the values a `for await … in reactor.changes` loop takes.
extension TracerTests {
    @Test func aSecretReadInNonreactiveInsideARunMakesItsProductsSecret() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let header = reactor.computed("authHeader") { "Bearer \(settings.apiToken)" }
        let credentials = ReactiveProperty(initialValue: Redacted("pw-SECRET"))
        let trigger = ReactiveProperty(initialValue: 0)
        let fromNode = ReactiveProperty(initialValue: "")
        let fromComputed = ReactiveProperty(initialValue: "")
        let fromRedacted = ReactiveProperty(initialValue: "")
        let untouched = ReactiveProperty(initialValue: "")
        var activeInside: [Bool] = []
        let writer = reactor.autorun("writer") { _ in
            let round = trigger.value
            untouched.value = "round \(round)"  // before any secret: clear
            let token = reactor.nonreactive { settings.apiToken }
            activeInside.append(reactor.nonreactive { reactor.isActive })
            fromNode.value = "copy of \(token)"
        }
        let computedWriter = reactor.autorun("computed writer") { _ in
            _ = trigger.value
            fromComputed.value = reactor.nonreactive { header.value } + "!"
        }
        let redactedWriter = reactor.autorun("redacted writer") { _ in
            _ = trigger.value
            fromRedacted.value = reactor.nonreactive { credentials.value.value }.uppercased()
        }
        trigger.value = 1
        // Read untracked: a change of the token reruns none of them.
        settings.apiToken = "tok-LATER"
        #expect(valueTexts(tracer, of: fromNode.id) == ["\"\"", "‹redacted›", "‹redacted›"])
        #expect(valueTexts(tracer, of: fromComputed.id) == ["\"\"", "‹redacted›", "‹redacted›"])
        #expect(valueTexts(tracer, of: fromRedacted.id) == ["\"\"", "‹redacted›", "‹redacted›"])
        #expect(valueTexts(tracer, of: untouched.id) == ["\"\"", "\"round 0\"", "\"round 1\""])
        #expect(activeInside == [false, false])
        let tokenID = settings.$apiToken.projectedDependency.id
        let writers = [writer.id, computedWriter.id, redactedWriter.id]
        #expect(!tracer.events.contains { if case let .depend(reader, dependency) = $0 { writers.contains(reader) && dependency == tokenID } else { false } })
        #expect(noValueContains(tracer, "SECRET") && noValueContains(tracer, "tok-"))
        writer.stop()
        computedWriter.stop()
        redactedWriter.stop()
    }

    @Test func followingSecretsChangesNoDependencyOfANonreactiveBlock() {
        _ = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let untracked = ReactiveProperty(initialValue: 0, name: "untracked")
        let tracked = ReactiveProperty(initialValue: 0, name: "tracked again")
        var runs = 0
        let autorun = reactor.autorun("reader") { computation in
            runs += 1
            reactor.nonreactive {
                _ = untracked.value
                // Made current again inside its own nonreactive block: tracked.
                reactor.withComputation(computation) { _ = tracked.value }
            }
        }
        untracked.value = 1
        reactor.flush()
        #expect(runs == 1)
        tracked.value = 1
        reactor.flush()
        #expect(runs == 2)
        autorun.stop()
    }

    /// `dependency.depend(computation)` names its computation: inside that computation's own
    /// nonreactive block it links, with values recorded as with no tracer.
    @Test func anExplicitDependInsideANonreactiveBlockLinksAsWithoutATracer() {
        _ = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let dependency = Dependency()
        var runs = 0
        let autorun = reactor.autorun("reader") { computation in
            runs += 1
            reactor.nonreactive { _ = dependency.depend(computation) }
        }
        dependency.changed()
        reactor.flush()
        #expect(runs == 2)
        autorun.stop()
    }

    @Test func anActionBodyHandsTheRunTheSecretsItReadOnlyWithItsResult() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let store = TokenStore(settings: settings)
        let trigger = ReactiveProperty(initialValue: 0)
        let handedBack = ReactiveProperty(initialValue: "")
        let afterVoid = ReactiveProperty(initialValue: "")
        let withResult = reactor.autorun("with result") { _ in
            _ = trigger.value
            handedBack.value = store.bearer() + " (round \(trigger.value))"
        }
        let withoutResult = reactor.autorun("without result") { _ in
            _ = trigger.value
            store.countRefresh()
            afterVoid.value = "refreshed in round \(trigger.value)"
        }
        trigger.value = 1
        #expect(valueTexts(tracer, of: handedBack.id) == ["\"\"", "‹redacted›", "‹redacted›"])
        #expect(valueTexts(tracer, of: afterVoid.id) == ["\"\"", "\"refreshed in round 0\"", "\"refreshed in round 1\""])
        // The body's own writes are plain code: secret only when marked.
        #expect(valueTexts(tracer, of: store.$refreshes.projectedDependency.id) == ["0", "1", "2"])
        #expect(noValueContains(tracer, "SECRET"))
        withResult.stop()
        withoutResult.stop()
    }

    @Test func anActionCalledFromARunThatReadASecretHasSecretArgumentsAndWrites() {
        let tracer = installValues()
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let store = TokenStore(settings: settings)
        let caller = reactor.autorun("caller") { _ in
            let header = reactor.nonreactive { "Bearer \(settings.apiToken)" }
            store.use(header)
        }
        store.use("from plain code")
        let arguments = tracer.events.compactMap { if case let .actionBegan(_, "use(_:)", arguments) = $0 { arguments } else { nil } }
        #expect(arguments == ["‹redacted›", "\"from plain code\""])
        #expect(valueTexts(tracer, of: store.$header.projectedDependency.id) == ["\"\"", "‹redacted›", "\"from plain code\""])
        #expect(noValueContains(tracer, "SECRET"))
        caller.stop()
    }

    @Test func theValuesAChangesLoopTakesAreNeverWrittenAndItsSecretStaysInItsMarkedTarget() async {
        let tracer = SignalTraceRecorder(allThreads: true, valueLengthLimit: 200)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let lastHeader = ReactiveProperty(initialValue: Redacted(""), name: "last header")
        var taken: [String] = []
        for await header in reactor.changes({ "Bearer \(settings.apiToken)" }, name: "header changes") {
            taken.append(header)
            lastHeader.value = Redacted(header)
            if taken.count == 2 { break }
            settings.apiToken = "tok-NEXT-SECRET"
        }
        // The loop has the values in clear; the trace has the stream's node,
        // its expression's reads and changes, and none of the values.
        #expect(taken == ["Bearer tok-SECRET", "Bearer tok-NEXT-SECRET"])
        let nodes = tracer.events.compactMap { if case let .created(id, _, "header changes", _) = $0 { id } else { nil } }
        #expect(nodes.count == 2)  // the signal and the autorun running the expression
        #expect(nodes.allSatisfy { valueTexts(tracer, of: $0).isEmpty })
        #expect(tracer.events.contains { if case let .changed(id) = $0 { nodes.contains(id) } else { false } })
        #expect(valueTexts(tracer, of: lastHeader.id) == ["‹redacted›", "‹redacted›", "‹redacted›"])
        #expect(noValueContains(tracer, "SECRET"))
    }
}
