import FlyingFox
import FlyingSocks

/// A response body that never ends by itself: the Server-Sent Event messages
/// of a ``TraceFollower`` subscription, sent as they come (chunked). The
/// connection ends when the client goes: the next write fails, the server
/// drops the body, and the subscription ends with it.
struct EventStreamBody: AsyncBufferedSequence {
    typealias Element = UInt8

    let messages: AsyncStream<[UInt8]>

    func makeAsyncIterator() -> Iterator {
        Iterator(messages: messages.makeAsyncIterator())
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var messages: AsyncStream<[UInt8]>.Iterator
        var pending: ArraySlice<UInt8> = []

        mutating func next() async -> UInt8? {
            guard await fill() else { return nil }
            return pending.popFirst()
        }

        mutating func nextBuffer(suggested count: Int) async -> ArraySlice<UInt8>? {
            guard await fill() else { return nil }
            let out = pending.prefix(Swift.max(1, count))
            pending = pending.dropFirst(out.count)
            return out
        }

        /// Waits for the next message when none is pending; false once the stream ended.
        private mutating func fill() async -> Bool {
            while pending.isEmpty {
                guard let message = await messages.next() else { return false }
                pending = message[...]
            }
            return true
        }
    }
}
