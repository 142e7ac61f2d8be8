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

    /// The begin of this computation's run, unless the end of the flush's
    /// previous rerun recorded it (`traceRunEnd(flushHead:)`) for the tracer
    /// installed now.
    @inline(__always)
    func traceRunBegin() {
        withTracer { tracer in
            if graph.rerunBegun == id {
                graph.rerunBegun = 0
                if graph.rerunBegunBy == tracer.boxAddress { return }
            }
            tracer.rerunBegan(computation: id, firstRun: firstRun)
        }
    }

    /// The end of this computation's run. With the begin of the flush's next
    /// rerun in the same call when the flush runs it (`flushHead` is its
    /// place in the pending queue, -1 outside a flush) and that rerun begins
    /// with no user code and no other event between (`Reactor.nextRerun(after:at:)`):
    /// one clock reading for the two.
    @inline(__always)
    func traceRunEnd(flushHead: Int) {
        let nextID = flushHead < 0 ? 0 : reactor.nextRerun(after: self, at: flushHead)
        guard nextID != 0 else { return withTracer { $0.rerunEnded(computation: id) } }
        withTracer { tracer in
            graph.rerunBegun = nextID
            graph.rerunBegunBy = tracer.boxAddress
            tracer.rerunEnded(computation: id, beginning: nextID)
        }
    }
}
