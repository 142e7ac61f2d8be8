/// Why a command's output could not be written. Nothing the user had is lost
/// in either case: a refused output is never opened, and a failed one leaves
/// the file that was at the path as it was.
public enum OutputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output resolves to `input` (same device and inode): writing it would destroy the input.
    case isInput(path: String, input: String)
    /// The system refused to open, write, flush or rename; `reason` is its `strerror` text.
    case cannotWrite(path: String, reason: String)

    /// One line for a user.
    public var description: String {
        switch self {
        case let .isInput(path, input):
            path == input
                ? "refusing to write \(path): it is the input file; choose another output with -o"
                : "refusing to write \(path): it is the input file \(input); choose another output"
        case let .cannotWrite(path, reason):
            "cannot write \(path): \(reason)"
        }
    }
}
