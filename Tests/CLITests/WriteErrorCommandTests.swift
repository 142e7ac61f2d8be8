import BuiltProducts
import Foundation
import Testing

/// A sample recording onto a disk that fills up: it carries on and exits 0,
/// says so in one stderr line with the reason and the path, and `summary` of
/// its trace says how many events were lost.
@Suite("Recorder write errors, end to end")
struct WriteErrorCommandTests {
    @Test("a full disk: one stderr line, exit 0, summary says how much was lost",
          .enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN); not permitted here"))
    func fullDisk() throws {
        let disk = try #require(SmallDisk(kibibytes: 64))
        let path = disk.path("stress.trace")
        let run = try BuiltProducts.run("stress", ["--trace", path, "--computations", "60", "--writes", "3000"])
        #expect(run.status == 0)
        let lines = run.stderrLines.filter { $0.hasPrefix("ReactorTrace:") }
        #expect(lines == ["ReactorTrace: cannot write \(path): No space left on device; the app goes on, its events are no longer recorded"])

        let summary = try BuiltProducts.inspect("summary", path)
        #expect(summary.status == 0)
        #expect(summary.stdout.contains("were not written (write error)"))
        let json = try BuiltProducts.inspect("summary", path, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let dropped = try #require(object["eventsDropped"] as? Int)
        #expect(dropped > 0)
        #expect(object["ending"] as? String == "stopped")
    }
}
