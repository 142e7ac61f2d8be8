import OpenCombine

/// The `sink`s at the ends of the map-chain implementations: each stores the
/// last value its pipeline delivered and counts its runs (the JS cases' effects).
final class MapChainSink {
    @exclusivity(unchecked) private(set) var values: [Int]
    @exclusivity(unchecked) private(set) var runs = 0
    private var cancellables: [AnyCancellable] = []

    init(count: Int) {
        values = Array(repeating: 0, count: count)
    }

    /// Subscribes a `sink` to `pipeline` that stores its values at `index`.
    func attach(_ pipeline: AnyPublisher<Int, Never>, at index: Int) {
        cancellables.append(pipeline.sink { [unowned self] value in
            values[index] = value
            runs += 1
        })
    }
}
