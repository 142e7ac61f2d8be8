/// Runs `body` as one graph operation (graph lock held, end-of-batch flush
/// after the outermost one) with no current computation, so that what
/// subscribers read is not recorded as a dependency of a computation that
/// happens to be sending. Every signal event enters the graph through here.
@inlinable @inline(__always)
func signalDelivery<R>(_ body: () throws -> R) rethrows -> R {
    let graph = ReactorCore.graph  // one global access (a `swift_once` call on Linux)
    return try graph.operation {
        guard let previous = graph.current else { return try body() }
        graph.current = nil
        defer { graph.current = previous }
        return try body()
    }
}

/// Carries a value into a `@Sendable` closure (a `DispatchQueue.async` block).
/// `@unchecked Sendable` because the value is only handed to code that takes
/// the graph lock before touching it.
@usableFromInline
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
    @usableFromInline let wrapped: Wrapped
    @usableFromInline init(_ wrapped: Wrapped) { self.wrapped = wrapped }
}
