/// The memoized value of a `Computed<Value>` and its body.
/// Internal storage: `cached` is read and written with the graph lock held.
@usableFromInline
final class DerivedCell<Value>: DerivedValue {
    @usableFromInline @exclusivity(unchecked) var cached: Value?
    @usableFromInline let body: () -> Value

    /// A cell whose every recomputation counts as a change.
    @inlinable
    init(body: @escaping () -> Value) {
        self.body = body
        super.init(recompute: DerivedCell.recomputeAlwaysChanged)
    }

    /// A cell whose recomputation to an equal value is no change.
    @inlinable
    init(body: @escaping () -> Value) where Value: Equatable {
        self.body = body
        super.init(recompute: { DerivedCell.recomputeCutOffByEquality($0) })
    }

    @inlinable
    static func recomputeAlwaysChanged(_ value: DerivedValue) -> Bool {
        let cell = unsafeDowncast(value, to: DerivedCell.self)
        cell.cached = cell.body()
        return true
    }
}

extension DerivedCell where Value: Equatable {
    @inlinable
    static func recomputeCutOffByEquality(_ value: DerivedValue) -> Bool {
        let cell = unsafeDowncast(value, to: DerivedCell.self)
        let newValue = cell.body()
        defer { cell.cached = newValue }
        guard let old = cell.cached else { return true }
        return !(old == newValue)
    }
}
