import Observation

/// A writable source (or a derived cell) for the Observation implementations.
@Observable
final class ObservedSignal {
    var value: Int

    init(_ value: Int) {
        self.value = value
    }
}
