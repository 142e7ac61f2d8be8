import CReactorCoreThread
import Synchronization

/// One thread's encoder of the node-update events of one recording, in the
/// trace format (docs/TRACE_FORMAT.md, "Events"): the cursor into the thread's
/// segment, the fast paths' room limits, the delta registers of times,
/// computations and dependencies, and the segment's published word.
///
/// A recorder's per-thread state (`ReactorTrace.ThreadRecorder`) holds one and
/// makes it the thread's (`reactor_core_trace_encoder_set`); the core then
/// writes the fixed-size events of the installed recording itself, inline at
/// the emission site (``TraceHotPaths/withEncoder(timed:_:)``): no call, no
/// frame, no load of the recorder. Whenever the fast path cannot take an
/// event (no encoder on the thread, another recording's, no room, the
/// thread's first time, a clock that is not the cycle counter), the core
/// calls the recorder's entry point, which handles it in full and writes the
/// same bytes through the same encoder.
///
/// Internal storage: `@unchecked Sendable` because every mutable field is the
/// owning thread's alone (the recorder hands the segment's published word to
/// its writer through `published`'s atomic).
@usableFromInline
package final class TraceThreadEncoder: @unchecked Sendable {
    /// The recording this encoder writes for (never 0): the core writes through
    /// the thread's encoder only when it is the installed tracer's
    /// (``TraceHotPaths/recording``), so a stale encoder of an ended recording
    /// is never written to.
    @usableFromInline package let recording: UInt64
    /// The cycle counter at trace time 0, and nanoseconds per tick in 32.32
    /// fixed point: the timed events' clock when ``timedLimit`` is not 0.
    @usableFromInline package let tickStart: UInt64
    @usableFromInline package let nanosecondsPerTick: UInt64

    /// Where the next event starts.
    @exclusivity(unchecked) @usableFromInline var _cursor: UnsafeMutablePointer<UInt8>
    /// The last addresses where an untimed, or a timed, event of at most
    /// ``fixedBound`` bytes may start on the fast path, which then checks
    /// nothing else; 0 sends every such event to the recorder's slow path.
    @exclusivity(unchecked) @usableFromInline var _untimedLimit: UInt = 0
    @exclusivity(unchecked) @usableFromInline var _timedLimit: UInt = 0
    /// The segment's `published` word (the committed offset in the low 32 bits,
    /// the events in the high 32) is the cursor's address minus this one: the
    /// segment's base minus the events times 2³². A commit of `n` events
    /// subtracts `n` · 2³² from it and stores the cursor minus it, so it
    /// neither reloads the old cursor nor adds a length.
    @exclusivity(unchecked) @usableFromInline var _publishedOrigin: UInt64
    /// The current segment's published word (its owner keeps it alive).
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var _published: TracePublishedWord
    // The encoding registers (docs/TRACE_FORMAT.md, "Registers").
    @exclusivity(unchecked) @usableFromInline var _lastTime: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var _lastComputation: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var _lastDependency: UInt64 = 0
    /// The address of a tracer box of this encoder's recording, the last the
    /// core saw installed on this thread (``noteInstalled(_:)``), or 1 before
    /// any: while the tracer slot holds that box, the installed tracer is this
    /// recording, which one compare of the slot tells (``withInstalled(_:)``).
    /// Boxes are never freed, so no other installation has that address; no
    /// box is at 1, and an empty slot (0) never matches.
    @exclusivity(unchecked) @usableFromInline var _installedBox: UInt = 1

    // The fields, for the recorder's module through inlinable accessors: a
    // client module's direct access to a stored property of this class would
    // be checked for exclusivity at run time (a call on every access), which
    // `@exclusivity(unchecked)` turns off only in code compiled here.
    @inlinable package var cursor: UnsafeMutablePointer<UInt8> {
        @inline(__always) get { _cursor }
        @inline(__always) set { _cursor = newValue }
    }
    @inlinable package var untimedLimit: UInt {
        @inline(__always) get { _untimedLimit }
        @inline(__always) set { _untimedLimit = newValue }
    }
    @inlinable package var timedLimit: UInt {
        @inline(__always) get { _timedLimit }
        @inline(__always) set { _timedLimit = newValue }
    }
    @inlinable package var publishedOrigin: UInt64 {
        @inline(__always) get { _publishedOrigin }
        @inline(__always) set { _publishedOrigin = newValue }
    }
    @inlinable package var published: TracePublishedWord {
        @inline(__always) get { _published }
        @inline(__always) set { _published = newValue }
    }
    @inlinable package var lastTime: UInt64 {
        @inline(__always) get { _lastTime }
        @inline(__always) set { _lastTime = newValue }
    }
    @inlinable package var lastComputation: UInt64 {
        @inline(__always) get { _lastComputation }
        @inline(__always) set { _lastComputation = newValue }
    }
    @inlinable package var lastDependency: UInt64 {
        @inline(__always) get { _lastDependency }
        @inline(__always) set { _lastDependency = newValue }
    }

    /// Keeps another object's fields off the cache lines of the hot fields.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// An encoder for `recording` (not 0) at the start of the segment `base`,
    /// whose word is `published`, with no room on the fast path until the
    /// owner sets the limits.
    package init(recording: UInt64, tickStart: UInt64, nanosecondsPerTick: UInt64,
                 base: UnsafeMutablePointer<UInt8>, published: TracePublishedWord) {
        precondition(recording != 0, "a trace encoder's recording is never 0")
        self.recording = recording
        self.tickStart = tickStart
        self.nanosecondsPerTick = nanosecondsPerTick
        _cursor = base
        _publishedOrigin = Self.address(base)
        _published = published
    }

    /// Makes `encoder` the calling thread's (nil: none).
    package static func setCurrent(_ encoder: TraceThreadEncoder?) {
        reactor_core_trace_encoder_set(encoder.map { Unmanaged.passUnretained($0).toOpaque() })
    }

    /// Runs `body` with the calling thread's encoder and returns true when it
    /// is `recording`'s and a fixed-size event can be written on the fast path:
    /// room for ``fixedBound`` bytes and a time, and (`timed`) the cycle
    /// counter. Else returns false, having done nothing.
    @inlinable @inline(__always)
    package static func withCurrent(of recording: UInt64, timed: Bool, _ body: (TraceThreadEncoder) -> Void) -> Bool {
        guard let raw = reactor_core_trace_encoder_get() else { return false }
        return Unmanaged<TraceThreadEncoder>.fromOpaque(raw)._withUnsafeGuaranteedRef { encoder in
            guard encoder.recording == recording, encoder.hasRoomOnFastPath(timed: timed) else { return false }
            body(encoder)
            return true
        }
    }

    /// Runs `body` with the calling thread's encoder and returns true when it
    /// is the installed tracer's (its ``_installedBox`` is the slot's) and an
    /// untimed fixed-size event fits on the fast path. Else returns false,
    /// having done nothing: the caller sends the event through the installed
    /// tracer (``TraceEmit``), which then notes its box. The same test as
    /// ``withCurrent(of:timed:_:)``'s with the installed box's recording, with
    /// no load of the box: the thread's encoder first, then one compare.
    @inlinable @inline(__always)
    static func withInstalled(_ body: (TraceThreadEncoder) -> Void) -> Bool {
        guard let raw = reactor_core_trace_encoder_get() else { return false }
        return Unmanaged<TraceThreadEncoder>.fromOpaque(raw)._withUnsafeGuaranteedRef { encoder in
            // The slot's word, 0 when empty (no branch: an optional reference is its address or 0).
            let installed = unsafeBitCast(tracerSlot.load(ordering: .acquiring), to: UInt.self)
            guard encoder._installedBox == installed, encoder.hasRoomOnFastPath(timed: false) else { return false }
            body(encoder)
            return true
        }
    }

    /// ``withInstalled(_:)`` for an emission site that holds the installed
    /// box (`box`, its address) already, and for timed events too.
    @inlinable @inline(__always)
    static func withCurrent(installedAt box: UInt, timed: Bool, _ body: (TraceThreadEncoder) -> Void) -> Bool {
        guard let raw = reactor_core_trace_encoder_get() else { return false }
        return Unmanaged<TraceThreadEncoder>.fromOpaque(raw)._withUnsafeGuaranteedRef { encoder in
            guard encoder._installedBox == box, encoder.hasRoomOnFastPath(timed: timed) else { return false }
            body(encoder)
            return true
        }
    }

    /// Notes `box` as installed with the calling thread's encoder when that
    /// encoder is the box's recording (after an event went through the box's
    /// entry point, which makes the thread's encoder the recording's).
    @usableFromInline
    static func noteInstalled(_ box: TracerBox) {
        guard let raw = reactor_core_trace_encoder_get() else { return }
        Unmanaged<TraceThreadEncoder>.fromOpaque(raw)._withUnsafeGuaranteedRef { encoder in
            if encoder.recording == box.hot.recording {
                encoder._installedBox = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
            }
        }
    }

    /// The calling thread's encoder, if any (for tests).
    package static var current: TraceThreadEncoder? {
        reactor_core_trace_encoder_get().map { Unmanaged<TraceThreadEncoder>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// A segment's published word: the committed end offset (low 32 bits) and
/// the number of committed events (high 32 bits), stored with release ordering
/// by the owning thread after each commit and read by the recorder's writer.
@usableFromInline
package final class TracePublishedWord: Sendable {
    @usableFromInline package let word = Atomic<UInt64>(0)
    /// Keeps another object's hot fields off the cache line of `word`.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    package init() {}
}
