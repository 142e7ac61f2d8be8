// The Reactor README's counter label, in Swift: a label autorun reruns each
// time the counter changes. 100 increments outside any batch = 100 reruns.
//
//   swift run counter [--trace PATH] [--increments N]
//
// Prints one JSON line with the reruns and writes it counted itself.
import Foundation
import ReactorCore
import ReactorTrace

/// A view model with a reactive counter and the label text it drives.
final class CounterViewModel {
    @Reactive var counter = 0
    var counterLabel = ""
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("counter: \(message)\n".utf8))
    exit(2)
}

var tracePath: String?
var increments = 100
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--trace":
        guard let path = arguments.popFirst(), !path.isEmpty else { fail("--trace needs a path") }
        tracePath = path
    case "--increments":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 0 else {
            fail("--increments needs a non-negative number")
        }
        increments = value
    case "-h", "--help":
        print("usage: counter [--trace PATH] [--increments N]")
        exit(0)
    default:
        fail("unknown argument '\(argument)' (usage: counter [--trace PATH] [--increments N])")
    }
}

do {
    if let tracePath { try TraceRecorder.start(path: tracePath) } else { try TraceRecorder.startFromEnvironment() }
} catch {
    fail("\(error)")
}

let model = CounterViewModel()
var labelReruns = 0
var writes = 0
Reactor.shared.autorun("label") { computation in
    model.counterLabel = String(model.counter)
    if !computation.isFirstRun { labelReruns += 1 }
}
for _ in 0..<increments {
    model.counter += 1   // outside any batch: each write flushes, the label reruns
    writes += 1
}
TraceRecorder.stop()
precondition(model.counterLabel == String(increments), "the label missed an update")
print(#"{"sample":"counter","reruns":{"label":\#(labelReruns)},"writes":\#(writes),"label":"\#(model.counterLabel)"}"#)
