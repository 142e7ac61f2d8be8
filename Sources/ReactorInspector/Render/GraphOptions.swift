/// How to select, colour and lay out the dependency graph.
public struct GraphOptions: Sendable, Equatable {
    /// Which nodes to draw.
    public var selection: GraphSelection
    /// What the fill colour of a computation shows: its reruns or its total time.
    public var heat: HotOrder
    /// Draw the graph as it stood at this trace time (the model must hold a
    /// snapshot taken there, see ``TraceModelOptions/snapshotAt``); nil: all-time.
    public var at: UInt64?
    /// How many computations ``GraphSelection/automatic`` keeps on a large graph.
    public var automaticLimit: Int
    /// At most this many neighbours are added to the chosen computations
    /// (the most active edges first), so a popular dependency cannot flood the picture.
    public var neighbourLimit: Int
    /// How much layout work a render may cost: ``GraphSelection/automatic``
    /// draws no more than fits ``GraphLayoutBudget/fullQuality``, and any
    /// selection beyond it is drawn simplified (see ``GraphLayout``).
    public var layoutBudget: GraphLayoutBudget

    /// Creates options.
    public init(selection: GraphSelection = .automatic, heat: HotOrder = .reruns, at: UInt64? = nil,
                automaticLimit: Int = 150, neighbourLimit: Int = 300,
                layoutBudget: GraphLayoutBudget = GraphLayoutBudget()) {
        self.selection = selection
        self.heat = heat
        self.at = at
        self.automaticLimit = max(1, automaticLimit)
        self.neighbourLimit = max(0, neighbourLimit)
        self.layoutBudget = layoutBudget
    }
}
