import Synchronization

/// The events of the hottest paths (a node update), emitted out of line.
///
/// `withTracer`'s closure, inlined at each site, makes the untraced code
/// around it too big to inline; handing it to a non-inlined function instead
/// makes the optimizer retain what it captures. These take plain values:
/// a site is `if TraceEmit.isOn { TraceEmit.depend(...) }`, one load and a
/// branch when no tracer is installed, as `withTracer` is.
@usableFromInline
enum TraceEmit {
    /// True when a tracer is installed (always false when tracing is compiled out).
    @inlinable @inline(__always)
    static var isOn: Bool {
        #if Tracing
        // Acquiring, as in `withTracer`; the emitters load the slot again.
        tracerSlot.load(ordering: .acquiring) != nil
        #else
        false
        #endif
    }

    /// `isOn` for inlinable code, which other modules inline: one load
    /// through the graph instead of a call to the global's addressor.
    @inlinable @inline(__always)
    static func isOn(in graph: Graph) -> Bool {
        #if Tracing
        graph.isTracing.load(ordering: .acquiring)
        #else
        false
        #endif
    }

    @usableFromInline @inline(never)
    static func depend(computation: UInt64, dependency: UInt64) {
        withTracer { $0.depend(computation: computation, dependency: dependency) }
    }

    @usableFromInline @inline(never)
    static func changed(dependency: UInt64) {
        withTracer { $0.changed(dependency: dependency) }
    }

    @usableFromInline @inline(never)
    static func invalidated(computation: UInt64, cause: InvalidationCause, source: UInt64) {
        withTracer { $0.invalidated(computation: computation, cause: cause, source: source) }
    }

    @usableFromInline @inline(never)
    static func rerunBegan(computation: UInt64, firstRun: Bool) {
        withTracer { $0.rerunBegan(computation: computation, firstRun: firstRun) }
    }

    @usableFromInline @inline(never)
    static func rerunEnded(computation: UInt64) {
        withTracer { $0.rerunEnded(computation: computation) }
    }
}
