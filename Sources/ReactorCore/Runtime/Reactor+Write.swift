extension Reactor {
    /// Runs `body` as one batch, off the caller's actor, and returns once the
    /// computations it invalidated have rerun (with `.endOfBatch` scheduling).
    ///
    /// ```swift
    /// @MainActor func addToCart(_ item: Item) async {
    ///     await reactor.write { cart.items.value.append(item) }
    /// }
    /// ```
    ///
    /// The write keeps the runtime's guarantees, as a synchronous one does:
    /// it holds the graph lock, the autoruns it invalidated rerun once, after
    /// it. Awaiting it from the main actor (or any actor) runs the batch and
    /// those reruns on the cooperative thread pool, so the actor is never
    /// blocked waiting for the graph lock, and it resumes after them. What
    /// `body` captures must be `Sendable`: reactive state (`ReactiveProperty`,
    /// subjects) is.
    public func write<T: Sendable>(_ body: @Sendable () throws -> T) async rethrows -> T {
        try batch(body)
    }
}
