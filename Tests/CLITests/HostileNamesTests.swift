import BuiltProducts
import Foundation
import ReactorInspector
import ReportAssertions
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Names are data: a trace of hostile names (``HostileTrace``) fed to every
/// command through the built binary, each output checked by what reads it.
@Suite struct HostileNamesTests {
    static let trace: Result<String, any Error> = Result {
        let path = try CICommand.temporaryDirectory().appendingPathComponent("hostile.trace").path
        try HostileTrace.record(at: path)
        return path
    }

    /// Characters a terminal acts on: C0 (line feeds allowed as line ends), DEL, C1, bidi controls.
    static func rawControls(in text: String, allowingColour: Bool) -> [String] {
        var text = text
        if allowingColour {
            // The inspector's own SGR colours, and nothing else that starts with ESC.
            text = text.replacingOccurrences(of: #"\x1B\[[0-9;]*m"#, with: "", options: .regularExpression)
        }
        return text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
            default: false
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    static func expectCleanTerminalText(_ run: BuiltProducts.Run, allowingColour: Bool, _ what: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(rawControls(in: run.stdout, allowingColour: allowingColour).isEmpty, "\(what) stdout: \(rawControls(in: run.stdout, allowingColour: allowingColour))",
                sourceLocation: sourceLocation)
        #expect(rawControls(in: run.stderr, allowingColour: false).isEmpty, "\(what) stderr: \(run.stderr)", sourceLocation: sourceLocation)
    }

    static func budget() throws -> String {
        let url = try CICommand.temporaryDirectory().appendingPathComponent("budget.json")
        try #"{ "computations": [ { "match": "*", "maxReruns": 1 } ], "forbid": ["uncaughtError"] }"#
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test(arguments: ["never", "always"])
    func terminalTextShowsControlsAsVisibleEscapes(color: String) throws {
        let trace = try Self.trace.get()
        let budget = try Self.budget()
        let runs: [(String, [String])] = [
            ("summary", ["summary", trace]), ("hot", ["hot", trace]), ("why", ["why", trace, HostileTrace.effect]),
            ("why computed", ["why", trace, HostileTrace.computed]), ("replay", ["replay", trace]),
            ("check", ["check", trace, "--budget", budget]), ("diff", ["diff", trace, trace]),
        ]
        for (what, arguments) in runs {
            let run = try BuiltProducts.run("reactor-inspect", arguments + ["--color", color])
            #expect(run.status == (what == "check" ? 1 : 0), "\(what): \(run.stderr)")
            Self.expectCleanTerminalText(run, allowingColour: color == "always", what)
        }
        // The names are shown, escaped, not dropped.
        let hot = try BuiltProducts.inspect("hot", trace, "--color", color)
        let plain = hot.stdout.replacingOccurrences(of: #"\x1B\[[0-9;]*m"#, with: "", options: .regularExpression)
        for name in [HostileTrace.computation, HostileTrace.computed, HostileTrace.effect] {
            let shown = TerminalEscaping.escape(name)
            #expect(shown.contains(#"\u{"#))
            // One row per computation: its name and its counts on the same line.
            let table = plain.components(separatedBy: "\nRoot actions")[0]
            let rows = table.split(separator: "\n").filter { $0.hasPrefix("  " + shown) }
            #expect(rows.count == 1, "\(shown) in\n\(plain)")
            #expect(rows.first.map { $0.contains("autorun") || $0.contains("computed") } == true)
        }
        #expect(plain.contains(#"list\u{0}nul\u{7F}del\u{202E}gpj.exe\u{2066}iso\u{2069}\u{85}\u{9B}31m"#))
    }

    @Test func anUnknownHostileNameOnTheCommandLineIsEscapedOnStderr() throws {
        let run = try BuiltProducts.inspect("why", try Self.trace.get(), "nope\u{1B}]0;title\u{07}")
        #expect(run.status == 2)
        Self.expectCleanTerminalText(run, allowingColour: false, "why")
        #expect(run.stderr.contains(#"nope\u{1B}]0;title\u{7}"#))
    }

    @Test(arguments: ["svg", "dot"])
    func theGraphIsWellFormedAndShowsTheNames(format: String) throws {
        let out = try CICommand.temporaryDirectory().appendingPathComponent("graph.\(format)")
        let run = try BuiltProducts.inspect("graph", try Self.trace.get(), "--format", format, "-o", out.path)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(Self.rawControls(in: text.replacingOccurrences(of: "\t", with: " "), allowingColour: false).isEmpty)
        if format == "svg" {
            let parser = XMLParser(data: Data(text.utf8))
            #expect(parser.parse(), "\(String(describing: parser.parserError))")
            #expect(!text.contains("<script"))
            // Graphviz decodes entities in labels: the literal "&amp;" in a name must survive as text.
            #expect(text.contains(#"derived]]&gt;&amp;amp;\u{1}\u{8}\u{FFFE}\u{FFFF}&lt;b&gt;"#))
        } else {
            #expect(text.contains(#"derived]]>&amp;amp;\\u{1}\\u{8}\\u{FFFE}\\u{FFFF}<b>"#))
        }
    }

    @Test func theHTMLReportHasNoMarkupFromNames() throws {
        let out = try CICommand.temporaryDirectory().appendingPathComponent("report.html")
        let run = try BuiltProducts.inspect("report", try Self.trace.get(), "-o", out.path)
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: out, encoding: .utf8)
        #expect(html.range(of: "<script", options: .caseInsensitive) == nil)
        #expect(html.range(of: "<b>", options: .caseInsensitive) == nil)
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(Self.rawControls(in: html.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\r", with: " "),
                                 allowingColour: false).isEmpty)
        HTMLAssertions.expectBalanced(html)
        // The embedded SVG is well-formed XML on its own.
        let start = try #require(html.range(of: "<svg"))
        let end = try #require(html.range(of: "</svg>", options: .backwards))
        let parser = XMLParser(data: Data(html[start.lowerBound..<end.upperBound].utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
    }

    /// A CR, LF or pipe in a name never breaks a Markdown table row.
    @Test func markdownRowsStayWhole() throws {
        let trace = try Self.trace.get()
        let report = try BuiltProducts.inspect("report", trace, "--format", "md", "-o", "-")
        #expect(report.status == 0, "\(report.stderr)")
        let diff = try BuiltProducts.inspect("diff", trace, trace, "--markdown")
        let out = try CICommand.temporaryDirectory().appendingPathComponent("summary.md")
        let check = try BuiltProducts.inspect("check", trace, "--budget", try Self.budget(),
                                              environment: ["GITHUB_STEP_SUMMARY": out.path])
        #expect(check.status == 1)
        let summary = try String(contentsOf: out, encoding: .utf8)
        for markdown in [report.stdout, diff.stdout, summary] {
            #expect(!markdown.unicodeScalars.contains("\r"))
            #expect(Self.rawControls(in: markdown, allowingColour: false).isEmpty)
            let lines = markdown.unicodeScalars.split(separator: "\n").map { String(String.UnicodeScalarView($0)) }
            for line in lines where line.hasPrefix("|") { #expect(line.hasSuffix("|"), "\(line)") }
        }
        try MarkdownAssertions.expectWellFormedTables(report.stdout)
        try MarkdownAssertions.expectWellFormedTables(summary)
        let rows = report.stdout.split(separator: "\n").filter { $0.hasPrefix("| `Store") }
        #expect(rows.count == 1)
        #expect(rows.first?.contains(#"(_:)  \| injected \| row \|"#) == true)
    }

    @Test func junitParsesAndKeepsTheNames() throws {
        let out = try CICommand.temporaryDirectory().appendingPathComponent("junit.xml")
        let run = try BuiltProducts.inspect("check", try Self.trace.get(), "--budget", try Self.budget(), "--junit", out.path)
        #expect(run.status == 1)
        let data = try Data(contentsOf: out)
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        let xml = String(decoding: data, as: UTF8.self)
        #expect(!xml.contains("<script"))
        #expect(xml.contains(#"derived]]&gt;&amp;amp;\u{1}\u{8}\u{FFFE}\u{FFFF}&lt;b&gt;"#))
    }

    /// JSON carries the names exactly: data, escaped by the encoder.
    @Test func jsonOutputsParseAndKeepTheNamesExactly() throws {
        let trace = try Self.trace.get()
        let hot = try BuiltProducts.inspect("hot", trace, "--json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(hot.stdout.utf8)) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["name"] as? String })
                == [HostileTrace.computation, HostileTrace.computed, HostileTrace.effect])
        for arguments in [["summary", trace, "--json"], ["why", trace, HostileTrace.effect, "--json"],
                          ["diff", trace, trace, "--json"]] {
            let run = try BuiltProducts.run("reactor-inspect", arguments)
            #expect(run.status == 0, "\(arguments[0]): \(run.stderr)")
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) }
            #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
        let export = try BuiltProducts.inspect("export", trace, "-o", "-")
        #expect(export.status == 0)
        let summary = try ChromeTraceValidator.validate(Data(export.stdout.utf8))
        #expect(summary.slicesByName[HostileTrace.effect] == 6)
        #expect(summary.slicesByName[HostileTrace.computation] == 6)
    }
}
