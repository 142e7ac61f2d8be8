/// The value side of a computed, as its computation sees it: something to
/// recompute.
///
/// `recompute` is a function made where the value's type is known, so it runs
/// specialized code (an override in a generic subclass would not), and it is
/// called through a `let` of an unretained reference: no closure context to
/// retain, no `unowned` reference to promote.
///
/// Owned by its `Computed`; when that goes away during a graph operation, it
/// is kept until the operation ends (`Graph.keepUntilOperationEnds`), because
/// a derivation in progress may be what dropped it.
@usableFromInline
class DerivedValue {
    /// Recomputes the value of its argument (this object) and tells whether
    /// it differs from the previous one. Graph lock held, computation current.
    @usableFromInline let recompute: (DerivedValue) -> Bool

    @usableFromInline
    init(recompute: @escaping (DerivedValue) -> Bool) {
        self.recompute = recompute
    }
}
