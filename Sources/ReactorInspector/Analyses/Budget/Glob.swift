#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shell-style glob over node names, matched by the C library's `fnmatch(3)`
/// with no flags: `*` matches any run of characters (including none, dots and
/// slashes), `?` exactly one, `[abc]`, `[a-z]` and `[!x]` one character of a
/// class; `\` escapes the next character, and a `[` without a closing `]`
/// matches itself. Matching is case-sensitive, covers the whole name and counts
/// characters (UTF-8), not bytes.
public struct Glob: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String

    /// Checks `pattern`; throws when it cannot match as written: a trailing `\`
    /// escapes nothing (fnmatch then matches no name at all) and C strings end at NUL.
    public init(_ pattern: String) throws(GlobError) {
        if pattern.utf8.contains(0) { throw GlobError(pattern: pattern, message: "contains a NUL character") }
        let trailingBackslashes = pattern.utf8.reversed().prefix { $0 == UInt8(ascii: "\\") }.count
        if trailingBackslashes % 2 == 1 { throw GlobError(pattern: pattern, message: "trailing '\\' escapes nothing") }
        self.pattern = pattern
    }

    /// True when the whole of `name` matches.
    public func matches(_ name: String) -> Bool {
        // fnmatch reads multibyte characters in the thread's locale: switch this
        // thread to UTF-8 for the call, so that `?` and classes take a character.
        let previous = utf8Locale.flatMap { uselocale($0) }
        defer { if let previous { uselocale(previous) } }
        return fnmatch(pattern, name, 0) == 0
    }

    /// The pattern.
    public var description: String { pattern }
}

/// The UTF-8 character-type locale `Glob` matches in, or nil where the C
/// library has none (then the thread's locale is used). Created once and
/// never changed or freed; `uselocale` applies it to one thread only, so
/// sharing the handle across threads is safe.
private nonisolated(unsafe) let utf8Locale: locale_t? =
    newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "UTF-8", nil)

/// A glob pattern that cannot be used.
public struct GlobError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern.
    public var pattern: String
    /// What is wrong with it.
    public var message: String
    /// `invalid pattern "add\": trailing '\' escapes nothing`.
    public var description: String { "invalid pattern \"\(pattern)\": \(message)" }
}
