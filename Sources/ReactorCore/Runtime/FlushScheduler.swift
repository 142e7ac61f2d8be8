import Dispatch

/// When a runtime reruns its invalidated computations.
public enum FlushScheduler {
    /// Nothing reruns until ``Reactor/flush()`` is called (Tracker's tests flush by hand).
    case manual
    /// Flush synchronously when the outermost batch, action, write or other
    /// graph operation returns.
    case endOfBatch
    /// Flush asynchronously on `queue`, once per burst of invalidations (like
    /// Tracker's `setTimeout` flush in a browser).
    case dispatch(DispatchQueue)
}
