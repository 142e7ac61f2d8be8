import BuiltProducts
import Foundation
import Testing
import ReactorInspector

/// The Python that has `opentelemetry-proto` (`make otlp-proto` sets it up in
/// .build/otlp-venv; `REACTOR_OTLP_PYTHON` names another), and the validator script.
enum OTLPSchema {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let validator = root.appendingPathComponent("Tests/OTLPValidation/validate_otlp.py").path
    static let python: String? = {
        let environment = ProcessInfo.processInfo.environment
        let candidates: [String?] = [environment["REACTOR_OTLP_PYTHON"], root.appendingPathComponent(".build/otlp-venv/bin/python").path]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    /// `make test` sets REACTOR_REQUIRE_OTLP_VALIDATION=1: there a missing validator fails instead of skipping.
    static let required = ProcessInfo.processInfo.environment["REACTOR_REQUIRE_OTLP_VALIDATION"] == "1"

    /// Runs the validator on `files`: its stdout (one JSON object a file), stderr and status.
    static func validate(_ files: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let python = try #require(python, "no Python with opentelemetry-proto: run `make otlp-proto`")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [validator] + files
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

@Suite struct OTLPExportCommandTests {
    static let samples = ["counter", "todos", "profile", "stress", "stress-threads"]

    /// Exports `sample`'s trace as OTLP and returns the file with the model of the trace.
    func export(_ sample: String) throws -> (path: String, model: TraceModel) {
        let trace = try SampleTrace.named(sample)
        let out = try CICommand.temporaryDirectory().appendingPathComponent("\(sample).otlp.json")
        let result = try BuiltProducts.inspect("export", trace.path, "--format", "otlp", "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let (model, _) = try TraceFile.model(path: trace.path)
        let runs = model.nodes.filter(\.isComputation).reduce(0) { $0 + $1.runs.runs }
        #expect(result.stdout.contains("spans: \(runs) runs, "), "\(result.stdout)")
        return (out.path, model)
    }

    /// The official schema: every sample's export parses as an ExportTraceServiceRequest
    /// (opentelemetry-proto's json_format), with one run span per run the inspector counts.
    @Test(.enabled(if: OTLPSchema.python != nil || OTLPSchema.required,
                   "no Python with opentelemetry-proto: `make otlp-proto` installs it (make test does)"),
          arguments: samples)
    func exportParsesWithTheOfficialSchema(sample: String) throws {
        let (path, model) = try export(sample)
        let validation = try OTLPSchema.validate([path])
        #expect(validation.status == 0, "\(validation.stderr)")
        let line = try #require(validation.stdout.split(separator: "\n").first)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let spans = try #require(summary["spans"] as? [String: Int])
        #expect(spans["run"] == model.nodes.filter(\.isComputation).reduce(0) { $0 + $1.runs.runs })
        #expect(spans["action"] ?? 0 == model.actions.reduce(0) { $0 + $1.count })
        #expect(spans["flush"] ?? 0 == model.flushes.count)
        #expect(spans["recording"] == 1)
        // A rerun links to the span its change happened in; todos changes everything inside actions.
        let reruns = model.nodes.filter(\.isComputation).reduce(0) { $0 + $1.runs.reruns }
        let links = try #require(summary["links"] as? Int)
        #expect(links <= reruns)
        if sample == "todos" { #expect(links == reruns) }
        #expect(summary["service"] as? String == sample)
    }

    /// The validator catches what it is there to catch: base64 ids, enum names, dangling parents.
    @Test(.enabled(if: OTLPSchema.python != nil || OTLPSchema.required, "no Python with opentelemetry-proto"))
    func theValidatorRejectsWhatTheSchemaForbids() throws {
        let (path, _) = try export("todos")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let directory = try CICommand.temporaryDirectory()
        let broken = [
            "enum-name": text.replacingOccurrences(of: "\"kind\":1", with: "\"kind\":\"SPAN_KIND_INTERNAL\""),
            "short-id": text.replacingOccurrences(of: "\"spanId\":\"", with: "\"spanId\":\"ab"),
            "unknown-value": text.replacingOccurrences(of: "\"boolValue\":true", with: "\"boolValue\":\"yes\""),
            "time-as-text": text.replacingOccurrences(of: "\"startTimeUnixNano\":\"", with: "\"startTimeUnixNano\":\"x"),
        ]
        for (name, content) in broken {
            #expect(content != text, "\(name) changed nothing")
            let file = directory.appendingPathComponent("\(name).json")
            try content.write(to: file, atomically: true, encoding: .utf8)
            let validation = try OTLPSchema.validate([file.path])
            #expect(validation.status == 1, "\(name) passed: \(validation.stdout)")
        }
    }

    /// Without Python: the structure every collector relies on, on every sample.
    @Test(arguments: samples)
    func spansNestAndLinkWithinTheFile(sample: String) throws {
        let (path, model) = try export(sample)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let resource = try #require((root["resourceSpans"] as? [[String: Any]])?.first)
        let spans = try #require(((resource["scopeSpans"] as? [[String: Any]])?.first)?["spans"] as? [[String: Any]])
        let ids = Set(spans.compactMap { $0["spanId"] as? String })
        #expect(ids.count == spans.count)
        var runs = 0
        for span in spans {
            if let parent = span["parentSpanId"] as? String { #expect(ids.contains(parent)) }
            for link in span["links"] as? [[String: Any]] ?? [] { #expect(ids.contains(link["spanId"] as? String ?? "")) }
            let attributes = span["attributes"] as? [[String: Any]] ?? []
            let kind = attributes.first { $0["key"] as? String == "reactor.span.kind" }?["value"] as? [String: Any]
            if kind?["stringValue"] as? String == "run" { runs += 1 }
        }
        #expect(runs == model.nodes.filter(\.isComputation).reduce(0) { $0 + $1.runs.runs })
        #expect(spans.filter { $0["parentSpanId"] == nil }.count == 1)
    }

    @Test func twoExportsOfOneTraceAreIdenticalAndServiceNameCanBeSet() throws {
        let trace = try SampleTrace.named("todos")
        let directory = try CICommand.temporaryDirectory()
        let first = directory.appendingPathComponent("a.json"), second = directory.appendingPathComponent("b.json")
        #expect(try BuiltProducts.inspect("export", trace.path, "--format", "otlp", "-o", first.path).status == 0)
        #expect(try BuiltProducts.inspect("export", trace.path, "--format", "otlp", "-o", second.path,
                                          "--service-name", "shop-ci").status == 0)
        let a = try String(contentsOf: first, encoding: .utf8), b = try String(contentsOf: second, encoding: .utf8)
        #expect(a.replacingOccurrences(of: "\"todos\"", with: "\"shop-ci\"") == b)
        #expect(b.contains("{\"key\":\"service.name\",\"value\":{\"stringValue\":\"shop-ci\"}}"))
        let again = directory.appendingPathComponent("c.json")
        #expect(try BuiltProducts.inspect("export", trace.path, "--format", "otlp", "-o", again.path).status == 0)
        #expect(try String(contentsOf: again, encoding: .utf8) == a)
    }

    @Test func badInputIsOneLineAndStatusTwo() throws {
        let trace = try SampleTrace.named("todos")
        let chromeWithName = try BuiltProducts.inspect("export", trace.path, "--service-name", "x", "-o", "-")
        #expect(chromeWithName.status == 2)
        #expect(chromeWithName.stderrLines.count == 1)
        let directory = try CICommand.temporaryDirectory()
        let missing = try BuiltProducts.inspect("export", directory.appendingPathComponent("none.trace").path, "--format", "otlp")
        #expect(missing.status == 2)
        #expect(missing.stderrLines.count == 1)
        let empty = directory.appendingPathComponent("empty.trace")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        let emptyResult = try BuiltProducts.inspect("export", empty.path, "--format", "otlp")
        #expect(emptyResult.status == 2)
        #expect(emptyResult.stderrLines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("empty.otlp.json").path))
    }

    @Test func aTruncatedTraceExportsWhatIsReadableWithAWarning() throws {
        let traces = try SampleTraces.load()
        let directory = try CICommand.temporaryDirectory()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: traces.stressBase))
        let cut = directory.appendingPathComponent("cut.trace")
        try bytes.prefix(bytes.count * 2 / 3).write(to: cut)
        let result = try BuiltProducts.inspect("export", cut.path, "--format", "otlp")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("reactor-inspect: warning: \(cut.path): "))
        #expect(result.stderrLines.count == 1)
        let out = directory.appendingPathComponent("cut.otlp.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
        #expect(root?["resourceSpans"] != nil)
    }
}
