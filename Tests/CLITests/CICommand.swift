import BuiltProducts
import Foundation
import Testing

/// Scratch space for the CI-tool tests, and the samples' traces they share.
enum CICommand {
    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The traces the CI-command suites use, from ``SampleTrace``'s recordings.
struct SampleTraces: Sendable {
    var counter: String
    /// `stress --computations 40 --writes 300 --seed 7`.
    var stressBase: String
    /// The same graph with more writes: every computation reruns at least as often.
    var stressHead: String
    /// Per-computation reruns the stress sample counted, for base and head.
    var stressBaseReruns: [String: Int]
    var stressHeadReruns: [String: Int]
    var stressHeadTotalReruns: Int

    static func load() throws -> SampleTraces {
        let base = try SampleTrace.stressBase.get(), head = try SampleTrace.stressHead.get()
        return SampleTraces(
            counter: try SampleTrace.counter.get().path, stressBase: base.path, stressHead: head.path,
            stressBaseReruns: base.reruns, stressHeadReruns: head.reruns, stressHeadTotalReruns: head.totalReruns ?? -1)
    }
}
