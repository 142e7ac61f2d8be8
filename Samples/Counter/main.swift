// The Reactor README's counter label, in Swift: a label autorun reruns each
// time the counter changes. 100 increments outside any batch = 100 reruns.
//
//   swift run counter [--trace PATH] [--increments N]
//
// Prints one JSON line with the reruns and writes it counted itself.
import Foundation
import ReactorCore
import ReactorTrace
import SampleSupport

/// A view model with a reactive counter and the label text it drives.
final class CounterViewModel {
    @Reactive var counter = 0
    var counterLabel = ""
}

var commandLine = SampleCommandLine(program: "counter", usage: "[--trace PATH] [--increments N]")
var increments = 100
while let option = commandLine.nextOption() {
    switch option {
    case "--increments": increments = commandLine.count(after: option)
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
TraceRecorder.stop()
precondition(model.counterLabel == String(increments), "the label missed an update")
print(#"{"sample":"counter","reruns":{"label":\#(labelReruns)},"writes":\#(writes),"label":"\#(model.counterLabel)"}"#)
