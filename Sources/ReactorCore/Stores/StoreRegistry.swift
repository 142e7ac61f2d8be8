/// Process-wide store state: actions waiting to be announced, subscribers to
/// every store, and the stores that require actions.
///
/// Internal storage: `@unchecked Sendable` because every field is read and
/// written with the graph lock held.
final class StoreRegistry: @unchecked Sendable {
    /// Actions (of any store) running on the lock's holder.
    @exclusivity(unchecked) var actionNesting = 0
    /// Completed actions to announce when the outermost action ends.
    @exclusivity(unchecked) var completed: [Action] = []
    @exclusivity(unchecked) var allStoresSubscribers: [(id: UInt64, handler: (Action) -> Void)] = []
    /// Stores with `requireActions` on, by trace id.
    @exclusivity(unchecked) var enforcing: [UInt64: WeakStore] = [:]

    struct WeakStore {
        weak var store: Store?
    }

    /// The write check is installed (the first time a store requires actions).
    @exclusivity(unchecked) var writeCheckInstalled = false

    /// Routes writes to state owned by a store (`@Reactive` in a Store
    /// subclass) to ``checkWrite(ownerID:dependency:)``. Graph lock held.
    ///
    /// Installed lazily rather than by `init`, so that the registry's one-time
    /// initializer never waits for the graph lock (a thread holding the lock
    /// may be waiting for that initializer).
    func installWriteCheck() {
        guard !writeCheckInstalled else { return }
        writeCheckInstalled = true
        let registry = self
        ReactiveWriteObserver.handler = { ownerID, dependency in
            registry.checkWrite(ownerID: ownerID, dependency: dependency)
        }
    }

    /// Reports a write to an enforcing store's state made outside every action.
    func checkWrite(ownerID: UInt64, dependency: Dependency) {
        guard actionNesting == 0, !enforcing.isEmpty,
              let store = enforcing[ownerID]?.store else { return }
        let fullName = dependency.storedName ?? "value"
        let property = fullName.lastIndex(of: ".").map { String(fullName[fullName.index(after: $0)...]) } ?? fullName
        store.reactor.report(.writeOutsideAction(store: store.name, property: property))
    }

    /// Tells subscribers about the completed actions once no action is running.
    func announceCompletedActions() {
        guard actionNesting == 0, !completed.isEmpty else { return }
        let actions = completed
        completed = []
        graph.operation {
            graph.nonreactive {
                for action in actions {
                    let handlers = action.store.subscribers.map(\.handler) + allStoresSubscribers.map(\.handler)
                    for handler in handlers { handler(action) }
                }
            }
        }
    }
}

/// The one registry, created by the first store.
let storeRegistry = StoreRegistry()
