/// Why a computation was invalidated; the raw value is the cause's code in the log.
public enum InvalidationCause: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    /// A dependency it read changed; the event's source is that dependency.
    case dependency = 1
    /// Its parent computation was invalidated, which stops it; source is the parent.
    case parent = 2
    /// `invalidate()` or `run()` was called.
    case explicit = 3
    /// `stop()` was called.
    case stop = 4
}
