/// A hot signal that remembers the last `bufferSize` values it sent
/// (RACReplaySubject) and replays them, then its terminal event if it has
/// ended, to each new subscriber.
public final class ReplaySubject<Value>: @unchecked Sendable {
    // @unchecked Sendable: the state lives in `core` and the buffer, guarded by the graph lock.
    @usableFromInline let core: SubjectCore<Value>
    /// The most values kept.
    public let bufferSize: Int
    /// A ring: `buffer[start...]` then `buffer[..<start]` once it is full.
    @usableFromInline @exclusivity(unchecked) var buffer: [Value] = []
    @usableFromInline @exclusivity(unchecked) var start = 0

    /// Creates a subject that replays up to `bufferSize` values (all of them by default).
    public convenience init(bufferSize: Int = .max) {
        self.init(bufferSize: bufferSize, name: nil)
    }

    /// Creates a subject that replays up to `bufferSize` values, named `name` in traces.
    public convenience init(bufferSize: Int, name: String?) {
        self.init(bufferSize: bufferSize, name: name, redacted: false)
    }

    /// Creates a subject that replays up to `bufferSize` values, named `name`
    /// in traces, whose values, when `redacted`, traces never record (they are
    /// written as `‹redacted›`, and so is what their deliveries write and send).
    public init(bufferSize: Int, name: String?, redacted: Bool) {
        self.bufferSize = max(0, bufferSize)
        core = SubjectCore(kind: .subject, name: name ?? "ReplaySubject<\(Value.self)>", redacted: redacted)
    }

    /// Records `value` for later subscribers and sends it to the current ones,
    /// unless the subject has ended.
    @inlinable
    public func send(_ value: Value) {
        signalDelivery {
            guard !core.isTerminated else { return }
            remember(value)
            core.deliver(value)
        }
    }

    @inlinable
    func remember(_ value: Value) {
        if buffer.count < bufferSize {
            buffer.append(value)
        } else if bufferSize > 0 {
            buffer[start] = value
            start += 1
            if start == bufferSize { start = 0 }
        }
    }

    /// Ends the subject with an error; later subscribers get the buffered
    /// values, then the error.
    public func send(error: any Error) {
        signalDelivery { core.finish(.failed(error)) }
    }

    /// Ends the subject normally; later subscribers get the buffered values,
    /// then the completion.
    public func sendCompleted() {
        signalDelivery { core.finish(.completed) }
    }

    /// The buffered values, oldest first.
    public var bufferedValues: [Value] {
        graph.lock.withLock { Array(buffer[start...] + buffer[..<start]) }
    }

    /// The buffered values, then every later event.
    public var signal: Signal<Value> {
        Signal(name: core.name) { [self] observer in
            let replay = buffer[start...] + buffer[..<start]
            var cancelled = false
            core.replaying(holdingSecret: core.hasSentSecret) {
                for value in replay {
                    if observer.sink.isTerminated {
                        cancelled = true
                        return
                    }
                    observer.forward(value)
                }
            }
            if cancelled { return nil }
            return core.register(observer)
        }
    }

    /// The id under which the subject appears in traces.
    public var id: UInt64 { core.id }

    /// The number of current subscribers.
    public var subscriberCount: Int { core.subscriberCount }
}
