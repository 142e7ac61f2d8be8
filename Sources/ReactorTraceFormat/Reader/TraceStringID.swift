/// A string of a trace event read through ``TraceReader/forEachBatch(_:)``: its
/// position in the string table of the batch's thread (``TraceEventBatch/strings``).
///
/// Plain data, so that a ``PlainTraceEvent`` copies as bytes; resolve it with
/// ``TraceEventBatch/string(_:)``. An id stays valid for every later batch of the
/// same thread until a chunk starts a fresh context (the table then starts over).
public struct TraceStringID: Hashable, Sendable, BitwiseCopyable {
    /// The position in the thread's string table, from 0.
    public var index: UInt32

    /// The string at `index` of a thread's table.
    public init(index: UInt32) { self.index = index }
}
