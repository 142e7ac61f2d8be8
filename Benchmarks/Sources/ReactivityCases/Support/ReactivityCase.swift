/// One benchmark case built in one implementation.
///
/// `run()` is one call of the function that the js-reactivity-benchmark case
/// returns: its writes, in its batches, with its reads checked against the
/// values the case asserts (a wrong value traps, so a benchmark cannot report
/// the speed of a wrong answer).
public protocol ReactivityCase: AnyObject {
    /// Runs the case's writes once and returns the sum of the values it read.
    func run() -> Int
    /// How many times the case's effects have run since the case was built.
    var effectRuns: Int { get }
    /// The values of the case's observed outputs now (compared across implementations).
    func snapshot() -> [Int]
}
