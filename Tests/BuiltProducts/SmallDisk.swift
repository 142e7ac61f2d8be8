import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private tmpfs of a few KiB, to make writes fail the way a full disk does
/// (ENOSPC). Mounting needs root (CAP_SYS_ADMIN); tests that need one are
/// enabled only when ``canMount`` is true.
public final class SmallDisk {
    /// The mount point.
    public let directory: String

    /// Mounts a tmpfs of `kibibytes` KiB on a new temporary directory; nil if mounting is not permitted.
    public init?(kibibytes: Int) {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("reactor-disk-XXXXXX").path.utf8CString)
        guard let created = mkdtemp(&template) else { return nil }
        directory = String(cString: created)
        #if os(Linux)
        guard mount("tmpfs", directory, "tmpfs", 0, "size=\(kibibytes)k") == 0 else {
            rmdir(directory)
            return nil
        }
        #else
        rmdir(directory)
        return nil
        #endif
    }

    deinit {
        #if os(Linux)
        umount2(directory, Int32(MNT_DETACH))
        #endif
        rmdir(directory)
    }

    /// The path of `name` on the disk.
    public func path(_ name: String) -> String { directory + "/" + name }

    /// True when this process may mount a tmpfs (checked once, by mounting one).
    public static let canMount: Bool = SmallDisk(kibibytes: 4) != nil
}
