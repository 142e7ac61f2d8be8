extension UInt64 {
    /// `self + other`, or `UInt64.max` when the sum does not fit: times and
    /// counts come from the file, and a damaged one's sum must not trap or wrap
    /// round to a small number.
    @inlinable
    func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

extension UInt64 {
    /// `value` rounded toward zero, 0 for a negative value or NaN, `UInt64.max`
    /// for one too large (`Double(UInt64.max)` itself is 2⁶⁴, which `UInt64(_:)` traps on).
    @inlinable
    init(saturating value: Double) {
        if !(value > 0) {
            self = 0
        } else if value >= 18_446_744_073_709_551_616.0 {
            self = .max
        } else {
            self = UInt64(value)
        }
    }
}

extension UInt64 {
    /// `self − other` as a signed number, clamped to `Int64`'s range (two
    /// times read from a file may be further apart than `Int64` holds).
    @inlinable
    func signedDistance(from other: UInt64) -> Int64 {
        self >= other ? Int64(clamping: self - other) : -Int64(clamping: other - self)
    }
}
