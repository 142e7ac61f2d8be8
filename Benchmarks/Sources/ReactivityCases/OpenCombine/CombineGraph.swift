import OpenCombine

/// Builds one case's graph in OpenCombine and keeps its subscriptions.
///
/// A derived value is a `CurrentValueSubject` fed by its pipeline, so that it
/// is computed once and shared by every reader, as a computed value is.
/// `removeDuplicates` gives it the JS frameworks' equality cut-off.
/// OpenCombine 0.14 has no `combineLatest` operator, so ``combineLatest(_:_:)``
/// does what that operator does with the subjects' latest values: a `sink` on
/// each input recomputes the node when any input emits.
final class CombineGraph {
    let counter = EffectCounter()
    private var cancellables: [AnyCancellable] = []

    /// A node holding `transform(input)`: `input.map(transform).removeDuplicates()`.
    func map<Input, Output: Equatable>(_ input: CurrentValueSubject<Input, Never>,
                                       _ transform: @escaping (Input) -> Output) -> CurrentValueSubject<Output, Never> {
        let node = CurrentValueSubject<Output, Never>(transform(input.value))
        cancellables.append(input.map(transform).removeDuplicates().subscribe(node))
        return node
    }

    /// A node holding `combine()`, recomputed whenever one of `inputs` emits.
    func combineLatest<Input, Output: Equatable>(_ inputs: [CurrentValueSubject<Input, Never>],
                                                 _ combine: @escaping () -> Output) -> CurrentValueSubject<Output, Never> {
        let node = CurrentValueSubject<Output, Never>(combine())
        for input in inputs {
            cancellables.append(input.dropFirst().sink { _ in
                let value = combine()
                if value != node.value { node.send(value) }
            })
        }
        return node
    }

    /// A subscriber that runs `body` with each value and counts its runs.
    func effect<Value>(_ node: CurrentValueSubject<Value, Never>, _ body: @escaping (Value) -> Void = { _ in }) {
        let counter = counter
        cancellables.append(node.sink { value in
            body(value)
            counter.runs += 1
        })
    }
}
