/// The plain model an index keeps, with its encoding: two indexes are equal
/// when their models encode to the same bytes (a model has no `==` of its own).
struct IndexedModel: Sendable, Equatable {
    let model: TraceModel
    let bytes: [UInt8]

    init(_ model: TraceModel) {
        self.model = model
        var fields = IndexFieldWriter()
        model.encode(to: &fields)
        bytes = fields.bytes
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }
}
