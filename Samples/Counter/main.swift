// The Reactor README's counter label, in Swift: a label autorun reruns each
// time the counter changes. 100 increments outside any batch = 100 reruns.
//
//   swift run counter [--trace PATH] [--increments N] [--crash cycle|mutual-cycle|segv|abort|thread-overflow|early-term]
//
// Prints one JSON line with the reruns and writes it counted itself. With
// --crash, it dies after the increments instead, the way a buggy app would:
// a computed that reads itself, two that read each other, a bad pointer, abort(),
// a stack overflow on a thread of its own that recorded (an autorun) first, a
// SIGTERM sent the moment the recording has started (early-term: the main thread
// blocks it and sends it to the process, so that any thread the recording started
// may take it; main unblocks it after the increments).
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
                                    usage: "[--trace PATH] [--increments N] [--crash cycle|mutual-cycle|segv|abort|thread-overflow|early-term]")
var increments = 100
var crash: String?
while let option = commandLine.nextOption() {
    switch option {
    case "--increments": increments = commandLine.count(after: option)
    case "--crash":
        let kind = commandLine.value(after: option)
        guard ["cycle", "mutual-cycle", "segv", "abort", "thread-overflow", "early-term"].contains(kind) else {
            commandLine.fail("--crash takes cycle, mutual-cycle, segv, abort, thread-overflow or early-term, not '\(kind)'")
        }
        crash = kind
    default: commandLine.rejectUnknown(option)
    }
}
commandLine.startTracing()
if crash == "early-term" {
    var terminate = sigset_t()
    sigemptyset(&terminate)
    sigaddset(&terminate, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &terminate, nil)
    kill(getpid(), SIGTERM)
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
    case "early-term":
        // The SIGTERM sent at the start, if no other thread took it, is delivered here.
        var terminate = sigset_t()
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &terminate, nil)
        Thread.sleep(forTimeInterval: 30)
    case "thread-overflow":
        // A small stack, so that the overflow comes quickly; the thread records (an autorun) first.
        let thread = Thread {
            let local = CounterViewModel()
            Reactor.shared.autorun("overflowing") { _ in local.counterLabel = String(local.counter) }
            _ = recurse(0)
        }
        thread.stackSize = 256 << 10
        thread.start()
        Thread.sleep(forTimeInterval: 30)
    default:
        abort()
    }
    fatalError("counter: --crash \(kind) did not end the process")
}

/// The deepest frame of `recurse`: the frames escape, so no optimiser can turn the recursion into a loop.
nonisolated(unsafe) var deepestFrame: UnsafeMutableRawPointer?

/// Calls itself until the stack runs out.
@inline(never)
func recurse(_ depth: Int) -> Int {
    if depth == Int.max { return 0 }
    var frame = (depth, depth, depth, depth, depth, depth, depth, depth)
    return withUnsafeMutableBytes(of: &frame) { bytes in
        deepestFrame = bytes.baseAddress
        return recurse(depth + 1) &+ Int(bytes[0])
    }
}
