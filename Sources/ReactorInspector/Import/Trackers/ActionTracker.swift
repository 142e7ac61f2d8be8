/// The importer's action tracker: store actions by store and name, each with
/// its calls, time and the runs whose causal chain starts at it. Actions are
/// positions (``ImportedEvent/action``); the store is the importer's node position.
struct ActionTracker {
    /// Actions in order of first call.
    private(set) var stats: [ActionStats] = []
    private var positions: [Key: Int32] = [:]

    struct Key: Hashable {
        var store: Int32
        var name: String
    }

    init() {}

    /// The tracker holding `stats` (as a checkpoint kept them), each action's store at the
    /// node position `storePosition` gives its id; nil when one is not known or two share a key.
    init?(restoring stats: [ActionStats], storePosition: (UInt64) -> Int32?) {
        for (action, record) in stats.enumerated() {
            guard let store = storePosition(record.store) else { return nil }
            let key = Key(store: store, name: record.name)
            guard positions[key] == nil else { return nil }
            positions[key] = Int32(action)
        }
        self.stats = stats
    }

    /// A call of `name` on the store at node position `store` (id `storeID`) began; returns the action's position.
    mutating func called(store: Int32, storeID: UInt64, storeName: String, name: String, arguments: String) -> Int32 {
        let key = Key(store: store, name: name)
        let action: Int32
        if let existing = positions[key] {
            action = existing
        } else {
            action = Int32(stats.count)
            positions[key] = action
            stats.append(ActionStats(store: storeID, storeName: storeName, name: name, firstArguments: arguments))
        }
        stats[Int(action)].count += 1
        return action
    }

    /// A call of the action at `action` ended after `nanoseconds`.
    mutating func ended(_ action: Int32, after nanoseconds: UInt64) {
        stats[Int(action)].totalNanoseconds = stats[Int(action)].totalNanoseconds.saturatingAdd(nanoseconds)
        stats[Int(action)].durations.record(nanoseconds)
    }

    /// A run of `computation` caused by the action at `action`.
    mutating func caused(_ action: Int32, runOf computation: UInt64, firstRun: Bool) {
        stats[Int(action)].runsCaused += 1
        if !firstRun { stats[Int(action)].rerunsCaused += 1 }
        stats[Int(action)].runsCausedByComputation[computation, default: 0] += 1
    }

    /// The action at `action`.
    subscript(action: Int32) -> ActionStats { stats[Int(action)] }

    /// The actions with their stores' names as `name(store id)` gives them now.
    func finished(storeName: (UInt64) -> String?) -> [ActionStats] {
        stats.map { action in
            var action = action
            if let name = storeName(action.store) { action.storeName = name }
            return action
        }
    }
}
