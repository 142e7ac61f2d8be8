/// A module of application state and the actions that change it (Reflow's
/// `RFStore`, without the Objective-C runtime).
///
/// Declare state with `@Reactive` and change it in actions:
///
/// ```swift
/// final class TodoStore: Store {
///     @Reactive var todos: [Todo] = []
///     func addTodo(_ text: String) {
///         action(text) { todos.append(Todo(text: text)) }
///     }
/// }
/// ```
///
/// An action runs as one batch: autoruns that read the state rerun once,
/// after it. Subscribers are told after it completes, with an ``Action``
/// naming it `addTodo(_:)`. Actions may nest; subscribers hear of every one
/// (inner ones first) when the outermost ends. With ``requireActions`` on,
/// writing the store's `@Reactive` state outside any action is reported
/// through the runtime's `issueHandler` as `.writeOutsideAction`.
///
/// Every operation may be called from any thread: store state lives in the
/// graph and is guarded by the graph lock. `Store` is not `Sendable` so that
/// subclasses need not restate a conformance; mark yours `@unchecked Sendable`
/// to share it across concurrency domains.
open class Store: TraceOwner {
    // Mutable fields are guarded by the graph lock.

    /// The store's name in traces and issues; the subclass's type name by default.
    public let name: String
    /// The runtime whose issue handler hears of misuse.
    public let reactor: Reactor
    /// The id of the store's node in traces; its `@Reactive` state names it as owner.
    public let traceID: UInt64

    @exclusivity(unchecked) var subscribers: [(id: UInt64, handler: (Action) -> Void)] = []
    @exclusivity(unchecked) var storedRequireActions = false

    /// Creates a store named `name` (default: the subclass's type name);
    /// `fileID` and `line` are its creation site in traces.
    public init(name: String? = nil, reactor: Reactor = .shared,
                fileID: StaticString = #fileID, line: UInt = #line) {
        self.name = name ?? String(describing: Self.self)
        self.reactor = reactor
        traceID = ReactorTracing.makeID()
        _ = storeRegistry  // created outside the graph lock, before any use under it
        withTracer { [name = self.name, traceID] in $0.nodeCreated(traceID, kind: .store, name: name, parent: 0) }
        traceSite(traceID, fileID: fileID, line: line)
    }

    /// Creates a store that reports writes to its state outside actions when
    /// `requireActions` is true (MobX's `enforceActions`).
    public convenience init(name: String? = nil, reactor: Reactor = .shared, requireActions: Bool,
                            fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(name: name, reactor: reactor, fileID: fileID, line: line)
        self.requireActions = requireActions
    }

    deinit {
        let id = traceID
        graph.lock.withLock { _ = storeRegistry.enforcing.removeValue(forKey: id) }
        withTracer { $0.nodeStopped(id) }
    }

    /// When true, a write to this store's `@Reactive` state made outside any
    /// action is reported through ``Reactor/issueHandler`` as
    /// ``ReactorIssue/writeOutsideAction(store:property:)``.
    public var requireActions: Bool {
        get { graph.lock.withLock { storedRequireActions } }
        set {
            graph.lock.withLock {
                storedRequireActions = newValue
                if newValue {
                    storeRegistry.installWriteCheck()
                    storeRegistry.enforcing[traceID] = StoreRegistry.WeakStore(store: self)
                } else {
                    storeRegistry.enforcing.removeValue(forKey: traceID)
                }
            }
        }
    }

    /// Runs `body` as an action: one batch, untracked, recorded in the trace
    /// with its name, and with a description of `arguments` when the recorder
    /// records values (wrap secrets in ``Redacted``); subscribers are told once
    /// it (and any action around it) has completed. An action that throws is
    /// not announced.
    ///
    /// Traced with values, `body` is plain code: its writes are secrets when
    /// marked, or when the autorun or computed run that called the action had
    /// read a secret (its arguments are then written as `‹redacted›`); a secret
    /// `body` reads makes that run's later products secret only if the action
    /// returns a value or throws.
    ///
    /// `name` defaults to the calling method, so `addTodo(_:)` in
    /// `func addTodo(_ text: String) { action(text) { ... } }`.
    ///
    /// `fileID` and `line`, the call's site, are recorded with the action.
    public func action<T>(_ arguments: Any..., name: String = #function, fileID: StaticString = #fileID,
                          line: UInt = #line, body: () throws -> T) rethrows -> T {
        try graph.lock.withLock {
            defer { storeRegistry.announceCompletedActions() }
            return try graph.operation {
                storeRegistry.actionNesting += 1
                withTracerAndValueLimit { tracer, limit in
                    // Arguments are values: described only when values are recorded.
                    // Called by a run that read a secret: its arguments may hold it.
                    let summary = limit == 0 ? ""
                        : graph.producesSecret ? TraceValueText.redactedArguments(count: arguments.count, limit: limit)
                        : TraceValueText.arguments(arguments, limit: limit)
                    tracer.actionBegan(store: traceID, name: name, arguments: summary)
                    tracer.site(traceID, site: "\(fileID):\(line)", isActionCall: true)
                }
                defer {
                    storeRegistry.actionNesting -= 1
                    withTracer { $0.actionEnded(store: traceID) }
                }
                let result = try graph.actionBody(body)
                storeRegistry.completed.append(Action(store: self, name: name, arguments: arguments))
                return result
            }
        }
    }

    /// Calls `handler` after each action of this store completes, until the
    /// returned subscription is cancelled or released.
    ///
    /// `fileID` and `line` are the subscription's creation site in traces.
    public func subscribe(fileID: StaticString = #fileID, line: UInt = #line,
                          _ handler: @escaping (Action) -> Void) -> Subscription {
        let id = ReactorTracing.makeID()
        graph.lock.withLock { subscribers.append((id, handler)) }
        withTracer { [name, traceID] in $0.nodeCreated(id, kind: .subscription, name: "\(name) subscriber", parent: traceID) }
        traceSite(id, fileID: fileID, line: line)
        return Subscription { [weak self] in
            graph.lock.withLock { self?.subscribers.removeAll { $0.id == id } }
            withTracer { $0.nodeStopped(id) }
        }
    }

    /// Calls `handler` after each action of every store completes, until the
    /// returned subscription is cancelled or released.
    public static func subscribeToAllStores(_ handler: @escaping (Action) -> Void) -> Subscription {
        let id = ReactorTracing.makeID()
        // Touch the registry before taking the lock: its one-time initializer takes the lock too.
        let registry = storeRegistry
        graph.lock.withLock { registry.allStoresSubscribers.append((id, handler)) }
        return Subscription {
            graph.lock.withLock { registry.allStoresSubscribers.removeAll { $0.id == id } }
        }
    }
}
