import ReactorCore

/// A writable source for the ReactorCore implementations: one `@Reactive` integer
/// (an equal write invalidates nothing, as with the JS frameworks' signals).
final class ReactorSignal {
    @Reactive var value: Int

    init(_ value: Int) {
        _value = Reactive(wrappedValue: value)
    }
}
