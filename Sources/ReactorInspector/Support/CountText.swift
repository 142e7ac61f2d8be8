/// A count with its noun, singular for one: "1 run", "2 runs", "1 issue".
public enum CountText {
    /// `count` and `noun`, with `plural` (default: `noun` + "s") for any count but 1.
    public static func of(_ count: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }

    /// The line that ends a list cut to its first `shown` of `total` entries, or nil when
    /// nothing was cut: `… 3 more (--top N)`, the flag that shows more.
    public static func more(shown: Int, of total: Int, flag: String = "--top N") -> String? {
        total > shown ? "… \(total - shown) more (\(flag))" : nil
    }
}
