// A tiny driver for profilers (`valgrind --tool=callgrind`): builds one case in
// one implementation and runs it, outside the benchmark harness.
//
//     reactivity-driver <case> <implementation> [runs] [--trace PATH]
//     reactivity-driver events <count> [--trace PATH]
//     reactivity-driver writes <case>
//     reactivity-driver write <count> [computed]
//
// `--trace PATH` records the runs with `TraceRecorder` (started after the case is
// built, so the setup's events are not counted against the runs). `events`
// calls `changed()` on a dependency nobody reads `count` times: one trace event
// a call, the cost of one recorded event under callgrind. `writes` prints how
// many source writes one run of the case makes (for per-write figures).
// `write` makes `count` writes of one `@Reactive` source, each in its own
// batch, read by one autorun (with `computed`: through one computed, read
// again after each batch, as deep's writes are): the per-write path alone.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactivityCases
import ReactorCore
import ReactorTrace

var arguments = Array(CommandLine.arguments.dropFirst())
let tracePath: String? = {
    guard let flag = arguments.firstIndex(of: "--trace"), flag + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(flag...flag + 1) }
    return arguments[flag + 1]
}()

@MainActor
func startTracing() {
    guard let tracePath else { return }
    do {
        try TraceRecorder.start(path: tracePath)
    } catch {
        print("reactivity-driver: \(error)")
        exit(1)
    }
}

@MainActor
func stopTracing() -> String {
    guard let statistics = TraceRecorder.stop() else {
        return ReactorTracing.isCompiledIn ? "untraced" : "tracing compiled out"
    }
    return "traced: \(statistics.events) events, \(statistics.bytes) bytes"
}

if arguments.first == "events" {
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 1 : 1
    let dependency = Dependency("driver.event")
    startTracing()
    for _ in 0..<count { dependency.changed() }
    print("events: \(count) changed() calls, \(stopTracing())")
    exit(0)
}

/// The source of the `write` mode.
final class WriteSource {
    @Reactive var value = 0
}

/// Counts the `write` mode's autorun runs (unchecked: no exclusivity check in the count).
final class RunCounter {
    @exclusivity(unchecked) var runs = 0
}

if arguments.first == "write" {
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 1 : 1
    let throughComputed = arguments.count > 2 && arguments[2] == "computed"
    let reactor = Reactor(scheduler: .endOfBatch)
    let source = WriteSource()
    let counter = RunCounter()
    var sum = 0
    if throughComputed {
        let computed = reactor.computed { source.value + 1 }
        let effect = reactor.autorun { _ in _ = computed.value; counter.runs += 1 }
        for i in 0..<count {
            reactor.batch { source.value = i + 1 }
            sum &+= computed.value
        }
        effect.stop()
    } else {
        let effect = reactor.autorun { _ in _ = source.value; counter.runs += 1 }
        for i in 0..<count { reactor.batch { source.value = i + 1 } }
        effect.stop()
    }
    print("write: \(count) writes, effect runs \(counter.runs), checksum \(sum)")
    exit(0)
}

if arguments.first == "writes", arguments.count == 2,
   let definition = CaseDefinition.all.first(where: { $0.name == arguments[1] }) {
    print(definition.writesPerRun)
    exit(0)
}

guard arguments.count >= 2,
      let definition = CaseDefinition.all.first(where: { $0.name == arguments[0] }),
      let implementation = Implementation(rawValue: arguments[1]),
      definition.implementations.contains(implementation) else {
    let names = CaseDefinition.all.map(\.name).joined(separator: "|")
    let implementations = Implementation.allCases.map(\.rawValue).joined(separator: "|")
    print("usage: reactivity-driver <\(names)> <\(implementations)> [runs] [--trace PATH]")
    print("       reactivity-driver events <count> [--trace PATH]")
    print("       reactivity-driver writes <case>")
    print("       reactivity-driver write <count> [computed]")
    exit(2)
}
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
let instance = definition.make(implementation)
startTracing()
var checksum = 0
for _ in 0..<runs { checksum &+= instance.run() }
let traced = stopTracing()
print("\(definition.name) \(implementation.rawValue): \(runs) runs, checksum \(checksum), effect runs \(instance.effectRuns), \(traced)")
