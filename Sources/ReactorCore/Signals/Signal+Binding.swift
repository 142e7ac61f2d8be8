
extension Signal {
    /// Writes every value of this signal into `property` until the returned
    /// subscription ends. The property is held weakly: the binding stops
    /// writing once it is gone. `fileID` and `line`, the call's site, are
    /// recorded with the binding's trace node.
    public func bind(to property: ReactiveProperty<Value>, fileID: StaticString = #fileID,
                     line: UInt = #line) -> Subscription {
        subscribe(stage: SignalStage(.binding, named("bind(to: \(property.name))"), fileID: fileID, line: line),
                  next: { [weak property] value in property?.value = value },
                  error: nil, completed: nil)
    }

    /// Writes every value of this signal into `object[keyPath: keyPath]` until
    /// the returned subscription ends (RAC's `rac_bind`). The object is held
    /// weakly, so it may own the subscription without a retain cycle.
    /// `fileID` and `line`, the call's site, are recorded with the binding's trace node.
    public func bind<Root: AnyObject>(to object: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>,
                                      fileID: StaticString = #fileID, line: UInt = #line) -> Subscription {
        subscribe(stage: SignalStage(.binding, named("bind(to: \(Root.self))"), fileID: fileID, line: line),
                  next: { [weak object] value in object?[keyPath: keyPath] = value },
                  error: nil, completed: nil)
    }
}
