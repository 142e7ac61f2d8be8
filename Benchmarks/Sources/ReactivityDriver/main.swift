// A tiny driver for profilers (`valgrind --tool=callgrind`): builds one case in
// one implementation and runs it, outside the benchmark harness.
//
//     reactivity-driver <case> <implementation> [runs] [--trace PATH [--trace-values N]]
//     reactivity-driver events <count> [--trace PATH]
//     reactivity-driver writes <case>
//     reactivity-driver write <count> [computed] [secret] [--trace PATH [--trace-values N]]
//
// `--trace PATH` records the runs with `TraceRecorder` (started after the case is
// built, so the setup's events are not counted against the runs), with values
// described up to N bytes when `--trace-values N` is given. `events`
// calls `changed()` on a dependency nobody reads `count` times: one trace event
// a call, the cost of one recorded event under callgrind. `writes` prints how
// many source writes one run of the case makes (for per-write figures).
// `write` makes `count` writes of one `@Reactive` source, each in its own
// batch, read by one autorun (with `computed`: through one computed, read
// again after each batch, as deep's writes are): the per-write path alone;
// with `secret`, the source is `@Reactive(redacted: true)`, so that the
// computed and the autorun run with what they read being a secret.
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
let traceValueLimit: Int = {
    guard let flag = arguments.firstIndex(of: "--trace-values"), flag + 1 < arguments.count else { return 0 }
    defer { arguments.removeSubrange(flag...flag + 1) }
    return Int(arguments[flag + 1]) ?? 0
}()

@MainActor
func startTracing() {
    guard let tracePath else { return }
    do {
        let values: TraceRecorder.ValueCapture = traceValueLimit > 0 ? .described(maxLength: traceValueLimit) : .off
        try TraceRecorder.start(path: tracePath, options: TraceRecorder.Options(values: values))
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

/// The source of the `write … secret` mode.
final class SecretWriteSource {
    @Reactive(redacted: true) var value = 0
}

/// Counts the `write` mode's autorun runs (unchecked: no exclusivity check in the count).
final class RunCounter {
    @exclusivity(unchecked) var runs = 0
}

if arguments.first == "write" {
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 1 : 1
    let throughComputed = arguments.dropFirst(2).contains("computed")
    let reactor = Reactor(scheduler: .endOfBatch)
    let counter = RunCounter()
    var sum = 0
    if arguments.dropFirst(2).contains("secret") {
        // The same two shapes over a redacted source (a copy: the clear ones stay as they were).
        let source = SecretWriteSource()
        if throughComputed {
            let computed = reactor.computed { source.value + 1 }
            let effect = reactor.autorun { _ in _ = computed.value; counter.runs += 1 }
            startTracing()
            for i in 0..<count {
                reactor.batch { source.value = i + 1 }
                sum &+= computed.value
            }
            effect.stop()
        } else {
            let effect = reactor.autorun { _ in _ = source.value; counter.runs += 1 }
            startTracing()
            for i in 0..<count { reactor.batch { source.value = i + 1 } }
            effect.stop()
        }
    } else {
        let source = WriteSource()
        if throughComputed {
            let computed = reactor.computed { source.value + 1 }
            let effect = reactor.autorun { _ in _ = computed.value; counter.runs += 1 }
            startTracing()
            for i in 0..<count {
                reactor.batch { source.value = i + 1 }
                sum &+= computed.value
            }
            effect.stop()
        } else {
            let effect = reactor.autorun { _ in _ = source.value; counter.runs += 1 }
            startTracing()
            for i in 0..<count { reactor.batch { source.value = i + 1 } }
            effect.stop()
        }
    }
    print("write: \(count) writes, effect runs \(counter.runs), checksum \(sum), \(stopTracing())")
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
