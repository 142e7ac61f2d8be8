/// A value per thread slot (``TraceModelBuilder``'s dense numbering of the threads it
/// met, from 0): an array, so that what the importer keeps per thread for every
/// change costs no hashing. Reading a slot it never set gives nil.
struct ThreadSlotTable<Element> {
    private var elements: [Element?] = []

    subscript(slot: Int) -> Element? {
        get { slot < elements.count ? elements[slot] : nil }
        set {
            if slot >= elements.count {
                guard newValue != nil else { return }
                elements.append(contentsOf: repeatElement(nil, count: slot + 1 - elements.count))
            }
            elements[slot] = newValue
        }
    }

    /// The slot's value, moved out (the slot then holds nil), if it has one that `matches` says so of.
    mutating func take(_ slot: Int, where matches: (borrowing Element) -> Bool) -> Element? {
        guard slot < elements.count, let found = elements[slot].take() else { return nil }
        if matches(found) { return found }
        elements[slot] = consume found
        return nil
    }

    /// Forgets every slot's value.
    mutating func removeAll() { elements.removeAll() }
}
