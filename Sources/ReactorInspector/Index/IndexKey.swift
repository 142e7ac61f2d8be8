#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This user's key for index tags: 16 random bytes in
/// `$XDG_CACHE_HOME/reactor-inspect/index.key` (else `~/.cache/…`), made on
/// first use, readable by the user alone. An index whose tag does not verify
/// with it was not written by this user's reader (copied with a trace, or
/// edited): it is rebuilt. Without a key (no home, an unwritable cache) no
/// index is trusted beyond what reading the trace checks.
enum IndexKey {
    /// The key, made when there is none; nil when it can be neither read nor made.
    static let current: SipHash24? = load()

    static var path: String? {
        let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache + "/reactor-inspect/index.key" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.cache/reactor-inspect/index.key" }
        return nil
    }

    private static func load() -> SipHash24? {
        guard let path else { return nil }
        if let key = readKey(path) { return key }
        // Made in a temporary file and linked into place: of two readers making it at once, one key wins.
        let folder = String(path.dropLast("/index.key".count))
        var partial = ""
        for component in folder.split(separator: "/") {
            partial += "/" + component
            _ = mkdir(partial, 0o700)
        }
        var random = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0..<16 { bytes.append(UInt8.random(in: .min ... .max, using: &random)) }
        let temporary = "\(path).\(getpid()).tmp"
        unlink(temporary)   // left by a process of the same id that died between open and unlink
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, 16) }
        close(descriptor)
        defer { unlink(temporary) }
        guard written == 16 else { return nil }
        _ = link(temporary, path)
        return readKey(path)
    }

    private static func readKey(_ path: String) -> SipHash24? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 16 else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, 16) }) == 16 else { return nil }
        func word(_ start: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[start + $1]) << UInt64(8 * $1) }
        }
        return SipHash24(key: (word(0), word(8)))
    }
}
