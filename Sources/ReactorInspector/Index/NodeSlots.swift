/// Node ids in the order an index collector first met them, each with its
/// slot (its position in that order): the order a section lists its nodes in.
/// The small ids a recorder gives find their slot by position in an array,
/// larger (hostile or foreign) ones through a dictionary.
struct NodeSlots {
    /// Ids below this have their slot found by position in an array; larger ones by a dictionary.
    static let smallIDs: UInt64 = 1 << 22
    private var slotOfSmallID: [Int32] = []
    private var slotOfID: [UInt64: Int32] = [:]
    /// The ids by slot.
    private(set) var ids: [UInt64] = []

    /// Node `id`'s slot, and whether it was made by this call (the caller then adds the slot's own state).
    mutating func slot(_ id: UInt64) -> (slot: Int, isNew: Bool) {
        if id < Self.smallIDs {
            let index = Int(id)
            if index < slotOfSmallID.count {
                let known = slotOfSmallID[index]
                if known >= 0 { return (Int(known), false) }
            } else {
                slotOfSmallID.append(contentsOf: repeatElement(-1, count: max(index + 1 - slotOfSmallID.count,
                                                                               slotOfSmallID.count)))
            }
            slotOfSmallID[index] = Int32(ids.count)
        } else if let known = slotOfID[id] {
            return (Int(known), false)
        } else {
            slotOfID[id] = Int32(ids.count)
        }
        ids.append(id)
        return (ids.count - 1, true)
    }
}
