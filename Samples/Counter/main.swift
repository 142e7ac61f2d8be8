// The Reactor README's counter label, in Swift: a label autorun reruns each
// time the counter changes. 100 increments outside any batch = 100 reruns.
//
//   swift run counter [--trace PATH] [--increments N] [--crash cycle|mutual-cycle|segv|abort]
//
// Prints one JSON line with the reruns and writes it counted itself. With
// --crash, it dies after the increments instead, the way a buggy app would:
// a computed that reads itself, two that read each other, a bad pointer, abort().
import Foundation
import ReactorCore
import ReactorTrace
import SampleSupport

/// A view model with a reactive counter and the label text it drives.
final class CounterViewModel {
    @Reactive var counter = 0
    var counterLabel = ""
}

var commandLine = SampleCommandLine(program: "counter",
                                    usage: "[--trace PATH] [--increments N] [--crash cycle|mutual-cycle|segv|abort]")
var increments = 100
var crash: String?
while let option = commandLine.nextOption() {
    switch option {
    case "--increments": increments = commandLine.count(after: option)
    case "--crash":
        let kind = commandLine.value(after: option)
        guard ["cycle", "mutual-cycle", "segv", "abort"].contains(kind) else {
            commandLine.fail("--crash takes cycle, mutual-cycle, segv or abort, not '\(kind)'")
        }
        crash = kind
    default: commandLine.rejectUnknown(option)
    }
}
commandLine.startTracing()

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
if let crash { die(of: crash) }
TraceRecorder.stop()
precondition(model.counterLabel == String(increments), "the label missed an update")
print(#"{"sample":"counter","reruns":{"label":\#(labelReruns)},"writes":\#(writes),"label":"\#(model.counterLabel)"}"#)

/// Ends the process the way `kind` says, without stopping the recording.
func die(of kind: String) -> Never {
    final class Cell { var computed: Computed<Int>? }
    switch kind {
    case "cycle":
        let cell = Cell()
        cell.computed = Reactor.shared.computed("total") { (cell.computed?.value ?? 0) + 1 }
        Reactor.shared.autorun("report") { _ in _ = cell.computed?.value }
    case "mutual-cycle":
        let first = Cell(), second = Cell()
        first.computed = Reactor.shared.computed("width") { (second.computed?.value ?? 0) + 1 }
        second.computed = Reactor.shared.computed("height") { (first.computed?.value ?? 0) + 1 }
        Reactor.shared.autorun("layout") { _ in _ = first.computed?.value }
    case "segv":
        UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
    default:
        abort()
    }
    fatalError("counter: --crash \(kind) did not end the process")
}
