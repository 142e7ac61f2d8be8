import CReactorCoreThread
import Synchronization

// The fixed-size node-update events (docs/TRACE_FORMAT.md, "Events"): the
// core writes them inline through the thread's encoder, and the recorder's
// entry points (their slow paths included) through the same functions, so
// both write the same bytes. Each writes at a pointer with room for
// `fixedBound` bytes (a timed one with its delta already read) and publishes.

extension TraceThreadEncoder {
    /// The event kinds' tags (`ReactorTraceFormat.TraceEventKind`'s raw values;
    /// ReactorTraceTests checks that they agree).
    @usableFromInline package static var dependTag: UInt8 { 4 }
    @usableFromInline package static var changedTag: UInt8 { 5 }
    @usableFromInline package static var invalidatedTag: UInt8 { 6 }
    @usableFromInline package static var rerunBeganTag: UInt8 { 7 }
    @usableFromInline package static var rerunEndedTag: UInt8 { 8 }
    /// `InvalidationCause.dependency`'s code in the schema.
    @usableFromInline package static var dependencyCauseCode: UInt8 { 1 }

    /// The most bytes an event without strings takes, or the combined run
    /// ends: `rerunEnded`, `changed`, `invalidated` and `rerunBegan` together
    /// take at most 21, 11, 21 and 3 (a single event at most 21). One bound for
    /// all, so that no fast path adds to the cursor before its room check.
    @inlinable
    package static var fixedBound: Int { 56 }

    @inlinable @inline(__always)
    package static func address(_ pointer: UnsafeMutablePointer<UInt8>) -> UInt64 { UInt64(UInt(bitPattern: pointer)) }

    /// What the segment's `published` word says after the last commit.
    @inlinable
    package var publishedWord: UInt64 { Self.address(cursor) &- publishedOrigin }

    /// The fast paths' test: events of at most ``fixedBound`` bytes fit at
    /// the cursor, and (`timed`) the clock can be read inline.
    @inlinable @inline(__always)
    package func hasRoomOnFastPath(timed: Bool) -> Bool {
        UInt(bitPattern: cursor) <= (timed ? timedLimit : untimedLimit)
    }

    /// Publishes the `count` events that end at `end`. A segment's offsets
    /// stay far below 2³² (a segment holds 1 MiB at most, or one large event),
    /// so the length never carries into the count.
    @inlinable @inline(__always)
    package func commit(_ end: UnsafeMutablePointer<UInt8>, events count: UInt32 = 1) {
        publishedOrigin &-= UInt64(count) &<< 32
        cursor = end
        published.word.store(Self.address(end) &- publishedOrigin, ordering: .releasing)
    }

    /// `time` as a delta from this thread's last timed event, which it becomes.
    @inlinable @inline(__always)
    package func delta(to time: UInt64) -> UInt64 {
        guard time > lastTime else { return 0 }
        defer { lastTime = time }
        return time &- lastTime
    }

    /// The time since the trace began from the cycle counter (0 if a reading
    /// falls before it): only when ``timedLimit`` is not 0. The 128-bit
    /// product's bits 32 to 95: one `shrd` after the `mul`.
    @inlinable @inline(__always)
    package func ticksNow() -> UInt64 {
        let ticks = reactor_core_ticks()
        guard ticks > tickStart else { return 0 }
        let product = UInt128(ticks &- tickStart) &* UInt128(nanosecondsPerTick)
        return UInt64(truncatingIfNeeded: product &>> 32)
    }

    /// A timed event's delta on the fast path (the cycle counter, read inline).
    @inlinable @inline(__always)
    package func fastTime() -> UInt64 {
        delta(to: ticksNow())
    }

    // MARK: Codes

    /// `value` as a varint at `pointer`; returns the end.
    @inlinable @inline(__always)
    package static func put(_ value: UInt64, _ pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        // One and two bytes without the loop: ids, codes and most time deltas.
        if _fastPath(value < 0x80) {
            pointer.pointee = UInt8(truncatingIfNeeded: value)
            return pointer + 1
        }
        if value < 0x4000 {
            pointer[0] = UInt8(truncatingIfNeeded: value) | 0x80
            pointer[1] = UInt8(truncatingIfNeeded: value &>> 7)
            return pointer + 2
        }
        var value = value
        var pointer = pointer
        while value >= 0x80 {
            pointer.pointee = UInt8(truncatingIfNeeded: value) | 0x80
            value &>>= 7
            pointer += 1
        }
        pointer.pointee = UInt8(truncatingIfNeeded: value)
        return pointer + 1
    }

    /// Two varints back to back; when both are below 0x80 (the usual codes:
    /// deltas between neighbouring ids), one test writes both bytes.
    @inlinable @inline(__always)
    package static func put(_ first: UInt64, _ second: UInt64, _ pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if _fastPath(first | second < 0x80) {
            pointer[0] = UInt8(truncatingIfNeeded: first)
            pointer[1] = UInt8(truncatingIfNeeded: second)
            return pointer + 2
        }
        return put(second, put(first, pointer))
    }

    /// `value − base` zig-zag encoded (small deltas either way, small codes).
    @inlinable @inline(__always)
    package static func zigzagDelta(_ value: UInt64, from base: UInt64) -> UInt64 {
        let delta = Int64(bitPattern: value &- base)
        return UInt64(bitPattern: (delta &<< 1) ^ (delta &>> 63))
    }

    /// The code of a required id relative to `register`, which becomes `id`.
    @inlinable @inline(__always)
    package static func idCode(_ id: UInt64, _ register: inout UInt64) -> UInt64 {
        let code = zigzagDelta(id, from: register)
        register = id
        return code
    }

    /// ``idCode(_:_:)`` with the usual case of a run's end first: after the
    /// run's last read, `id` is the register's already (code 0, no store).
    @inlinable @inline(__always)
    package static func runIDCode(_ id: UInt64, _ register: inout UInt64) -> UInt64 {
        if _fastPath(id == register) { return 0 }
        return idCode(id, &register)
    }

    /// An optional id (0 = none) relative to `register`.
    @inlinable @inline(__always)
    package static func optionalCode(_ id: UInt64, _ register: inout UInt64) -> UInt64 {
        if id == 0 { return 0 }
        let code = zigzagDelta(id, from: register) &+ 1
        register = id
        return code
    }

    /// ``optionalCode(_:_:)`` with the usual case first: the invalidations
    /// of one change after its first, whose source `id` (not 0) is the
    /// register's already (code 1, no store).
    @inlinable @inline(__always)
    package static func repeatedOptionalCode(_ id: UInt64, _ register: inout UInt64) -> UInt64 {
        if _fastPath(id == register && id != 0) { return 1 }
        return optionalCode(id, &register)
    }

    // MARK: Events

    @inlinable @inline(__always)
    package func recordDepend(computation: UInt64, dependency: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        let dependencyCode = Self.idCode(dependency, &lastDependency)
        if _fastPath(computation == lastComputation) {
            // A read after its run's begin or another of its reads: the
            // computation's code is 0, and the tag and it are one store.
            UnsafeMutableRawPointer(pointer).storeBytes(of: UInt16(Self.dependTag).littleEndian, as: UInt16.self)
            return commit(Self.put(dependencyCode, pointer + 2))
        }
        pointer.pointee = Self.dependTag
        let computationCode = Self.idCode(computation, &lastComputation)
        commit(Self.put(computationCode, dependencyCode, pointer + 1))
    }

    @inlinable @inline(__always)
    package func recordChanged(dependency: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = Self.changedTag
        commit(Self.put(Self.idCode(dependency, &lastDependency), pointer + 1))
    }

    /// `cause` is the schema's code (1 to 6).
    @inlinable @inline(__always)
    package func recordInvalidated(computation: UInt64, cause: UInt8, source: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = Self.invalidatedTag
        let computationCode = Self.idCode(computation, &lastComputation)
        let sourceCode = Self.repeatedOptionalCode(source, &lastDependency)
        commit(Self.put(computationCode, sourceCode &<< 3 | UInt64(cause & 0x7), pointer + 1))
    }

    @inlinable @inline(__always)
    package func recordRerunBegan(computation: UInt64, firstRun: Bool, time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = Self.rerunBeganTag
        let code = Self.zigzagDelta(computation, from: lastComputation)
        lastComputation = computation
        commit(Self.put(time, Self.put(code &<< 1 | (firstRun ? 1 : 0), pointer + 1)))
    }

    @inlinable @inline(__always)
    package func recordRerunEnded(computation: UInt64, time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = Self.rerunEndedTag
        commit(Self.put(time, Self.put(Self.idCode(computation, &lastComputation), pointer + 1)))
    }

    /// `rerunEnded` then `changed(output)`, published together (within
    /// ``fixedBound``).
    @inlinable @inline(__always)
    package func recordRerunEnded(computation: UInt64, changed output: UInt64, time: UInt64,
                                  at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = Self.rerunEndedTag
        let computationCode = Self.runIDCode(computation, &lastComputation)
        let outputCode = Self.idCode(output, &lastDependency)
        if _fastPath(computationCode | outputCode < 0x80) {
            // The usual ids, one byte each: one test for the two.
            pointer[1] = UInt8(truncatingIfNeeded: computationCode)
            let change = Self.put(time, pointer + 2)
            change[0] = Self.changedTag
            change[1] = UInt8(truncatingIfNeeded: outputCode)
            commit(change + 2, events: 2)
            return
        }
        let change = Self.put(time, Self.put(computationCode, pointer + 1))
        change.pointee = Self.changedTag
        commit(Self.put(outputCode, change + 1), events: 2)
    }

    /// `rerunEnded` then `changed(output)` then `invalidated(reader)` with
    /// cause dependency and source `output`, published together. `rerunning`:
    /// then `rerunBegan(reader)`, not its first run, at the end's time.
    @inlinable @inline(__always)
    package func recordRerunEnded(computation: UInt64, changed output: UInt64, invalidated reader: UInt64, rerunning: Bool,
                                  time: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        // The invalidation's source is `output`, which the change just put in
        // the dependency register: its optional code is a delta of 0 (code 1),
        // one byte with the cause in its low three bits. (An `output` of 0, which
        // the core never sends, reads back as source 0 all the same: the register
        // holds 0.)
        let sourceByte: UInt8 = 1 &<< 3 | Self.dependencyCauseCode & 0x7
        pointer.pointee = Self.rerunEndedTag
        let computationCode = Self.runIDCode(computation, &lastComputation)
        let outputCode = Self.idCode(output, &lastDependency)
        let readerCode = Self.idCode(reader, &lastComputation)
        var end: UnsafeMutablePointer<UInt8>
        if _fastPath(computationCode | outputCode | readerCode < 0x80) {
            // The usual ids, one byte each: one test for the three.
            pointer[1] = UInt8(truncatingIfNeeded: computationCode)
            let change = Self.put(time, pointer + 2)
            change[0] = Self.changedTag
            change[1] = UInt8(truncatingIfNeeded: outputCode)
            change[2] = Self.invalidatedTag
            change[3] = UInt8(truncatingIfNeeded: readerCode)
            change[4] = sourceByte
            end = change + 5
        } else {
            let change = Self.put(time, Self.put(computationCode, pointer + 1))
            change.pointee = Self.changedTag
            let invalidation = Self.put(outputCode, change + 1)
            invalidation.pointee = Self.invalidatedTag
            end = Self.put(readerCode, invalidation + 1)
            end.pointee = sourceByte
            end += 1
        }
        guard rerunning else { return commit(end, events: 3) }
        // The rerun's begin: `reader` is in the computation register (code 0),
        // not a first run, and its time is the end's (a delta of 0).
        end[0] = Self.rerunBeganTag
        end[1] = 0
        end[2] = 0
        commit(end + 3, events: 4)
    }

    /// `rerunEnded` then `rerunBegan(next)`, not its first run, at the end's
    /// time (a delta of 0), published together (within ``fixedBound``).
    @inlinable @inline(__always)
    package func recordRerunEnded(computation: UInt64, beginning next: UInt64, time: UInt64,
                                  at pointer: UnsafeMutablePointer<UInt8>) {
        pointer.pointee = Self.rerunEndedTag
        let computationCode = Self.runIDCode(computation, &lastComputation)
        // The begin's code: the id's, then the first-run bit (clear).
        let nextCode = Self.idCode(next, &lastComputation) &<< 1
        if _fastPath(computationCode | nextCode < 0x80) {
            // The usual ids, one byte each: one test for the two.
            pointer[1] = UInt8(truncatingIfNeeded: computationCode)
            let begin = Self.put(time, pointer + 2)
            begin[0] = Self.rerunBeganTag
            begin[1] = UInt8(truncatingIfNeeded: nextCode)
            begin[2] = 0
            commit(begin + 3, events: 2)
            return
        }
        let begin = Self.put(time, Self.put(computationCode, pointer + 1))
        begin.pointee = Self.rerunBeganTag
        let end = Self.put(nextCode, begin + 1)
        end.pointee = 0
        commit(end + 1, events: 2)
    }
}

extension ReactorTracing.InvalidationCause {
    /// The trace schema's code of this cause (`ReactorTraceFormat.InvalidationCause`'s
    /// raw value; ReactorTraceTests checks that they agree).
    @inlinable @inline(__always)
    package var traceCode: UInt8 {
        switch self {
        case .dependency: 1
        case .parent: 2
        case .explicit: 3
        case .stop: 4
        case .runaway: 5
        case .error: 6
        }
    }
}
