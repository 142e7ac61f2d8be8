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
            // The run read the Redacted's value (in the action): what it writes next is a secret.
            after.value = "attempt \(attempts.value)"
        }
        attempts.value = 1
        let arguments = tracer.events.compactMap { if case let .actionBegan(_, "login(_:_:)", arguments) = $0 { arguments } else { nil } }
        #expect(arguments == ["\"ada-0\", ‹redacted›", "\"ada-1\", ‹redacted›"])
        #expect(valueTexts(tracer, of: session.$token.projectedDependency.id).allSatisfy { $0 == "‹redacted›" })
        #expect(valueTexts(tracer, of: after.id) == ["\"\"", "‹redacted›", "‹redacted›"])
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
