import Foundation
import Synchronization

/// `--threads N`: N threads writing to the graph at once, the way an app's
/// background work does. Thread `t` writes only the sources `t`, `t + N`, …, so
/// every write changes its source (no two threads read-modify-write one value),
/// and draws from a generator of its own.
enum ConcurrentWriters {
    /// The writes the threads made, added up as each one finishes.
    final class Tally: Sendable {
        let writes = Atomic<Int>(0)
    }

    /// Runs the writers to completion and returns the writes they made: `writes`
    /// in all, split as evenly as it goes, or, when nil, forever.
    static func run(sources: [Source], threads: Int, writes: Int?, seed: UInt64) -> Int {
        let tally = Tally()
        let done = DispatchGroup()
        for index in 0..<threads {
            let share = writes.map { $0 / threads + (index < $0 % threads ? 1 : 0) }
            let owned = stride(from: index, to: sources.count, by: threads).map { sources[$0] }
            done.enter()
            let thread = Thread {
                var random = SplitMix64(state: seed &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(index + 1))
                var count = 0
                while share.map({ count < $0 }) ?? true {
                    let source = owned[random.below(owned.count)]
                    source.value &+= 1 + random.below(7)   // always a different value: one `changed` each
                    count += 1
                }
                tally.writes.add(count, ordering: .relaxed)
                done.leave()
            }
            thread.name = "stress writer \(index)"
            thread.start()
        }
        done.wait()
        return tally.writes.load(ordering: .relaxed)
    }
}
