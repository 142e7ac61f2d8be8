#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes its output, written so that nothing the user had is lost:
///
/// - `-` is standard output.
/// - A path that is not a regular file (a character device such as `/dev/null`, a FIFO)
///   is opened and written through; it is never replaced.
/// - A symbolic link is followed: its target is written, and the link stays a link.
/// - A regular file (or a new one) is replaced atomically: the output goes to a temporary
///   file in the same directory, which is flushed to disk and renamed over the path at
///   ``commit()``. On any error, or when the output is dropped without a commit, the
///   temporary file is removed and whatever was at the path is untouched.
/// - An output that is one of the command's inputs (the same path, or the same device and
///   inode: a hard link, a symlink) is refused before anything is opened.
///
/// Errors carry the system's reason (`strerror`).
public final class OutputFile {
    private enum Target {
        case standardOutput
        /// A device or FIFO, written in place.
        case passThrough(descriptor: Int32)
        /// A temporary file renamed over `destination` at commit.
        case replacing(descriptor: Int32, temporary: String, destination: String)
        case closed
    }

    /// The path as the user gave it (`-` for standard output), for messages.
    public let path: String
    private var target: Target

    /// True when the output goes to standard output.
    public var isStandardOutput: Bool { path == "-" }

    /// The output as messages name it.
    private var shownPath: String { isStandardOutput ? "standard output" : path }

    /// Opens `path` for writing. `inputs` are the files the command reads: an output
    /// that is one of them is refused with ``OutputFileError/isInput(path:input:)``.
    public init(path: String, inputs: [String] = []) throws(OutputFileError) {
        self.path = path
        try Self.refuseInputs(path, inputs: inputs)
        if path == "-" {
            target = .standardOutput
            return
        }
        // A pipe, socket, terminal or device is written in place. Checked by the kernel's own
        // link resolution first: `/dev/stdout` in a pipeline leads through /proc to "pipe:[…]",
        // a link target no path reaches.
        var followed = stat()
        if stat(path, &followed) == 0, followed.st_mode & S_IFMT != S_IFREG, followed.st_mode & S_IFMT != S_IFDIR {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: Self.reason(errno)) }
            target = .passThrough(descriptor: descriptor)
            return
        }
        let destination = try Self.followingLinks(path)
        var status = stat()
        if lstat(destination, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                target = try Self.temporary(replacing: destination, existing: status, reportedAs: path)
            case S_IFDIR:
                throw .cannotWrite(path: path, reason: Self.reason(EISDIR))
            default:
                let descriptor = open(destination, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: Self.reason(errno)) }
                target = .passThrough(descriptor: descriptor)
            }
        } else if errno == ENOENT {
            target = try Self.temporary(replacing: destination, existing: nil, reportedAs: path)
        } else {
            throw .cannotWrite(path: path, reason: Self.reason(errno))
        }
    }

    deinit {
        abandon()
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
        let descriptor: Int32
        switch target {
        case .standardOutput:
            fflush(nil)  // keep the order with text the process printed through stdio
            descriptor = 1
        case let .passThrough(open), let .replacing(open, _, _):
            descriptor = open
        case .closed:
            throw .cannotWrite(path: shownPath, reason: "the output is already closed")
        }
        let error = writeAll(descriptor, bytes)
        if error != 0 {
            abandon()
            throw .cannotWrite(path: shownPath, reason: Self.reason(error))
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputFileError) {
        let error = bytes.withUnsafeBytes { writeAllOrStop($0) }
        if let error { throw error }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws(OutputFileError) {
        var text = text
        let error = text.withUTF8 { writeAllOrStop(UnsafeRawBufferPointer($0)) }
        if let error { throw error }
    }

    /// ``write(_:)-(UnsafeRawBufferPointer)`` with its error returned, for the closures that lend bytes.
    private func writeAllOrStop(_ bytes: UnsafeRawBufferPointer) -> OutputFileError? {
        do throws(OutputFileError) {
            try write(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// Finishes the output: a replaced file is flushed to disk and renamed over the
    /// path; a device or FIFO is closed. Nothing is replaced unless this succeeds.
    public func commit() throws(OutputFileError) {
        switch target {
        case .standardOutput:
            target = .closed
        case let .passThrough(descriptor):
            target = .closed
            if close(descriptor) != 0, errno != EINTR { throw .cannotWrite(path: shownPath, reason: Self.reason(errno)) }
        case let .replacing(descriptor, temporary, destination):
            // A full disk can surface only at fsync or close (delayed allocation, NFS).
            if fsync(descriptor) != 0, errno != EINVAL {
                let error = errno
                abandon()
                throw .cannotWrite(path: shownPath, reason: Self.reason(error))
            }
            target = .closed
            if close(descriptor) != 0, errno != EINTR {
                let error = errno
                unlink(temporary)
                throw .cannotWrite(path: shownPath, reason: Self.reason(error))
            }
            guard rename(temporary, destination) == 0 else {
                let error = errno
                unlink(temporary)
                throw .cannotWrite(path: shownPath, reason: Self.reason(error))
            }
            Self.syncDirectory(of: destination)
        case .closed:
            throw .cannotWrite(path: shownPath, reason: "the output is already closed")
        }
    }

    /// Drops the output: a temporary file is closed and removed, the path left as it was.
    private func abandon() {
        switch target {
        case let .passThrough(descriptor):
            close(descriptor)
        case let .replacing(descriptor, temporary, _):
            close(descriptor)
            unlink(temporary)
        case .standardOutput, .closed:
            break
        }
        target = .closed
    }

    /// Writes `text` to `path` as one output (see ``OutputFile``).
    public static func write(_ text: String, to path: String, inputs: [String] = []) throws(OutputFileError) {
        let output = try OutputFile(path: path, inputs: inputs)
        try output.write(text)
        try output.commit()
    }

    /// Appends `text` to `path`, creating it if needed, for files that collect several
    /// runs' output (GitHub's step summary). A symlink is followed; an input is refused.
    public static func append(_ text: String, to path: String, inputs: [String] = []) throws(OutputFileError) {
        try refuseInputs(path, inputs: inputs)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: reason(errno)) }
        let error = Array(text.utf8).withUnsafeBytes { writeAll(descriptor, $0) }
        if error != 0 {
            close(descriptor)
            throw .cannotWrite(path: path, reason: reason(error))
        }
        if close(descriptor) != 0, errno != EINTR { throw .cannotWrite(path: path, reason: reason(errno)) }
    }

    /// Throws when `path` is one of `inputs`: the same name, or the same file
    /// (device and inode) however it is reached. Standard output counts when it
    /// is redirected to an input.
    public static func refuseInputs(_ path: String, inputs: [String]) throws(OutputFileError) {
        var output = stat()
        let outputExists = path == "-" ? fstat(1, &output) == 0 : stat(path, &output) == 0
        for input in inputs {
            if input == path { throw .isInput(path: path, input: input) }
            var status = stat()
            guard outputExists, stat(input, &status) == 0 else { continue }
            if status.st_dev == output.st_dev, status.st_ino == output.st_ino {
                throw .isInput(path: path == "-" ? "standard output" : path, input: input)
            }
        }
    }

    /// The path that symbolic links at `path` lead to (the path itself when it is
    /// not a link); a link to a missing file leads to where that file would be.
    private static func followingLinks(_ path: String) throws(OutputFileError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { throw .cannotWrite(path: path, reason: reason(errno)) }
            let link = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
        }
        throw .cannotWrite(path: path, reason: reason(ELOOP))
    }

    /// Creates the temporary file next to `destination`, with the replaced file's mode and owner.
    private static func temporary(replacing destination: String, existing: stat?,
                                  reportedAs path: String) throws(OutputFileError) -> Target {
        let name = destination.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? "output"
        let directory = directory(of: destination)
        for _ in 0..<100 {
            let temporary = "\(directory)/.\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw .cannotWrite(path: path, reason: reason(errno))
            }
            if let existing {
                // Replacing must not change who may read the file; ownership can only be kept when permitted.
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                _ = fchmod(descriptor, existing.st_mode & 0o7777)
            }
            return .replacing(descriptor: descriptor, temporary: temporary, destination: destination)
        }
        throw .cannotWrite(path: path, reason: reason(EEXIST))
    }

    /// The directory part of `path` (`.` for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes the rename durable; a directory that cannot be synced changes nothing for the caller.
    private static func syncDirectory(of path: String) {
        let descriptor = open(directory(of: path), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// The system's text for `code`.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// Writes all of `buffer` to `descriptor`, retrying after signals; returns 0 or the `errno` that stopped it.
@discardableResult
package func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
    guard let base = buffer.baseAddress else { return 0 }
    var offset = 0
    while offset < buffer.count {
        #if canImport(Glibc)
        let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
        #else
        let written = Darwin.write(descriptor, base + offset, buffer.count - offset)
        #endif
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        if written == 0 { return EIO }   // no progress: never spin
        offset += written
    }
    return 0
}
