import ReactorCore

/// One thread's recording buffer. The owning thread appends whole events and
/// publishes how far it got with one atomic store; the writer thread snapshots
/// that word and ships the bytes between what it shipped last and the snapshot.
/// Internal storage: `@unchecked Sendable` because the bytes below the published
/// offset are immutable once published, and the bytes above it belong to the
/// owning thread alone.
final class TraceSegment: @unchecked Sendable {
    /// The bytes; `capacity` of them.
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// The committed end offset (low 32 bits) and the number of committed
    /// events (high 32 bits), stored with release ordering after each event
    /// by the thread's encoder (ReactorCore's, which the core writes through).
    let published = TracePublishedWord()
    /// How many bytes and events the writer has shipped. Written by the writer
    /// thread only; read by the owning thread's `rotate` once the writer has
    /// finished, before its final pass comes for the thread.
    @exclusivity(unchecked) var shippedOffset = 0
    @exclusivity(unchecked) var shippedEvents: UInt32 = 0
    /// Keeps another object's hot fields off the cache line of `published`.
    private let padding = CacheLinePadding()

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Splits a published word into (offset, events).
    static func unpack(_ word: UInt64) -> (offset: Int, events: UInt32) {
        (Int(UInt32(truncatingIfNeeded: word)), UInt32(truncatingIfNeeded: word >> 32))
    }
}

/// 64 bytes of nothing, stored last in objects whose fields one thread writes
/// on every event, so that no other object starts on the same cache line.
struct CacheLinePadding {
    private let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
}
