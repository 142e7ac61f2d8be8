extension Computation {
    /// Sends the end of this computation's run, unless it is a computed whose
    /// run gave it a new value, `output` (its dependency node), and no value
    /// event goes between the end and the change (value capture off). Then
    /// the end waits, to go with the `changed` of `output` and the first
    /// invalidation that change records in one call through the hook
    /// (`Dependency.notifySubscribers(traced:endingRun:)`). Returns whether it waits.
    @inline(__always)
    func traceRerunEnded(changed output: Unmanaged<Dependency>?) -> Bool {
        var endWaits = false
        withTracerAndValueLimit { tracer, valueLimit in
            if output != nil, valueLimit == 0 {
                endWaits = true
            } else {
                tracer.rerunEnded(computation: id)
            }
        }
        return endWaits
    }

    /// Whether `Dependency.notifySubscribers(traced:)` records an invalidation
    /// of this subscriber (one already invalidated, or stopped, records none).
    @inline(__always)
    var recordsInvalidation: Bool {
        isDerived ? derivedState != .dirty && !stopped : !invalidated
    }
}
