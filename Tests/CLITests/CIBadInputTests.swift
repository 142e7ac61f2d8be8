import BuiltProducts
import Foundation
import Testing

@Suite struct CIBadInputTests {
    static func files() throws -> [String: String] {
        let directory = try CICommand.temporaryDirectory()
        let empty = directory.appendingPathComponent("empty.trace")
        try Data().write(to: empty)
        let random = directory.appendingPathComponent("random.trace")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: random)
        return ["missing": directory.appendingPathComponent("missing.trace").path, "empty": empty.path, "random": random.path]
    }

    @Test(arguments: ["check", "diff", "export", "report"])
    func badTracesExitTwoWithOneLine(command: String) throws {
        let traces = try SampleTraces.load()
        let budget = try CICommand.temporaryDirectory().appendingPathComponent("b.json")
        try "{}".write(to: budget, atomically: true, encoding: .utf8)
        for (kind, path) in try Self.files() {
            let arguments: [String]
            switch command {
            case "check": arguments = ["check", path, "--budget", budget.path]
            case "diff": arguments = ["diff", traces.counter, path]
            case "export": arguments = ["export", path, "-o", path + ".json"]
            default: arguments = ["report", path, "-o", path + ".html"]
            }
            let result = try BuiltProducts.run("reactor-inspect", arguments)
            #expect(result.status == 2, "\(command) on \(kind)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(command) on \(kind): \(result.stderr)")
            #expect(result.stderr.contains(path), "\(command) on \(kind): \(result.stderr)")
        }
    }

    @Test func badFlagsExitTwoWithOneLine() throws {
        let traces = try SampleTraces.load()
        for arguments in [["check", traces.counter], ["diff", traces.counter], ["export", traces.counter, "--format", "svg"],
                          ["diff", traces.counter, traces.counter, "--fail-on-regression", "lots"]] {
            let result = try BuiltProducts.run("reactor-inspect", arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }

    @Test func helpHasExamples() throws {
        for command in ["check", "diff", "export", "report"] {
            let result = try BuiltProducts.inspect(command, "--help")
            #expect(result.status == 0)
            #expect(result.stdout.contains("Examples:"), "\(command)")
        }
    }
}
