/// The integer encodings of the trace format: LEB128 varints and zigzag signed deltas.
// `@usableFromInline`: without it Swift does not inline a package type's
// `@inlinable` members into other modules, and the recorder (ReactorTrace)
// would call `put` and `zigzagDelta` out of line on every event.
@usableFromInline
package enum Varint {
    /// Writes `value` as an unsigned LEB128 varint at `pointer`; returns the end.
    @inlinable @inline(__always)
    package static func put(_ value: UInt64, at pointer: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
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

    /// How many bytes `value` takes as a varint (1 to 10).
    @inlinable @inline(__always)
    package static func size(_ value: UInt64) -> Int {
        (64 &- (value | 1).leadingZeroBitCount &+ 6) / 7
    }

    /// Appends `value` as an unsigned LEB128 varint.
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value &>>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// The zigzag code of `value &- base` read as a signed delta: small deltas of
    /// either sign become small unsigned numbers (0, -1, 1, -2 … → 0, 1, 2, 3 …).
    @inlinable @inline(__always)
    package static func zigzagDelta(_ value: UInt64, from base: UInt64) -> UInt64 {
        let delta = Int64(bitPattern: value &- base)
        return UInt64(bitPattern: (delta &<< 1) ^ (delta &>> 63))
    }

    /// Inverse of ``zigzagDelta(_:from:)``: the value whose delta from `base` has this code.
    @inlinable @inline(__always)
    package static func undoZigzagDelta(_ code: UInt64, from base: UInt64) -> UInt64 {
        let delta = (code &>> 1) ^ (0 &- (code & 1))
        return base &+ delta
    }
}

extension Array where Element == UInt8 {
    /// Appends a little-endian fixed-width integer.
    package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var value = value.littleEndian
        Swift.withUnsafeBytes(of: &value) { append(contentsOf: $0) }
    }
}
