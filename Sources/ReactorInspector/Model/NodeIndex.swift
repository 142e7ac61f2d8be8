/// Maps node ids to positions in the builder's arrays. Ids are handed out by
/// one process-wide counter, so they are small and dense: a flat table serves
/// them without hashing, and a dictionary catches the rest.
struct NodeIndex {
    private var dense: [Int32] = []          // id -> position + 1, 0 = absent
    private var sparse: [UInt64: Int32] = [:]
    private static let denseLimit: UInt64 = 1 << 22

    @inline(__always)
    func find(_ id: UInt64) -> Int32? {
        if id < Self.denseLimit {
            let slot = Int(id)
            guard slot < dense.count else { return nil }
            let value = dense[slot]
            return value == 0 ? nil : value - 1
        }
        return sparse[id]
    }

    mutating func insert(_ id: UInt64, at position: Int32) {
        if id < Self.denseLimit {
            let slot = Int(id)
            if slot >= dense.count {
                let newCount = Swift.max(slot + 1, dense.count * 2)
                dense.append(contentsOf: repeatElement(0, count: newCount - dense.count))
            }
            dense[slot] = position + 1
        } else {
            sparse[id] = position
        }
    }
}
