import Foundation
import ReactorCore
import ReactorTrace

/// A trace whose every name is an attack on some output medium: terminal escapes
/// (CSI colour, an OSC window title, BEL, C1 CSI), line breaks, NUL, DEL, Unicode
/// bidi overrides and isolates, HTML and CDATA terminators, Markdown pipes, and
/// characters XML 1.0 forbids. Recorded through the real recorder.
enum HostileTrace {
    /// One name per attack; each reaches the outputs as a store, action, computation or dependency.
    static let store = "Store\u{1B}]0;pwned-title\u{07}|<script>alert(1)</script>"
    static let action = "add\u{1B}[2J\u{1B}[31mred\u{1B}[0m(_:)\r\n| injected | row |"
    static let computation = "list\u{0}nul\u{7F}del\u{202E}gpj.exe\u{2066}iso\u{2069}\u{85}\u{9B}31m"
    static let computed = "derived]]>&amp;\u{1}\u{8}\u{FFFE}\u{FFFF}<b>"
    static let dependency = "Store.items\rCR-only\nLF\u{07}bell\u{1B}[1A"
    static let effect = "effect \" ' ` * _ [x](javascript:alert(1)) \\ --> <!-- \u{202A}\u{202B}\u{202C}\u{202D}\u{2067}\u{2068}"
    static let issueMessage = "boom\u{1B}]8;;http://evil/\u{7}link\u{1B}]8;;\u{7}\nsecond line"

    /// Every hostile name above.
    static let names = [store, action, computation, computed, dependency, effect]

    /// Records the trace at `path`: a store action changes a dependency that a
    /// computed and two autoruns read; each reruns a few times; one issue.
    static func record(at path: String) throws {
        let recorder = try TraceRecorder(path: path)
        let storeID: UInt64 = 1, dependencyID: UInt64 = 2, computedID: UInt64 = 3
        let listID: UInt64 = 4, effectID: UInt64 = 5
        recorder.nodeCreated(storeID, kind: .store, name: store, parent: 0)
        recorder.nodeCreated(dependencyID, kind: .reactiveValue, name: dependency, parent: storeID)
        recorder.nodeCreated(computedID, kind: .computed, name: computed, parent: 0)
        recorder.nodeCreated(listID, kind: .computation, name: computation, parent: 0)
        recorder.nodeCreated(effectID, kind: .computation, name: effect, parent: 0)
        for (computation, source) in [(computedID, dependencyID), (listID, computedID), (effectID, dependencyID)] {
            recorder.rerunBegan(computation: computation, firstRun: true)
            recorder.depend(computation: computation, dependency: source)
            recorder.rerunEnded(computation: computation)
        }
        for round in 0..<5 {
            recorder.actionBegan(store: storeID, name: action, arguments: "\"\u{1B}[5m\(round)\u{0}\"")
            recorder.changed(dependency: dependencyID)
            recorder.invalidated(computation: computedID, cause: .dependency, source: dependencyID)
            recorder.invalidated(computation: effectID, cause: .dependency, source: dependencyID)
            recorder.flushBegan()
            recorder.rerunBegan(computation: computedID, firstRun: false)
            recorder.depend(computation: computedID, dependency: dependencyID)
            recorder.changed(dependency: computedID)
            recorder.invalidated(computation: listID, cause: .dependency, source: computedID)
            recorder.rerunEnded(computation: computedID)
            for computation in [listID, effectID] {
                recorder.rerunBegan(computation: computation, firstRun: false)
                recorder.depend(computation: computation, dependency: computation == listID ? computedID : dependencyID)
                recorder.rerunEnded(computation: computation)
            }
            recorder.flushEnded()
            recorder.actionEnded(store: storeID)
        }
        recorder.issue(.uncaughtError, node: listID, message: issueMessage)
        _ = recorder.stop()
    }
}
