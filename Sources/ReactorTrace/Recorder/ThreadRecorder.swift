import ReactorCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-thread encoder of one recording: it appends events to its own
/// segment with no lock and no atomic read-modify-write, only one release store
/// per event. Reached through a C thread-local (CReactorTraceThread), so each
/// thread finds its own with one load.
///
/// Internal storage: `@unchecked Sendable` because the hot fields are touched by
/// the owning thread only, `handoff` is behind a mutex and `exited` is atomic.
final class ThreadRecorder: @unchecked Sendable {
    /// The recorder generation this state belongs to (a stale state from an
    /// earlier recording is replaced, never written to).
    let generation: UInt64
    /// This thread's index in the trace.
    let index: UInt32
    /// Where event times come from (nanoseconds since the trace began).
    let time: TraceTimeSource
    unowned let writer: TraceWriter

    /// The encoder of the node-update events, which the core writes through
    /// inline (ReactorCore's `TraceThreadEncoder`): the cursor, the fast paths'
    /// room limits, the time, computation and dependency registers and the
    /// segment's published word live there.
    let encoder: TraceThreadEncoder

    // Hot state: the owning thread only.
    @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) var limit: Int
    /// The segment being filled (its published word is the encoder's).
    @exclusivity(unchecked) unowned(unsafe) var segment: TraceSegment
    // The encoding registers the encoder does not hold (docs/TRACE_FORMAT.md, "Registers").
    @exclusivity(unchecked) var lastNode: UInt64 = 0
    @exclusivity(unchecked) var strings: [String: UInt64] = [:]
    @exclusivity(unchecked) var nextString: UInt64 = 1
    /// Whether this thread has written a time yet. Until it has, an untimed
    /// event would read as the trace's start, so a clock event goes first.
    @exclusivity(unchecked) var clocked = false
    // The value events' own register and table (docs/TRACE_FORMAT.md, "Values").
    @exclusivity(unchecked) var lastValueNode: UInt64 = 0
    @exclusivity(unchecked) var values: [String: UInt64] = [:]
    @exclusivity(unchecked) var nextValue: UInt64 = 1
    /// The site table: creation and call sites, interned per context.
    @exclusivity(unchecked) var sites: [String: UInt64] = [:]
    @exclusivity(unchecked) var nextSite: UInt64 = 1

    /// What the writer takes: segments filled up, in order, and the current one.
    let handoff: LockedValue<Handoff>
    /// Set when the thread has exited: once its segments are shipped, the writer forgets it.
    let exited = Atomic<Bool>(false)
    /// Writer thread only: the next chunk's sequence number.
    @exclusivity(unchecked) var nextSequence: UInt32 = 0
    /// Writer thread only: the empty list swapped for `handoff.full` when the
    /// writer takes the full segments, so that neither side allocates one.
    @exclusivity(unchecked) var taken: [TraceSegment] = []
    /// Keeps another object's fields off the cache lines of the hot fields.
    private let padding = CacheLinePadding()

    struct Handoff {
        var full: [TraceSegment] = []
        var current: TraceSegment
        /// Segments the writer has shipped and written, reset, for `rotate`
        /// to reuse instead of allocating (at most `TraceWriter.maxSpareSegments`).
        var spare: [TraceSegment] = []
        /// Unshipped events of the segments `rotate` dropped at the stop, which
        /// the writer's final pass adds to the end block's dropped count.
        var droppedEvents: UInt64 = 0
        /// Set by the writer's final pass: what this thread publishes from
        /// then on is after the end of the recording.
        var closed = false
    }

    init(generation: UInt64, index: UInt32, time: TraceTimeSource, writer: TraceWriter) {
        self.generation = generation
        self.index = index
        self.time = time
        self.writer = writer
        let first = TraceSegment(capacity: writer.segmentCapacity)
        encoder = TraceThreadEncoder(recording: generation, tickStart: time.tickStart,
                                     nanosecondsPerTick: time.nanosecondsPerTick, base: first.base,
                                     published: first.published)
        base = first.base
        limit = first.capacity
        segment = first
        handoff = LockedValue(Handoff(current: first))
    }

    // MARK: Encoding primitives

    // The encoder's fields, under the names the events below use.
    @inline(__always)
    var cursor: UnsafeMutablePointer<UInt8> {
        get { encoder.cursor }
        set { encoder.cursor = newValue }
    }
    @inline(__always)
    var untimedLimit: UInt {
        get { encoder.untimedLimit }
        set { encoder.untimedLimit = newValue }
    }
    @inline(__always)
    var timedLimit: UInt {
        get { encoder.timedLimit }
        set { encoder.timedLimit = newValue }
    }
    @inline(__always)
    var lastTime: UInt64 {
        get { encoder.lastTime }
        set { encoder.lastTime = newValue }
    }
    @inline(__always)
    var lastComputation: UInt64 {
        get { encoder.lastComputation }
        set { encoder.lastComputation = newValue }
    }
    @inline(__always)
    var lastDependency: UInt64 {
        get { encoder.lastDependency }
        set { encoder.lastDependency = newValue }
    }

    /// The offset of the next event in the segment.
    @inline(__always)
    var position: Int { cursor - base }

    /// What the segment's `published` word says after the last commit.
    var publishedWord: UInt64 { encoder.publishedWord }


    /// The events committed to the current segment.
    var events: UInt32 { UInt32(truncatingIfNeeded: publishedWord &>> 32) }

    /// Room for an event of at most `bytes` bytes, starting a new segment if needed.
    @inline(__always)
    func reserve(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(position &+ bytes > limit) { rotate(minimum: bytes) }
        return cursor
    }

    /// Publishes the `count` events that end at `end`.
    @inline(__always)
    func commit(_ end: UnsafeMutablePointer<UInt8>, events count: UInt32 = 1) {
        encoder.commit(end, events: count)
    }

    /// The fast paths' test: events of at most ``fixedBound`` bytes fit at
    /// the cursor, and (`timed`) the clock can be read inline.
    @inline(__always)
    func hasRoomOnFastPath(timed: Bool) -> Bool {
        encoder.hasRoomOnFastPath(timed: timed)
    }

    /// The time since the trace began, as a delta from this thread's last timed event.
    @inline(__always)
    func timeDelta() -> UInt64 {
        if _slowPath(!clocked) {
            clocked = true
            refreshLimits()
        }
        return delta(to: time.now())
    }

    /// `time` as a delta from this thread's last timed event, which it becomes.
    @inline(__always)
    func delta(to time: UInt64) -> UInt64 {
        encoder.delta(to: time)
    }

    /// A timed event's delta on the fast path, where `timedLimit` ≥ 0 means the
    /// cycle counter: read inline, no call.
    @inline(__always)
    func fastTime() -> UInt64 {
        encoder.fastTime()
    }

    /// Sets the fast paths' limits for the current segment and clock state.
    func refreshLimits() {
        let fixed = clocked ? UInt(bitPattern: base + (limit &- Self.fixedBound)) : 0
        untimedLimit = fixed
        timedLimit = time.usesTicks ? fixed : 0
    }

    @inline(__always)
    static func put(_ value: UInt64, _ pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        Varint.put(value, at: pointer)
    }

    /// Two varints back to back; when both are below 0x80 (the usual codes:
    /// deltas between neighbouring ids), one test writes both bytes.
    @inline(__always)
    static func put(_ first: UInt64, _ second: UInt64, _ pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if _fastPath(first | second < 0x80) {
            pointer[0] = UInt8(truncatingIfNeeded: first)
            pointer[1] = UInt8(truncatingIfNeeded: second)
            return pointer + 2
        }
        return put(second, put(first, pointer))
    }

    /// The code of a required id relative to `register`, which becomes `id`.
    @inline(__always)
    static func idCode(_ id: UInt64, _ register: inout UInt64) -> UInt64 {
        let code = Varint.zigzagDelta(id, from: register)
        register = id
        return code
    }

    /// A required id relative to `register`.
    @inline(__always)
    static func putID(_ id: UInt64, _ register: inout UInt64, _ pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let code = Varint.zigzagDelta(id, from: register)
        register = id
        return Varint.put(code, at: pointer)
    }

    /// An optional id (0 = none) relative to `register`.
    @inline(__always)
    static func optionalCode(_ id: UInt64, _ register: inout UInt64) -> UInt64 {
        if id == 0 { return 0 }
        let code = Varint.zigzagDelta(id, from: register) &+ 1
        register = id
        return code
    }

    /// The most bytes a string field can take.
    @inline(__always)
    static func stringBound(_ string: String) -> Int {
        min(string.utf8.count, TraceFormat.maxStringLength) &+ 6
    }

    /// Writes a string field: a reference to the chunk context's table, or 0
    /// followed by the new string, which joins the table.
    func putString(_ string: String, _ pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if let reference = strings[string] { return Varint.put(reference, at: pointer) }
        strings[string] = nextString
        nextString &+= 1
        var pointer = Varint.put(0, at: pointer)
        var copy = string
        return copy.withUTF8 { utf8 in
            let length = Self.boundedLength(utf8)
            pointer = Varint.put(UInt64(length), at: pointer)
            if length > 0, let source = utf8.baseAddress { pointer.update(from: source, count: length) }
            return pointer + length
        }
    }

    // MARK: Segments

    /// Hands the full segment to the writer and starts a fresh one, which
    /// starts a fresh encoding context. The one place a recording thread can wait:
    /// when the writer is `maxQueuedSegments` behind (the disk is slower than the
    /// events), until the writer finishes.
    @inline(never)
    func rotate(minimum: Int) {
        // A segment already in the file is reused: its bytes are no longer
        // needed, whatever happens to the process from here on.
        let recycled = minimum <= writer.segmentCapacity ? handoff.withLock { $0.spare.popLast() } : nil
        let fresh = recycled ?? TraceSegment(capacity: max(writer.segmentCapacity, minimum))
        while true {
            let queued = handoff.withLock { handoff -> Bool in
                // Each event published before the writer's final pass takes this
                // lock is written or counted as dropped: the segment is queued while
                // there is room (that pass ships the queue); a finished writer drains
                // no more, so then a full queue drops it, counting what was not
                // shipped (the writer's earlier passes all happened before `isFinished`).
                if !handoff.closed, handoff.full.count < writer.maxQueuedSegments {
                    handoff.full.append(handoff.current)
                } else if writer.isFinished {
                    if !handoff.closed { handoff.droppedEvents &+= UInt64(events &- handoff.current.shippedEvents) }
                } else {
                    return false
                }
                handoff.current = fresh
                return true
            }
            if queued { break }
            writer.wake()
            sched_yield()
        }
        writer.wake()
        base = fresh.base
        cursor = fresh.base
        encoder.publishedOrigin = TraceThreadEncoder.address(fresh.base)
        encoder.published = fresh.published
        limit = fresh.capacity
        segment = fresh
        lastTime = 0
        lastComputation = 0
        lastDependency = 0
        lastNode = 0
        strings.removeAll(keepingCapacity: true)
        nextString = 1
        lastValueNode = 0
        values.removeAll(keepingCapacity: true)
        nextValue = 1
        sites.removeAll(keepingCapacity: true)
        nextSite = 1
        refreshLimits()
    }
}

// MARK: - Events (docs/TRACE_FORMAT.md, "Events")

extension ThreadRecorder {
    /// The most bytes an event without strings takes, or the combined run
    /// ends (the encoder's bound).
    static var fixedBound: Int { TraceThreadEncoder.fixedBound }

    @inline(__always)
    func nodeCreated(_ id: UInt64, kind: TraceNodeKind, name: String, parent: UInt64) {
        var pointer = reserve(Self.fixedBound &+ Self.stringBound(name))
        pointer.pointee = TraceEventKind.nodeCreated.rawValue
        pointer[1] = kind.rawValue
        pointer = Self.putID(id, &lastNode, pointer + 2)
        pointer = putString(name, pointer)
        pointer = Self.put(Self.optionalCode(parent, &lastNode), pointer)
        pointer = Self.put(timeDelta(), pointer)
        commit(pointer)
    }

    /// A clock event (docs/TRACE_FORMAT.md, "Clock events"): the thread's time
    /// before its first event, when that event is untimed. It carries the time
    /// whole and leaves the delta register alone, so the next timed event's delta
    /// is from 0 and a reader that skips the clock event reads that time the same.
    @inline(never)
    func clock() {
        let pointer = reserve(Self.fixedBound)
        pointer.pointee = TraceFormat.clockTag
        clocked = true
        refreshLimits()
        // The body (one varint, at most 10 bytes) follows its one-byte length.
        let end = Self.put(time.now(), pointer + 2)
        pointer[1] = UInt8(end - (pointer + 2))
        commit(end)
    }

    @inline(__always)
    func nodeNamed(_ id: UInt64, name: String, owner: UInt64) {
        if _slowPath(!clocked) { clock() }
        var pointer = reserve(Self.fixedBound &+ Self.stringBound(name))
        pointer.pointee = TraceEventKind.nodeNamed.rawValue
        pointer = Self.putID(id, &lastNode, pointer + 1)
        pointer = putString(name, pointer)
        pointer = Self.put(Self.optionalCode(owner, &lastNode), pointer)
        commit(pointer)
    }

    // The fixed-size events. `record…(…, at:)` writes one at a pointer with
    // room for `fixedBound` bytes (a timed one with its delta already read)
    // and publishes it: TraceRecorder+Events calls it directly on the fast
    // path. The version without `at` is the slow path: it makes that room
    // (a new segment, the thread's first time) and reads the time.

    /// Room for a timed event, and its time: read after `reserve`, because a
    /// new segment restarts the deltas.
    func reserveTimed() -> (UnsafeMutablePointer<UInt8>, UInt64) {
        let pointer = reserve(Self.fixedBound)
        return (pointer, timeDelta())
    }

    /// Room for an untimed event, after the thread's first time.
    func reserveUntimed() -> UnsafeMutablePointer<UInt8> {
        if _slowPath(!clocked) { clock() }
        return reserve(Self.fixedBound)
    }

    @inline(__always)
    func recordNodeStopped(_ id: UInt64, time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = TraceEventKind.nodeStopped.rawValue
        commit(Self.put(time, Self.putID(id, &lastNode, pointer + 1)))
    }

    func nodeStopped(_ id: UInt64) {
        let (pointer, time) = reserveTimed()
        recordNodeStopped(id, time: time, at: pointer)
    }

    @inline(__always)
    func recordDepend(computation: UInt64, dependency: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordDepend(computation: computation, dependency: dependency, at: pointer)
    }

    func depend(computation: UInt64, dependency: UInt64) {
        recordDepend(computation: computation, dependency: dependency, at: reserveUntimed())
    }

    @inline(__always)
    func recordChanged(dependency: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordChanged(dependency: dependency, at: pointer)
    }

    func changed(dependency: UInt64) {
        recordChanged(dependency: dependency, at: reserveUntimed())
    }

    @inline(__always)
    func recordInvalidated(computation: UInt64, cause: InvalidationCause, source: UInt64,
                           at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordInvalidated(computation: computation, cause: cause.rawValue, source: source, at: pointer)
    }

    func invalidated(computation: UInt64, cause: InvalidationCause, source: UInt64) {
        recordInvalidated(computation: computation, cause: cause, source: source, at: reserveUntimed())
    }

    @inline(__always)
    func recordRerunBegan(computation: UInt64, firstRun: Bool, time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordRerunBegan(computation: computation, firstRun: firstRun, time: time, at: pointer)
    }

    func rerunBegan(computation: UInt64, firstRun: Bool) {
        let (pointer, time) = reserveTimed()
        recordRerunBegan(computation: computation, firstRun: firstRun, time: time, at: pointer)
    }

    @inline(__always)
    func recordRerunEnded(computation: UInt64, time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordRerunEnded(computation: computation, time: time, at: pointer)
    }

    func rerunEnded(computation: UInt64) {
        let (pointer, time) = reserveTimed()
        recordRerunEnded(computation: computation, time: time, at: pointer)
    }

    /// `rerunEnded` then `changed(output)`, published together (within
    /// ``fixedBound``).
    @inline(__always)
    func recordRerunEnded(computation: UInt64, changed output: UInt64, time: UInt64,
                          at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordRerunEnded(computation: computation, changed: output, time: time, at: pointer)
    }

    func rerunEnded(computation: UInt64, changed output: UInt64) {
        let (pointer, time) = reserveTimed()
        recordRerunEnded(computation: computation, changed: output, time: time, at: pointer)
    }

    /// `rerunEnded` then `changed(output)` then `invalidated(reader)` with
    /// cause dependency and source `output`, published together; the caller
    /// made room for ``fixedBound`` bytes. `rerunning`: then
    /// `rerunBegan(reader)`, not its first run, at the end's time.
    @inline(__always)
    func recordRerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64, rerunning: Bool,
                          time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordRerunEnded(computation: computation, changed: output, invalidated: reader, rerunning: rerunning,
                                 time: time, at: pointer)
    }

    /// `rerunEnded` then `rerunBegan(next)`, not its first run, at the end's
    /// time (a delta of 0), published together (within ``fixedBound``).
    @inline(__always)
    func recordRerunEnded(computation: UInt64, beginning next: UInt64, time: UInt64,
                          at pointer: UnsafeMutablePointer<UInt8>) {
        encoder.recordRerunEnded(computation: computation, beginning: next, time: time, at: pointer)
    }

    func rerunEnded(computation: UInt64, beginning next: UInt64) {
        let (pointer, time) = reserveTimed()
        recordRerunEnded(computation: computation, beginning: next, time: time, at: pointer)
    }

    func rerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64) {
        let (pointer, time) = reserveTimed()
        recordRerunEnded(computation: computation, changed: output, invalidated: reader, rerunning: false,
                         time: time, at: pointer)
    }

    func rerunEnded(computation: UInt64, changed output: UInt64, rerunning reader: UInt64) {
        let (pointer, time) = reserveTimed()
        recordRerunEnded(computation: computation, changed: output, invalidated: reader, rerunning: true,
                         time: time, at: pointer)
    }

    @inline(__always)
    func actionBegan(store: UInt64, name: String, arguments: String) {
        var pointer = reserve(Self.fixedBound &+ Self.stringBound(name) &+ Self.stringBound(arguments))
        pointer.pointee = TraceEventKind.actionBegan.rawValue
        pointer = Self.putID(store, &lastNode, pointer + 1)
        pointer = putString(name, pointer)
        pointer = putString(arguments, pointer)
        pointer = Self.put(timeDelta(), pointer)
        commit(pointer)
    }

    @inline(__always)
    func recordActionEnded(store: UInt64, time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = TraceEventKind.actionEnded.rawValue
        commit(Self.put(time, Self.putID(store, &lastNode, pointer + 1)))
    }

    func actionEnded(store: UInt64) {
        let (pointer, time) = reserveTimed()
        recordActionEnded(store: store, time: time, at: pointer)
    }

    @inline(__always)
    func recordFlush(began: Bool, time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = (began ? TraceEventKind.flushBegan : TraceEventKind.flushEnded).rawValue
        commit(Self.put(time, pointer + 1))
    }

    func flush(began: Bool) {
        let (pointer, time) = reserveTimed()
        recordFlush(began: began, time: time, at: pointer)
    }

    /// A value event: tag 64, the body's length, then the node relative to
    /// its own register and a reference to the value table (or a new value).
    /// Off the hot path: only recordings with values on emit it.
    func value(_ node: UInt64, description: String) {
        if _slowPath(!clocked) { clock() }
        var copy = description
        copy.withUTF8 { utf8 in
            let length = Self.boundedLength(utf8)
            // After `reserve`: a new segment resets the register.
            var pointer = reserve(Self.fixedBound &+ length)
            let nodeCode = Varint.zigzagDelta(node, from: lastValueNode)
            lastValueNode = node
            pointer.pointee = TraceFormat.valueTag
            let reference = values[description]
            if reference == nil {
                values[description] = nextValue
                nextValue &+= 1
            }
            let body = Varint.size(nodeCode) &+ Self.internedSize(reference, length: length)
            pointer = Self.put(UInt64(body), pointer + 1)
            pointer = Self.put(nodeCode, pointer)
            pointer = Self.putInterned(reference, utf8, length: length, pointer)
            commit(pointer)
        }
    }

    /// How many of `utf8`'s bytes an interned text keeps: at most
    /// `TraceFormat.maxStringLength`, cut at a character boundary.
    static func boundedLength(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var length = utf8.count
        if length > TraceFormat.maxStringLength {
            length = TraceFormat.maxStringLength
            while length > 0, utf8[length] & 0xC0 == 0x80 { length -= 1 }
        }
        return length
    }

    /// The bytes an interned text takes in a value or site body: its table
    /// reference, or 0 then the length and the bytes of a new entry.
    static func internedSize(_ reference: UInt64?, length: Int) -> Int {
        guard let reference else { return 1 &+ Varint.size(UInt64(length)) &+ length }
        return Varint.size(reference)
    }

    /// Writes an interned text as ``internedSize(_:length:)`` counts it.
    static func putInterned(_ reference: UInt64?, _ utf8: UnsafeBufferPointer<UInt8>, length: Int,
                            _ pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if let reference { return put(reference, pointer) }
        var pointer = put(UInt64(length), put(0, pointer))
        if length > 0, let source = utf8.baseAddress { pointer.update(from: source, count: length) }
        pointer += length
        return pointer
    }

    /// A site event: tag 65, the body's length, the node (plain varint), the
    /// role (0 creation, 1 action call), then a reference to the site table
    /// or a new site. Once per node or action call, off the hot path.
    func site(_ node: UInt64, site: String, isActionCall: Bool) {
        var copy = site
        copy.withUTF8 { utf8 in
            let length = Self.boundedLength(utf8)
            // After `reserve`: a new segment resets the site table.
            var pointer = reserve(Self.fixedBound &+ length)
            pointer.pointee = TraceFormat.siteTag
            let reference = sites[site]
            if reference == nil {
                sites[site] = nextSite
                nextSite &+= 1
            }
            let body = Varint.size(node) &+ 1 &+ Self.internedSize(reference, length: length)
            pointer = Self.put(UInt64(body), pointer + 1)
            pointer = Self.put(node, pointer)
            pointer = Self.put(isActionCall ? 1 : 0, pointer)
            pointer = Self.putInterned(reference, utf8, length: length, pointer)
            commit(pointer)
        }
    }

    @inline(__always)
    func issue(_ kind: TraceIssueKind, node: UInt64, message: String) {
        var pointer = reserve(Self.fixedBound &+ Self.stringBound(message))
        pointer.pointee = TraceEventKind.issue.rawValue
        pointer[1] = kind.rawValue
        pointer = Self.put(Self.optionalCode(node, &lastNode), pointer + 2)
        pointer = putString(message, pointer)
        pointer = Self.put(timeDelta(), pointer)
        commit(pointer)
    }
}
