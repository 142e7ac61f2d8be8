// Measures how long an event takes from being recorded to being seen by a
// reader that follows the growing trace (`TraceReader(following:)`), for
// several recorder flush intervals (Benchmarks/README.md, "Live lag").
//
//     follow-lag [events per interval] [intervals in ms…]
//
// One thread writes a dependency about every millisecond (noting when); a
// second thread follows the file, polling every `poll` ms when nothing new has
// landed, and notes when it sees each `changed` event. Prints the median, p99
// and max lag, the chunks written per second and the trace bytes per event.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ReactorCore
import ReactorTrace
import Synchronization

func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func milliseconds(_ nanoseconds: UInt64) -> String {
    String(format: "%.2f", Double(nanoseconds) / 1e6)
}

/// Times noted by one thread and read by another after a join.
final class Times: @unchecked Sendable {
    var values: [UInt64]
    init(count: Int) { values = Array(repeating: 0, count: count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let eventCount = arguments.first.flatMap(Int.init) ?? 2000
let intervals = arguments.count > 1 ? arguments.dropFirst().compactMap(Int.init) : [1, 2, 5, 10, 20]
let pollMilliseconds = 1

print("events per run: \(eventCount), writes about every 1 ms, reader polls every \(pollMilliseconds) ms when idle")
print("flush interval | lag median | lag p99 | lag max | chunks/s | bytes/event")
for interval in intervals {
    let path = "\(NSTemporaryDirectory())follow-lag-\(getpid())-\(interval).rtrace"
    defer { unlink(path) }
    let sent = Times(count: eventCount)
    let seen = Times(count: eventCount)
    let recorder = try TraceRecorder.start(path: path, options: .init(flushInterval: .milliseconds(interval)))
    let reactor = Reactor()
    let probe = Dependency("lag.probe")
    reactor.autorun("lag.reader") { _ in probe.depend() }
    let done = Atomic<Bool>(false)
    let follower = Thread {
        guard let reader = try? TraceReader(following: path) else { fatalError("cannot open \(path)") }
        var changes = 0
        while changes < eventCount {
            let got = (try? reader.nextBatch { batch in
                let time = now()
                for event in batch.events {
                    if case .changed = event.record, changes < eventCount {
                        seen.values[changes] = time
                        changes += 1
                    }
                }
            }) ?? false
            if !got {
                if reader.isFinished { break }
                usleep(UInt32(pollMilliseconds * 1000))
            }
        }
        done.store(true, ordering: .releasing)
    }
    follower.start()
    let started = now()
    for index in 0..<eventCount {
        sent.values[index] = now()
        probe.changed()
        usleep(1000)
    }
    let elapsed = now() - started
    while !done.load(ordering: .acquiring) { usleep(1000) }
    let statistics = recorder.stop()
    var lags = zip(sent.values, seen.values).map { $1 > $0 ? $1 - $0 : 0 }
    lags.sort()
    let median = lags[lags.count / 2]
    let p99 = lags[min(lags.count - 1, Int((Double(lags.count) * 0.99).rounded(.up)) - 1)]
    let chunksPerSecond = Double(statistics.chunks) / (Double(elapsed) / 1e9)
    let bytesPerEvent = Double(statistics.bytes) / Double(max(1, statistics.events))
    print("\(interval) ms | \(milliseconds(median)) ms | \(milliseconds(p99)) ms | \(milliseconds(lags.last!)) ms | "
          + String(format: "%.0f | %.1f", chunksPerSecond, bytesPerEvent))
}
