extension Computation {
    /// Sends the end of this computation's run and, for a computed whose run
    /// gave it a new value, the `changed` of `output` (its dependency node) in
    /// the same call: one call through the hook instead of two. With value
    /// capture on, the value's event goes between the two, so only the end is
    /// sent and the caller sends the `changed`. Returns whether it sent it.
    @inline(__always)
    func traceRerunEnded(changed output: Unmanaged<Dependency>?) -> Bool {
        var sentChange = false
        withTracerAndValueLimit { tracer, valueLimit in
            if let output, valueLimit == 0 {
                tracer.rerunEnded(computation: id, changed: output._withUnsafeGuaranteedRef { $0.id })
                sentChange = true
            } else {
                tracer.rerunEnded(computation: id)
            }
        }
        return sentChange
    }
}
