
extension Signal {
    /// Sends every value as one array when this signal completes, then
    /// completes. An error is passed on and the values are dropped.
    public func collect() -> Signal<[Value]> {
        let name = named("collect")
        return Signal<[Value]>(name: name) { observer in
            var values: [Value] = []  // per subscriber
            return self.subscribe(stage: SignalStage(.operator, name),
                                  next: { values.append($0) },
                                  error: { observer.forward(error: $0) },
                                  completed: {
                                      observer.forward(values)
                                      observer.forwardCompleted()
                                  })
        }
    }

    /// Sends the values in arrays of `count`, and what remains (if anything)
    /// when this signal completes.
    public func collect(_ count: Int) -> Signal<[Value]> {
        let size = Swift.max(1, count)
        let name = named("collect(\(size))")
        return Signal<[Value]>(name: name) { observer in
            var values: [Value] = []
            values.reserveCapacity(size)
            return self.subscribe(stage: SignalStage(.operator, name),
                                  next: { value in
                                      values.append(value)
                                      if values.count == size {
                                          let full = values
                                          values.removeAll(keepingCapacity: true)
                                          observer.forward(full)
                                      }
                                  },
                                  error: { observer.forward(error: $0) },
                                  completed: {
                                      if !values.isEmpty { observer.forward(values) }
                                      observer.forwardCompleted()
                                  })
        }
    }
}
