/// Strings numbered in the order first met, so that an index section writes each
/// once (``put(into:)``) and names it by its position everywhere else.
struct IndexStringTable {
    private(set) var strings: [String] = []
    private var positions: [String: Int] = [:]

    /// The position of `text`, added at the end when it is new.
    mutating func position(of text: String) -> Int {
        if let known = positions[text] { return known }
        positions[text] = strings.count
        strings.append(text)
        return strings.count - 1
    }

    /// Writes how many strings, then each.
    func put(into fields: inout IndexFieldWriter) {
        fields.put(strings.count)
        for text in strings { fields.put(text) }
    }
}
