/// Why a computation was invalidated; the raw value is the cause's code in the log.
public enum InvalidationCause: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    /// A dependency it read changed; the event's source is that dependency.
    case dependency = 1
    /// Its parent computation was invalidated, which stops it; source is the parent.
    case parent = 2
    /// `invalidate()` or `run()` was called.
    case explicit = 3
    /// `stop()` was called (or, for a computed, the object was released).
    case stop = 4
    /// The flush stopped it as a runaway: it kept invalidating itself within one flush.
    case runaway = 5
    /// Its first run threw, which stops it (the error went to `onError` or the issue handler).
    case error = 6
}
