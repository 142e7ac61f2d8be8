import Benchmark
import Foundation
import ReactorCore
import ReactorTrace

/// The cost of value capture (Benchmarks/README.md, "Values in the trace"): one
/// `@Reactive` write of an Int, a short String and a 10-field struct, with a
/// recorder installed and values off or on, side by side in one run; and the
/// bytes a write adds to the file. In its own executable, so its recordings
/// touch no other benchmark.
let writesPerIteration = 10_000

/// Ten stored fields: `String(reflecting:)` of one is about 120 bytes.
struct Row: Equatable {
    var id: Int
    var title: String
    var done: Bool
    var priority: Int
    var estimate: Double
    var owner: String
    var tags: Int
    var created: Int
    var updated: Int
    var archived: Bool

    init(_ number: Int) {
        id = number
        title = "row \(number & 7)"
        done = number & 1 == 0
        priority = number & 3
        estimate = 1.5
        owner = "ada"
        tags = 2
        created = 1_700_000_000
        updated = 1_700_000_000 &+ number
        archived = false
    }
}

/// The same ten fields with a short `traceDescription`: what a hot model
/// conforms with, since `String(reflecting:)` walks every field with `Mirror`.
struct DescribedRow: Equatable, TraceValueDescribable {
    var row: Row
    var traceDescription: String { "#\(row.id) \(row.title)\(row.done ? " ✓" : "")" }
}

/// The written state: each write changes the value (no equality cut-off).
final class Model {
    @Reactive var count = 0
    @Reactive var title = ""
    @Reactive var row = Row(0)
    @Reactive var describedRow = DescribedRow(row: Row(0))
    @Reactive var flag = false
}

/// Eight short strings, written in turn: repeats, as a filter or a status is.
let titles = (0..<8).map { "item \($0)" }
/// Rows written in turn; built before the timing.
let rows = (0..<64).map { Row($0) }
let describedRows = rows.map { DescribedRow(row: $0) }

enum Written: String, CaseIterable {
    case int = "Int"
    case string = "short String"
    case row = "10-field struct"
    case describedRow = "10-field struct, TraceValueDescribable"
    case flag = "Bool flip"

    /// `count` writes of this kind to `model`.
    @inline(never)
    func write(_ model: Model, _ count: Int) {
        switch self {
        case .int: for _ in 0..<count { model.count &+= 1 }
        case .string: for index in 0..<count { model.title = titles[index & 7] }
        case .row: for index in 0..<count { model.row = rows[index & 63] }
        case .describedRow: for index in 0..<count { model.describedRow = describedRows[index & 63] }
        case .flag: for _ in 0..<count { model.flag.toggle() }
        }
    }
}

func scratchPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("reactor-values-\(name)-\(getpid()).rtrace").path
}

func options(valuesOn: Bool) -> TraceRecorder.Options {
    TraceRecorder.Options(values: valuesOn ? .described(maxLength: 200) : .off)
}

func stopRecording() {
    guard let recorder = TraceRecorder.current else { return }
    recorder.stop()
    try? FileManager.default.removeItem(atPath: recorder.path)
}

let bytesPerWrite = BenchmarkMetric.custom("bytes/100 writes", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 5,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )

    for written in Written.allCases {
        Benchmark("\(written.rawValue) write, no tracer (x10000)") { benchmark, model in
            precondition(ReactorTracing.tracer == nil)
            for _ in benchmark.scaledIterations { written.write(model, writesPerIteration) }
        } setup: { () -> Model in
            Model()
        }

        for valuesOn in [false, true] {
            let label = valuesOn ? "values on" : "values off"
            Benchmark("\(written.rawValue) write, traced, \(label) (x10000)") { benchmark, model in
                precondition(ReactorTracing.tracer != nil)
                for _ in benchmark.scaledIterations { written.write(model, writesPerIteration) }
            } setup: { () -> Model in
                let model = Model()
                try TraceRecorder.start(path: scratchPath("\(written)-\(valuesOn)"), options: options(valuesOn: valuesOn))
                return model
            } teardown: {
                stopRecording()
            }

            // The file's growth per write: a recording of exactly 10,000 writes,
            // less an empty recording's header and end block.
            Benchmark("\(written.rawValue) write, \(label): bytes", configuration: .init(
                metrics: [bytesPerWrite], maxDuration: .seconds(1), maxIterations: 3
            )) { benchmark in
                for _ in benchmark.scaledIterations {
                    let empty = try TraceRecorder.start(path: scratchPath("empty"), options: options(valuesOn: valuesOn))
                    let emptyBytes = empty.stop().bytes
                    try? FileManager.default.removeItem(atPath: empty.path)
                    let model = Model()
                    let recorder = try TraceRecorder.start(path: scratchPath("bytes"), options: options(valuesOn: valuesOn))
                    written.write(model, writesPerIteration)
                    let bytes = recorder.stop().bytes
                    try? FileManager.default.removeItem(atPath: recorder.path)
                    benchmark.measurement(bytesPerWrite, Int((bytes - emptyBytes) * 100 / UInt64(writesPerIteration)))
                }
            }
        }
    }
}
