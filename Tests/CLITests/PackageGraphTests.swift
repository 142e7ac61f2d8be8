import Foundation
import Testing

/// The package's module rules, read from the manifest as SwiftPM evaluates it, so that
/// re-adding a forbidden dependency fails a test.
@Suite struct PackageGraphTests {
    /// The root package's manifest as `swift package dump-package` prints it.
    struct Manifest: Decodable {
        struct Target: Decodable {
            var name: String
            var type: String
            var dependencies: [Dependency]
        }

        /// A target dependency: `byName` and `target` name a target of this package (or a product);
        /// `product` names another package's product, which cannot lead back to this package's targets.
        struct Dependency: Decodable {
            var localName: String?

            enum CodingKeys: String, CodingKey { case byName, target, product }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                for key in [CodingKeys.byName, .target] where container.contains(key) {
                    var fields = try container.nestedUnkeyedContainer(forKey: key)
                    localName = try fields.decode(String.self)
                    return
                }
                localName = nil
            }
        }

        struct Product: Decodable {
            var name: String
            var targets: [String]
        }

        var targets: [Target]
        var products: [Product]

        /// Every target `name` depends on, directly or not.
        func dependencies(of name: String) -> Set<String> {
            let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var found: Set<String> = []
            var pending = [name]
            while let next = pending.popLast() {
                for dependency in byName[next]?.dependencies ?? [] {
                    guard let local = dependency.localName, found.insert(local).inserted else { continue }
                    pending.append(local)
                }
            }
            return found
        }
    }

    /// Evaluates Package.swift with a scratch folder of its own: the running `swift test` holds
    /// the package's `.build` lock, which a second SwiftPM command on it would wait for.
    static func manifest() throws -> Manifest {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-dump-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path,
                             "dump-package"]
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: output))
    }

    @Test func theInspectorReadsTracesWithoutTheRuntime() throws {
        let manifest = try Self.manifest()
        let inspector = manifest.dependencies(of: "ReactorInspector")
        #expect(inspector.contains("ReactorTraceFormat"))
        #expect(!inspector.contains("ReactorCore"))
        #expect(!inspector.contains("ReactorTrace"))
        #expect(!manifest.dependencies(of: "ReactorTraceFormat").contains("ReactorCore"))
    }

    /// The runtime stands alone: its tracing hook speaks its own vocabulary, so building it
    /// compiles no trace schema or reader (DESIGN.md, "ReactorCore -> (tracing hook)").
    @Test func theRuntimeDependsOnNothingButItsCShim() throws {
        let manifest = try Self.manifest()
        let core = try #require(manifest.targets.first { $0.name == "ReactorCore" })
        #expect(core.dependencies.map(\.localName) == ["CReactorCoreThread"])
        #expect(manifest.dependencies(of: "ReactorCore") == ["CReactorCoreThread"])
    }

    @Test func theRecorderSharesTheSchemaWithTheReader() throws {
        let manifest = try Self.manifest()
        let recorder = manifest.dependencies(of: "ReactorTrace")
        #expect(recorder.contains("ReactorTraceFormat"))
        #expect(recorder.contains("ReactorCore"))
    }

    @Test func samplesRunHereButAreNotProducts() throws {
        let manifest = try Self.manifest()
        let samples = ["counter", "todos", "profile", "stress"]
        for sample in samples {
            #expect(manifest.targets.first { $0.name == sample }?.type == "executable", "\(sample)")
        }
        let shipped = Set(manifest.products.flatMap(\.targets))
        #expect(shipped.isDisjoint(with: samples))
        #expect(Set(manifest.products.map(\.name)).isSuperset(of: ["ReactorCore", "ReactorTrace", "ReactorInspector",
                                                                     "ReactorTesting", "reactor-inspect"]))
    }

    /// The test helpers sit on the recorder and the inspector; nothing a shipping app links depends on them.
    @Test func testingHelpersStayOutOfTheLibraries() throws {
        let manifest = try Self.manifest()
        let testing = manifest.dependencies(of: "ReactorTesting")
        #expect(testing.isSuperset(of: ["ReactorTrace", "ReactorInspector", "ReactorCore"]))
        for library in ["ReactorCore", "ReactorTrace", "ReactorInspector", "ReactorTraceFormat", "reactor-inspect"] {
            #expect(!manifest.dependencies(of: library).contains("ReactorTesting"), "\(library)")
        }
        #expect(manifest.products.first { $0.name == "ReactorTesting" }?.targets == ["ReactorTesting"])
    }

    /// SQLite and the MCP SDK serve `reactor-inspect` alone: an app using the libraries builds neither.
    @Test func sqlAndMCPStayOutOfTheLibraries() throws {
        let manifest = try Self.manifest()
        for library in ["ReactorCore", "ReactorTrace", "ReactorInspector", "ReactorTraceFormat", "ReactorTesting"] {
            let dependencies = manifest.dependencies(of: library)
            #expect(dependencies.isDisjoint(with: ["ReactorInspectorMCP", "ReactorTraceSQL", "CSQLite"]), "\(library)")
        }
        #expect(manifest.dependencies(of: "reactor-inspect").isSuperset(of: ["ReactorInspectorMCP", "ReactorTraceSQL", "CSQLite"]))
        for product in manifest.products where product.name != "reactor-inspect" {
            #expect(Set(product.targets).isDisjoint(with: ["ReactorInspectorMCP", "ReactorTraceSQL"]), "\(product.name)")
        }
    }
}
