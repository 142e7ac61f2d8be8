import ReactorTraceFormat

extension Signal {
    /// Writes every value of this signal into `property` until the returned
    /// subscription ends. The property is held weakly: the binding stops
    /// writing once it is gone.
    public func bind(to property: ReactiveProperty<Value>) -> Subscription {
        subscribe(stage: SignalStage(.binding, named("bind(to: \(property.name))")),
                  next: { [weak property] value in property?.value = value },
                  error: nil, completed: nil)
    }

    /// Writes every value of this signal into `object[keyPath: keyPath]` until
    /// the returned subscription ends (RAC's `rac_bind`). The object is held
    /// weakly, so it may own the subscription without a retain cycle.
    public func bind<Root: AnyObject>(to object: Root,
                                      _ keyPath: ReferenceWritableKeyPath<Root, Value>) -> Subscription {
        subscribe(stage: SignalStage(.binding, named("bind(to: \(Root.self))")),
                  next: { [weak object] value in object?[keyPath: keyPath] = value },
                  error: nil, completed: nil)
    }
}
