import Foundation
import ReactorTrace

/// The recorders the paired benchmarks open without installing them: a
/// benchmark's teardown gets no state, so it stops them through this list.
final class PairedRecorders: @unchecked Sendable {
    // Unchecked: `recorders` is only touched with `lock` held.
    private let lock = NSLock()
    private var recorders: [TraceRecorder] = []

    static let shared = PairedRecorders()

    /// Opens a recording to a scratch file, not installed as the tracer.
    func open(_ name: String) throws -> TraceRecorder {
        let recorder = try TraceRecorder(path: scratchTracePath(name))
        lock.withLock { recorders.append(recorder) }
        return recorder
    }

    /// Stops every recorder opened so far and removes their files.
    func stopAll() {
        let open = lock.withLock { () -> [TraceRecorder] in
            defer { recorders.removeAll() }
            return recorders
        }
        for recorder in open {
            recorder.stop()
            try? FileManager.default.removeItem(atPath: recorder.path)
        }
    }
}
