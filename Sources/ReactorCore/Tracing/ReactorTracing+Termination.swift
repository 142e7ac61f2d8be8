extension ReactorTracing {
    /// Registers what to run when the runtime is about to stop the process
    /// (a first-computation cycle, or another fatal error of its own): a trace
    /// recorder writes what it holds, so the trace shows what the process died of.
    /// One handler for the process; registering again replaces it, `nil` removes it.
    ///
    /// The handler runs on the dying thread, after the issue was reported and
    /// with the graph lock held: it must not touch the reactive graph.
    /// `reason` is the one-line message the process is about to die with.
    public static func onProcessWillTerminate(_ handler: (@Sendable (_ reason: String) -> Void)?) {
        terminationHandler.withLock { $0 = handler }
    }

    /// Runs the registered termination handler, if any (see ``onProcessWillTerminate(_:)``).
    static func processWillTerminate(reason: String) {
        let handler = terminationHandler.withLock { $0 }
        handler?(reason)
    }
}

private let terminationHandler = LockedValue<(@Sendable (String) -> Void)?>(nil)

/// Stops the process for a programming error the runtime cannot carry on from,
/// after letting the trace recorder write what it holds.
func runtimeFatalError(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    ReactorTracing.processWillTerminate(reason: message)
    fatalError(message, file: file, line: line)
}
