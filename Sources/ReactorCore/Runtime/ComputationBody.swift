/// An autorun's body in an object of its own, so that a computation can call
/// it through an unretained reference: a closure stored in a `var` is
/// retained around each call, since the call could replace it.
final class ComputationBody {
    let run: (Computation) throws -> Void

    init(_ run: @escaping (Computation) throws -> Void) {
        self.run = run
    }
}
