import BuiltProducts
import Foundation
import ReactorTrace
import Testing

/// Issue 4's size target, checked on every test run: a `stress` trace takes at
/// most 4 bytes an event, counting the whole file (header, chunk headers, end block).
/// Benchmarks/README.md quotes the same measure on the default, larger graph.
@Suite struct TraceSizeTests {
    @Test func stressTraceTakesAtMostFourBytesAnEvent() throws {
        let path = SampleTrace.directory.appendingPathComponent("stress-size.trace").path
        let result = try BuiltProducts.run("stress", ["--computations", "300", "--writes", "1000", "--trace", path])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try TraceReader(path: path).skipToEnd()
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let perEvent = Double(bytes) / Double(events)
        #expect(events > 500_000)
        #expect(perEvent <= 4, "\(perEvent) bytes an event")
    }
}
