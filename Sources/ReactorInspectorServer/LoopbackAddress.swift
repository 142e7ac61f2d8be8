#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which IP addresses only this machine can reach: 127.0.0.0/8, ::1, and
/// 127.0.0.0/8 written as IPv4-mapped IPv6 (::ffff:127.0.0.1), in any of
/// their spellings (the text is parsed, not compared).
enum LoopbackAddress {
    /// True for a loopback address, false for another address, nil for text that is not an IP address.
    static func isLoopback(_ text: String) -> Bool? {
        var ip4 = in_addr()
        if inet_pton(AF_INET, text, &ip4) == 1 {
            return UInt32(bigEndian: ip4.s_addr) >> 24 == 127
        }
        var ip6 = in6_addr()
        guard inet_pton(AF_INET6, text, &ip6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: ip6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }
}
