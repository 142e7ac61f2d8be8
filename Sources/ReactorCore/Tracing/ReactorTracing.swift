import Synchronization

/// Installs the process-wide tracer and hands out node ids.
public enum ReactorTracing {
    /// Installs `tracer` (or removes the current one with `nil`). Events emitted
    /// after this returns go to the new tracer. The previous tracer is kept
    /// alive, because a thread may be inside one of its methods.
    public static func install(_ tracer: (any ReactorTracer)?) {
        #if Tracing
        let box = tracer.map { Unmanaged.passRetained(TracerBox($0)) }
        if let old = tracerSlot.exchange(box, ordering: .acquiringAndReleasing) {
            retired.withLock { $0.append(old.takeRetainedValue()) }
        }
        #endif
    }

    /// The installed tracer, if any.
    public static var tracer: (any ReactorTracer)? {
        #if Tracing
        tracerSlot.load(ordering: .acquiring)?.takeUnretainedValue().tracer
        #else
        nil
        #endif
    }

    /// True when tracing is compiled in (the `Tracing` package trait, on by default).
    public static var isCompiledIn: Bool {
        #if Tracing
        true
        #else
        false
        #endif
    }

    /// A new process-unique node id (never 0).
    static func makeID() -> UInt64 {
        nextID.add(1, ordering: .relaxed).newValue
    }
}

/// Holds the tracer existential behind one pointer, so installing it is one
/// atomic store and checking it is one load.
@usableFromInline
final class TracerBox: Sendable {
    @usableFromInline let tracer: any ReactorTracer
    /// The tracer's `valueLengthLimit`, read once: a traced write checks it
    /// with one load from the box it already holds, not a call.
    @usableFromInline let valueLengthLimit: Int
    /// The entry points of the node-update events (``TraceHook`` calls them).
    @usableFromInline let hot: TraceHotPaths
    /// The context of `hot` when it forwards to the protocol methods.
    private let holder: TracerHolder?
    init(_ tracer: any ReactorTracer) {
        self.tracer = tracer
        valueLengthLimit = max(0, tracer.valueLengthLimit)
        if let provider = tracer as? any TraceHotPathProvider {
            hot = provider.hotPaths
            holder = nil
        } else {
            let holder = TracerHolder(tracer)
            hot = .forwarding(to: holder)
            self.holder = holder
        }
    }
}

@usableFromInline
let tracerSlot = Atomic<Unmanaged<TracerBox>?>(nil)
private let retired = LockedValue<[TracerBox]>([])
private let nextID = Atomic<UInt64>(0)

/// `withTracer` for an emission that may record a value: `emit` also gets the
/// tracer's value length limit (0 when values are off).
@inlinable @inline(__always)
func withTracerAndValueLimit(_ emit: (any ReactorTracer, Int) -> Void) {
    #if Tracing
    if let box = tracerSlot.load(ordering: .acquiring) {
        box._withUnsafeGuaranteedRef { emit($0.tracer, $0.valueLengthLimit) }
    }
    #endif
}

/// The trace hook used at every emission site: one atomic load and a branch
/// when no tracer is installed, nothing at all when tracing is compiled out.
@inlinable @inline(__always)
func withTracer(_ emit: (TraceHook) -> Void) {
    #if Tracing
    // Acquiring: the box was published by another thread (a plain load on x86).
    if let box = tracerSlot.load(ordering: .acquiring) {
        // Boxes are never freed (see `install`), so the tracer can be borrowed:
        // no retain and release (two atomic operations) around every event.
        box._withUnsafeGuaranteedRef { emit(TraceHook(box: $0)) }
    }
    #endif
}

/// Sends `node`'s creation site (or, with `isActionCall`, the call site of the
/// action it just began) to the tracer. The text is built only when a tracer
/// is installed: untraced, passing a site costs two arguments.
@usableFromInline
func traceSite(_ node: UInt64, fileID: String, line: Int, isActionCall: Bool = false) {
    withTracer { $0.site(node, site: "\(fileID):\(line)", isActionCall: isActionCall) }
}

/// `traceSite` for a `#fileID` given as a `StaticString` (no allocation untraced).
@usableFromInline
func traceSite(_ node: UInt64, fileID: StaticString, line: UInt, isActionCall: Bool = false) {
    withTracer { $0.site(node, site: "\(fileID):\(line)", isActionCall: isActionCall) }
}
