/// The sending end given to a ``Signal``'s body: it sends one subscriber its
/// values, then at most one error or completion.
///
/// After an error or a completion nothing more is delivered. Events may be
/// sent from any thread; deliveries to one subscriber never interleave.
public struct Observer<Value> {
    @usableFromInline let sink: SignalSink<Value>

    @inlinable
    init(sink: SignalSink<Value>) {
        self.sink = sink
    }

    /// Sends the subscriber a value.
    @inlinable
    public func send(_ value: Value) {
        signalDelivery { sink.receive(value) }
    }

    /// Sends the subscriber a value that `source` (a node id, or 0) sent:
    /// traces record the receiving stage's run as caused by that node. A
    /// value that `isSecret` makes what its delivery produces secret (traced only).
    func send(_ value: Value, from source: UInt64, isSecret: Bool = false) {
        signalDelivery {
            if TraceEmit.isOn {
                let graph = ReactorCore.graph
                if source == 0 { return graph.delivering(secret: isSecret) { sink.receive(value) } }
                graph.withSignalSource(source, isStage: false) { graph.delivering(secret: isSecret) { sink.receive(value) } }
            } else {
                sink.receive(value)
            }
        }
    }

    /// Ends the subscription with an error, releasing everything upstream.
    public func send(error: any Error) {
        signalDelivery { sink.receive(error: error) }
    }

    /// Ends the subscription normally, releasing everything upstream.
    public func sendCompleted() {
        signalDelivery { sink.receiveCompleted() }
    }

    /// True once the subscriber has terminated or cancelled: a body producing
    /// values in a loop can stop early.
    public var isTerminated: Bool {
        graph.lock.withLock { sink.isTerminated }
    }

    // Operators receive their upstream's events with the graph lock already
    // held and forward them without taking it again.

    @inlinable @inline(__always)
    func forward(_ value: Value) {
        sink.receive(value)
    }

    @usableFromInline
    func forward(error: any Error) {
        sink.receive(error: error)
    }

    @usableFromInline
    func forwardCompleted() {
        sink.receiveCompleted()
    }
}

/// An observer may be handed to another thread (a network callback, a
/// dispatch queue) when its values may: every event takes the graph lock.
extension Observer: @unchecked Sendable where Value: Sendable {}
