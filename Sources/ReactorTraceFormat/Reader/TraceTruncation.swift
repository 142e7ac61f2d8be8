/// Where a damaged or unfinished trace stopped being readable. Everything
/// before `offset` was read; the chunks after it (if any) were not.
public struct TraceTruncation: Sendable, Equatable, CustomStringConvertible {
    /// The byte offset of the first block that could not be read (the file length if none was missing but the end block).
    public var offset: Int
    /// Why reading stopped there.
    public var reason: TraceDecodingError

    /// A truncation at `offset` for `reason`.
    public init(offset: Int, reason: TraceDecodingError) {
        self.offset = offset
        self.reason = reason
    }

    /// One line for a user.
    public var description: String { reason.description }
}
