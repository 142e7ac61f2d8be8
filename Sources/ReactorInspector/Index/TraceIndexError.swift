/// Why an index file was not used (it is then rebuilt, or the question is answered by a pass).
public enum TraceIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the index magic.
    case notAnIndex
    /// An index of another format version.
    case otherVersion(UInt16)
    /// The file is cut short, fails its checksum, or holds figures that cannot be right.
    case damaged(String)
    /// The index's tag does not verify with this user's key: written elsewhere, or edited.
    case untrusted
    /// The index was built from another trace, or from this one at another size.
    case stale
    /// The index file could not be read or written.
    case unavailable(String)

    /// One line for a user.
    public var description: String {
        switch self {
        case .notAnIndex: "not a Reactor trace index"
        case let .otherVersion(version): "index format version \(version), this reader writes \(TraceIndex.version)"
        case let .damaged(reason): "damaged index (\(reason))"
        case .untrusted: "not written by this user's reader (its tag does not verify)"
        case .stale: "built from another version of the trace"
        case let .unavailable(reason): reason
        }
    }
}
