import Dispatch
import Foundation
import Testing
import ReactorCore

/// A secret written from several threads at once, while autoruns and computeds
/// derive from it and subjects carry it: no trace value holds it, and the clear
/// values written meanwhile are still recorded. Run under TSan by `make tsan`.
@Suite(.serialized, .installsTracer, .enabled(if: ReactorTracing.isCompiledIn))
struct SecretThreadTests {
    @Test func aSecretWrittenFromSeveralThreadsAtOnceNeverReachesTheTrace() {
        let tracer = SignalTraceRecorder(allThreads: true, valueLengthLimit: 200)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let plain = ReactiveProperty(initialValue: "", name: "plain")
        let outgoing = PassthroughSubject<String>(name: "outgoing")
        let header = reactor.computed("authHeader") { "Bearer \(settings.apiToken)" }
        let status = reactor.computed("status", reveals: true) { settings.apiToken.isEmpty ? "out" : "in" }
        let copier = reactor.autorun("copier") { _ in
            plain.value = header.value.uppercased()
            outgoing.send(String(header.value.reversed()))
        }
        let watcher = reactor.autorun("watcher") { _ in _ = status.value; _ = settings.userName }
        let group = DispatchGroup()
        for thread in 0..<4 {
            group.enter()
            Thread {
                for round in 0..<150 {
                    settings.apiToken = "tok-\(thread)-\(round)-secret"
                    settings.userName = "user-\(thread)-\(round)"
                }
                group.leave()
            }.start()
        }
        group.wait()
        copier.stop()
        watcher.stop()

        let texts = tracer.events.compactMap { if case let .value(_, text) = $0 { text } else { nil } }
        #expect(!texts.contains { $0.lowercased().contains("secret") || $0.lowercased().contains("terces") })
        #expect(texts.contains("\"user-3-149\"") || texts.contains { $0.hasPrefix("\"user-") })
        #expect(texts.contains("\"in\""))
        #expect(texts.filter { $0 == "‹redacted›" }.count >= 150)
    }

    @Test func secretsReadUntrackedOnSeveralThreadsAtOnceFollowTheirRuns() {
        let tracer = SignalTraceRecorder(allThreads: true, valueLengthLimit: 200)
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let settings = AuthSettings()
        let store = TokenStore(settings: settings)
        let rounds = ReactiveProperty(initialValue: 0, name: "rounds")
        let copied = ReactiveProperty(initialValue: "", name: "copied")
        let handedBack = ReactiveProperty(initialValue: "", name: "handed back")
        let counted = ReactiveProperty(initialValue: "", name: "counted")
        let nonreactiveCopier = reactor.autorun("nonreactive copier") { _ in
            copied.value = "\(rounds.value) " + reactor.nonreactive { settings.apiToken }
        }
        let actionCaller = reactor.autorun("action caller") { _ in
            _ = rounds.value
            handedBack.value = store.bearer()
            store.countRefresh()
        }
        let counter = reactor.autorun("counter") { _ in
            store.countRefresh()
            counted.value = "round \(rounds.value)"
        }
        let group = DispatchGroup()
        for thread in 0..<4 {
            group.enter()
            Thread {
                for round in 0..<100 {
                    settings.apiToken = "tok-\(thread)-\(round)-secret"
                    rounds.value = thread * 1000 + round
                }
                group.leave()
            }.start()
        }
        group.wait()
        nonreactiveCopier.stop()
        actionCaller.stop()
        counter.stop()

        func valueTexts(of node: UInt64) -> [String] {
            tracer.events.compactMap { if case let .value(id, text) = $0, id == node { text } else { nil } }
        }
        #expect(valueTexts(of: copied.id).dropFirst().allSatisfy { $0 == "‹redacted›" })
        #expect(valueTexts(of: handedBack.id).dropFirst().allSatisfy { $0 == "‹redacted›" })
        let counts = valueTexts(of: counted.id)
        #expect(counts.count > 100 && counts.allSatisfy { $0 == "\"\"" || $0.hasPrefix("\"round ") })
        let texts = tracer.events.compactMap { if case let .value(_, text) = $0 { text } else { nil } }
        #expect(!texts.contains { $0.lowercased().contains("secret") })
    }
}
