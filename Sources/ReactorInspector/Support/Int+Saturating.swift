extension Int {
    /// `value` rounded toward zero, clamped to `Int.min ... Int.max` (0 for NaN).
    @inlinable
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_808.0 {
            self = .max
        } else if value < -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
