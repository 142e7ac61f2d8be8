import ReactorCore

/// An error with a message, as Tracker's tests throw `new Error("foo")`.
struct TestError: Error, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Collects what a runtime reports through `issueHandler`.
///
/// Appended to with the graph lock held (the handler runs under it); read by
/// the test after the operations that report have returned.
final class IssueLog: @unchecked Sendable {
    private(set) var issues: [ReactorIssue] = []

    init(_ reactor: Reactor) {
        reactor.issueHandler = { [unowned self] issue in issues.append(issue) }
    }

    /// The issues' kinds, in order (`nestedFlush`, `uncaughtError`, ...).
    var kinds: [String] { issues.map(\.kind) }

    func append(_ issue: ReactorIssue) { issues.append(issue) }

    func removeAll() { issues.removeAll() }
}

extension ReactorIssue {
    /// The case name, to compare sequences of issues.
    var kind: String {
        // An `if case` chain rather than a switch, so that cases other helpers
        // add later do not break these tests.
        if case .nestedFlush = self { return "nestedFlush" }
        if case .flushInsideComputation = self { return "flushInsideComputation" }
        if case .uncaughtError = self { return "uncaughtError" }
        if case .runaway = self { return "runaway" }
        if case .cycle = self { return "cycle" }
        if case .noCurrentComputation = self { return "noCurrentComputation" }
        return "other"
    }

    /// The error of an `.uncaughtError`, else nil.
    var uncaughtError: (any Error)? {
        if case let .uncaughtError(error, _) = self { return error }
        return nil
    }
}
