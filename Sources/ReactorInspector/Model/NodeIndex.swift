/// Maps node ids to positions in the builder's arrays. Ids are handed out by
/// one process-wide counter, so they are small and dense: a flat table serves
/// them without hashing, and a dictionary catches the rest. The table grows
/// only as far as the ids inserted fill it (at most ``slack`` more slots than
/// twice their number), so a file naming node 4,000,000 costs one dictionary
/// entry, not a table of 4 million slots.
struct NodeIndex {
    private var dense: [Int32] = []          // id -> position + 1, 0 = absent
    private var sparse: [UInt64: Int32] = [:]
    private static let denseLimit: UInt64 = 1 << 22
    /// Slots the table may hold beyond twice the ids inserted.
    private static let slack: UInt64 = 4096
    private var inserted: UInt64 = 0

    /// Slots in the flat table (what a hostile id could once inflate).
    var tableSlots: Int { dense.count }

    @inline(__always)
    func find(_ id: UInt64) -> Int32? {
        if id < UInt64(dense.count) {
            let value = dense[Int(id)]
            return value == 0 ? nil : value - 1
        }
        return sparse.isEmpty ? nil : sparse[id]
    }

    mutating func insert(_ id: UInt64, at position: Int32) {
        inserted += 1
        if id >= UInt64(dense.count), id < Self.denseLimit, id < 2 * inserted + Self.slack {
            let newCount = Swift.max(Int(id) + 1, Swift.min(dense.count * 2, Int(Self.denseLimit)))
            dense.append(contentsOf: repeatElement(0, count: newCount - dense.count))
            // Ids the table now covers move in from the dictionary, so `find` looks in one place.
            if !sparse.isEmpty {
                for (known, at) in sparse where known < UInt64(newCount) {
                    dense[Int(known)] = at + 1
                    sparse[known] = nil
                }
            }
        }
        if id < UInt64(dense.count) {
            dense[Int(id)] = position + 1
        } else {
            sparse[id] = position
        }
    }
}
