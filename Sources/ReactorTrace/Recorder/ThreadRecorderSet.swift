/// The encoders one thread holds, one per recording it has recorded to that
/// has not ended: recordings can run at the same time on one thread (a
/// process-wide scenario recording takes the events of a task-scoped one), and
/// each must keep finding the encoder it gave the thread, so that the thread
/// stays one thread in its trace. The pthread key holds the set (retained);
/// the thread-local points at the encoder used last, unretained.
///
/// Internal storage: `@unchecked Sendable` because only its thread touches it
/// (the key's destructor runs on that thread too).
final class ThreadRecorderSet: @unchecked Sendable {
    private(set) var recorders: [ThreadRecorder] = []

    /// The encoder of the recording `generation`, if this thread has one.
    func recorder(generation: UInt64) -> ThreadRecorder? {
        recorders.first { $0.generation == generation }
    }

    /// Adds the encoder of a recording new to this thread, forgetting those of
    /// recordings that have ended (their writer closed them).
    func add(_ recorder: ThreadRecorder) {
        recorders.removeAll { $0.handoff.withLock { $0.closed } }
        recorders.append(recorder)
    }
}
