import Testing

/// Keeps the tests that install the process-wide tracer apart from the tests
/// that record scenarios: an installed tracer takes the events of every
/// scenario recording in progress, which then fails with `tracerReplaced`.
///
/// Scenario recordings share the slot (they run side by side through one
/// router); a test that installs a tracer has it alone. Waiting suspends and
/// never blocks a thread, so synchronous tests holding the slot on the
/// cooperative pool cannot starve the waiters of a thread.
public struct TracerSlotTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether the test has the slot alone.
    let isExclusive: Bool

    /// Applied to a suite, every test of it takes the slot.
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        await TracerSlotGate.shared.enter(exclusive: isExclusive)
        do {
            try await function()
        } catch {
            await TracerSlotGate.shared.leave(exclusive: isExclusive)
            throw error
        }
        await TracerSlotGate.shared.leave(exclusive: isExclusive)
    }
}

extension Trait where Self == TracerSlotTrait {
    /// The test installs the process-wide tracer (`ReactorTracing.install`, `TraceRecorder.start`).
    public static var installsTracer: Self { TracerSlotTrait(isExclusive: true) }
    /// The test records scenarios with `ScenarioTrace.record`.
    public static var recordsScenarios: Self { TracerSlotTrait(isExclusive: false) }
}

/// A readers–writer gate whose waiters suspend, first come first served (a
/// waiting writer holds back the readers that come after it).
actor TracerSlotGate {
    static let shared = TracerSlotGate()

    private var readers = 0
    private var writing = false
    private var waiting: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    func enter(exclusive: Bool) async {
        if waiting.isEmpty && !writing && (!exclusive || readers == 0) {
            take(exclusive: exclusive)
            return
        }
        await withCheckedContinuation { waiting.append((exclusive, $0)) }
    }

    func leave(exclusive: Bool) {
        if exclusive { writing = false } else { readers -= 1 }
        // Let in the waiters at the head that fit: one writer, or every reader up to the next writer.
        while let next = waiting.first, !writing, !next.exclusive || readers == 0 {
            waiting.removeFirst()
            take(exclusive: next.exclusive)
            next.continuation.resume()
        }
    }

    private func take(exclusive: Bool) {
        if exclusive { writing = true } else { readers += 1 }
    }
}
