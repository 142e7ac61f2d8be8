/// The distinct value texts of an index pass, numbered in order of first sight, told apart by
/// their UTF-8 bytes (as the section stores them). A text of up to 15 bytes, as most values are,
/// is packed into two words and found by a multiplicative hash in an open-addressed table, so a
/// value event hashes no String; a longer one is found by its bytes in a dictionary.
struct ValueTextTable {
    /// The texts, by number.
    private(set) var texts: [String] = []
    /// Per slot: a short text's bytes (low, then high word with the length in its top byte), and
    /// its number (-1: empty slot).
    private var lows: [UInt64]
    private var highs: [UInt64]
    private var numbers: [Int32]
    /// 64 minus the log2 of the slot count: a hash's top bits pick the slot.
    private var shift: UInt64
    private var longTexts: [[UInt8]: Int32] = [:]
    private var shortTexts = 0

    init() {
        let slots = 1 << 10
        lows = Array(repeating: 0, count: slots)
        highs = Array(repeating: 0, count: slots)
        numbers = Array(repeating: -1, count: slots)
        shift = UInt64(64 - 10)
    }

    /// The number of `text`, and whether it was first seen now.
    mutating func intern(_ text: String) -> (number: Int32, new: Bool) {
        var text = text
        let key: (low: UInt64, high: UInt64)? = text.withUTF8 { utf8 in
            guard utf8.count < 16 else { return nil }
            var low: UInt64 = 0, high = UInt64(utf8.count) &<< 56
            for index in 0..<utf8.count {
                let byte = UInt64(utf8[index])
                if index < 8 { low |= byte &<< UInt64(index &* 8) } else { high |= byte &<< UInt64((index &- 8) &* 8) }
            }
            return (low, high)
        }
        guard let key else { return internLong(text) }
        let mask = numbers.count &- 1
        var slot = Int(truncatingIfNeeded: ((key.low ^ (key.high &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
        while true {
            let number = numbers[slot]
            if number < 0 { break }
            if lows[slot] == key.low, highs[slot] == key.high { return (number, false) }
            slot = (slot &+ 1) & mask
        }
        let number = Int32(texts.count)
        texts.append(text)
        lows[slot] = key.low
        highs[slot] = key.high
        numbers[slot] = number
        shortTexts += 1
        if shortTexts * 2 > numbers.count { grow() }
        return (number, true)
    }

    private mutating func internLong(_ text: String) -> (number: Int32, new: Bool) {
        let bytes = Array(text.utf8)
        if let known = longTexts[bytes] { return (known, false) }
        let number = Int32(texts.count)
        texts.append(text)
        longTexts[bytes] = number
        return (number, true)
    }

    /// Twice the slots, every short text placed again.
    private mutating func grow() {
        let old = (lows, highs, numbers)
        let slots = numbers.count * 2
        lows = Array(repeating: 0, count: slots)
        highs = Array(repeating: 0, count: slots)
        numbers = Array(repeating: -1, count: slots)
        shift -= 1
        let mask = slots - 1
        for index in old.2.indices where old.2[index] >= 0 {
            let low = old.0[index], high = old.1[index]
            var slot = Int(truncatingIfNeeded: ((low ^ (high &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
            while numbers[slot] >= 0 { slot = (slot &+ 1) & mask }
            lows[slot] = low
            highs[slot] = high
            numbers[slot] = old.2[index]
        }
    }
}
