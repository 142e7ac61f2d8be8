extension TraceIndexSession {
    /// `history name` of a trace with values from the index's value rows (``IndexedValueRows``):
    /// the whole trace's plain model, with the value history a pass of `builder` would build,
    /// read from the rows alone. Nil when the index cannot answer so (no rows, or a node the
    /// pass would follow has none); when the rows are damaged, also drops the index (to be
    /// rebuilt) with one note.
    func valueHistoryFromRows(_ builder: TraceModelBuilder) -> (TraceModel, TraceReadReport)? {
        var rest = builder.options
        rest.valueHistoryOf = nil
        rest.tracksValues = false
        guard let target = builder.options.valueHistoryOf, TraceModel.isIndexed(rest), builder.consumedEvents == 0,
              let index, let kept = index.model, let section = index.valueRows else { return nil }
        let rows: [(node: UInt64, time: UInt64, value: String, root: Int32)]
        do throws(TraceIndexError) {
            guard let found = try section.history(of: target, actionCount: kept.model.actions.count,
                                                  knows: { kept.model.node($0) != nil }) else { return nil }
            rows = found
        } catch {
            self.index = nil
            noteAndRebuild(error.description)
            return nil
        }
        let actionName = kept.model.rootActionName
        var model = kept.model
        model.valueHistory = ValueHistoryTracker.ordered(rows.map {
            ValueHistoryTracker.Resolved(node: $0.node, timestamp: $0.time, value: $0.value,
                                         action: $0.root >= 0 ? actionName($0.root) : nil)
        })
        return (model, index.readReport(path: tracePath))
    }
}

extension TraceModel {
    /// The name of the action at `position` of ``actions`` as a pass's builder gives it at its
    /// end (``TraceModelBuilder/actionName(_:)``): its store by the store node's final name.
    func rootActionName(_ position: Int32) -> String {
        let action = actions[Int(position)]
        guard action.store != 0 else { return action.name }
        let storeName = node(action.store)?.name ?? action.storeName
        return storeName.isEmpty ? action.name : "\(storeName).\(action.name)"
    }
}
