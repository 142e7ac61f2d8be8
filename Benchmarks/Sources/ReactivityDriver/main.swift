// A tiny driver for profilers (`valgrind --tool=callgrind`): builds one case in
// one implementation and runs it, outside the benchmark harness.
//
//     reactivity-driver <case> <implementation> [runs]
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReactivityCases

let arguments = CommandLine.arguments
guard arguments.count >= 3,
      let definition = CaseDefinition.all.first(where: { $0.name == arguments[1] }),
      let implementation = Implementation(rawValue: arguments[2]),
      definition.implementations.contains(implementation) else {
    let names = CaseDefinition.all.map(\.name).joined(separator: "|")
    let implementations = Implementation.allCases.map(\.rawValue).joined(separator: "|")
    print("usage: reactivity-driver <\(names)> <\(implementations)> [runs]")
    exit(2)
}
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
let instance = definition.make(implementation)
var checksum = 0
for _ in 0..<runs { checksum &+= instance.run() }
print("\(definition.name) \(implementation.rawValue): \(runs) runs, checksum \(checksum), effect runs \(instance.effectRuns)")
