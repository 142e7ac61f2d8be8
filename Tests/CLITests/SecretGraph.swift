import Foundation
import ReactorCore
import ReactorTrace
import TraceForgery

/// A store holding the secret source and a clear note.
final class LeakStore: Store, @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive(redacted: true) var token = ""
    @Reactive var note = ""

}

/// A store an autorun hands values to through its action.
final class CopyStore: Store, @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive var copy = ""

    func put(_ text: String) {
        action(text) { copy = text }
    }
}

/// A random graph of computeds, autoruns, subjects, signals and stores over
/// one secret source, driven by random writes, recorded with values on.
/// `secrets` are every secret it wrote; `clearValues` texts of clear values
/// that the trace must still show; `names` the nodes to ask about.
struct SecretGraph {
    var secrets: [String] = []
    var clearValues: [String] = []
    var valueNodes: [String] = []
    var computeds: [String] = []

    /// The secret's forms that must never appear: itself, uppercased,
    /// reversed, both, and base64.
    static func forms(of secret: String) -> [String] {
        [secret, secret.uppercased(), String(secret.reversed()), String(secret.uppercased().reversed()),
         Data(secret.utf8).base64EncodedString()]
    }

    /// Records the graph of `seed` at `path`.
    static func record(seed: UInt64, at path: String) throws -> SecretGraph {
        var random = SeededGenerator(seed: seed)
        var graph = SecretGraph()
        func newSecret() -> String {
            let letters = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
            let secret = "Sx" + String((0..<18).map { _ in letters.randomElement(using: &random)! })
            graph.secrets.append(secret)
            return secret
        }
        func newClear(_ tag: String) -> String {
            let text = "clear\(tag)v\(random.next() % 100_000)"
            graph.clearValues.append(text)
            return text
        }

        try TraceRecorder.start(path: path, options: TraceRecorder.Options(values: .described(maxLength: 4096)))
        let reactor = Reactor()
        let store = LeakStore()
        store.action(name: "setUp") {
            store.token = newSecret()
            store.note = newClear("note")
        }
        let clearSource = ReactiveProperty(initialValue: newClear("prop"), name: "clearSource")
        let wrapped = ReactiveProperty(initialValue: Redacted(newSecret()), name: "wrapped")
        graph.valueNodes += ["LeakStore.token", "LeakStore.note", "clearSource", "wrapped"]

        /// What a node of the graph reads: a closure, and whether it can hold a secret.
        struct Reader {
            let read: () -> String
            let secret: Bool
        }
        var readers = [Reader(read: { store.token }, secret: true), Reader(read: { store.note }, secret: false),
                       Reader(read: { clearSource.value }, secret: false),
                       Reader(read: { wrapped.value.value }, secret: true)]
        let transforms: [(String) -> String] = [
            { "Bearer \($0)" }, { $0.uppercased() }, { String($0.reversed()) },
            { Data($0.utf8).base64EncodedString() }, { $0 }, { "[\($0), \($0.count)]" },
        ]
        var keep: [AnyObject] = []
        var autoruns: [Computation] = []
        var subscriptions: [Subscription] = []
        for index in 0..<Int.random(in: 8...14, using: &random) {
            let inputs = (0..<Int.random(in: 1...2, using: &random)).map { _ in readers.randomElement(using: &random)! }
            let transform = transforms.randomElement(using: &random)!
            let produce = { transform(inputs.map { $0.read() }.joined(separator: "+")) }
            let secret = inputs.contains { $0.secret }
            let name = "n\(index)"
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1:
                let computed = reactor.computed(name) { produce() }
                graph.valueNodes.append(name)
                keep.append(computed)
                graph.computeds.append(name)
                readers.append(Reader(read: { computed.value }, secret: secret))
            case 2:
                // Declassified on purpose: only whether the input is empty.
                let flag = reactor.computed(name, reveals: true) { inputs[0].read().isEmpty ? "empty" : "set" }
                keep.append(flag)
                graph.computeds.append(name)
                readers.append(Reader(read: { flag.value }, secret: false))
            case 3:
                let target = ReactiveProperty(initialValue: "", name: name)
                autoruns.append(reactor.autorun(name + ".copy") { _ in target.value = produce() })
                keep.append(target)
                graph.valueNodes.append(name)
                readers.append(Reader(read: { target.value }, secret: secret))
            case 4:
                let copies = CopyStore()
                autoruns.append(reactor.autorun(name + ".put") { _ in copies.put(produce()) })
                keep.append(copies)
                readers.append(Reader(read: { copies.copy }, secret: secret))
            case 5:
                let subject = PassthroughSubject<String>(name: name)
                let target = ReactiveProperty(initialValue: "", name: name + ".bound")
                subscriptions.append(subject.signal.map { transform($0) }.bind(to: target))
                autoruns.append(reactor.autorun(name + ".send") { _ in subject.send(produce()) })
                keep += [subject, target]
                graph.valueNodes.append(name + ".bound")
                readers.append(Reader(read: { target.value }, secret: secret))
            case 6:
                let behavior = BehaviorSubject(value: "", name: name)
                autoruns.append(reactor.autorun(name + ".send") { _ in behavior.send(produce()) })
                keep.append(behavior)
                graph.valueNodes.append(name)
                readers.append(Reader(read: { behavior.value }, secret: secret))
            default:
                let target = ReactiveProperty(initialValue: "", name: name + ".signalled")
                subscriptions.append(reactor.signal(name) { produce() }.subscribe { target.value = $0 })
                keep.append(target)
                graph.valueNodes.append(name + ".signalled")
                readers.append(Reader(read: { target.value }, secret: secret))
            }
        }
        // An autorun reading every node keeps the computeds live.
        autoruns.append(reactor.autorun("everything") { _ in for reader in readers { _ = reader.read() } })
        for _ in 0..<Int.random(in: 10...20, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: store.action(name: "rotate") { store.token = newSecret() }
            case 1: store.action(name: "annotate") { store.note = newClear("note") }
            case 2: clearSource.value = newClear("prop")
            default: wrapped.value = Redacted(newSecret())
            }
        }
        for autorun in autoruns { autorun.stop() }
        for subscription in subscriptions { subscription.cancel() }
        withExtendedLifetime(keep) {}
        _ = TraceRecorder.stop()
        return graph
    }
}
