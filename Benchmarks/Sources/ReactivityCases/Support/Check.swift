/// Checks a value the case asserts and passes it on; a wrong value traps (in
/// release builds too), so no implementation is timed computing a wrong answer.
@inline(__always)
func expectValue(_ actual: Int, _ expected: Int, file: StaticString = #file, line: UInt = #line) -> Int {
    if actual != expected {
        preconditionFailure("expected \(expected), got \(actual)", file: file, line: line)
    }
    return actual
}

/// The "heavy computation" of kairo's avoidable propagation: 100 increments
/// the optimiser may not fold away, the same in every implementation.
@_optimize(none)
func busy() {
    var a = 0
    for _ in 0..<100 { a += 1 }
}
