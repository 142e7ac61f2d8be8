extension Computation {
    /// Sends the end of this computation's run, unless it is a computed whose
    /// run gave it a new value, `output` (its dependency node), and no value
    /// event goes between the end and the change (`tracing` records no
    /// values). Then the end waits, to go with the `changed` of `output` and
    /// the first invalidation that change records in one call through the
    /// hook (`Dependency.notifySubscribers(traced:endingRun:)`). Returns
    /// whether it waits. `tracing` is the traced update's (values or not are
    /// read once for it, like the tracer's presence).
    @inline(__always)
    func traceRerunEnded(tracing: RunTracing, changed output: Unmanaged<Dependency>?) -> Bool {
        if output != nil, tracing.isTracedWithoutValues { return true }
        withTracer { $0.rerunEnded(computation: id) }
        return false
    }

    /// Whether `Dependency.notifySubscribers(traced:)` records an invalidation
    /// of this subscriber (one already invalidated, or stopped, records none).
    @inline(__always)
    var recordsInvalidation: Bool {
        isDerived ? derivedState != .dirty && !stopped : !invalidated
    }
}
