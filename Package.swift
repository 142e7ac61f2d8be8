// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Reactor",
    products: [
        .library(name: "ReactorCore", targets: ["ReactorCore"]),
        .library(name: "ReactorTrace", targets: ["ReactorTrace"]),
        .library(name: "ReactorInspector", targets: ["ReactorInspector"]),
        .library(name: "ReactorTesting", targets: ["ReactorTesting"]),
        .executable(name: "reactor-inspect", targets: ["reactor-inspect"]),
    ],
    traits: [
        .trait(
            name: "Tracing",
            description: "Compiles the trace hook into ReactorCore. Disable it to compile tracing out entirely."
        ),
        .default(enabledTraits: ["Tracing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The small HTTP server of `reactor-inspect serve` (README: why this one).
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        // The MCP server of `reactor-inspect mcp` (the official Swift SDK); only that executable builds it.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
    ],
    targets: [
        // The runtime depends on nothing but its C shim: its tracing hook speaks the runtime's own
        // vocabulary, which the recorder maps to the trace schema.
        .target(name: "ReactorCore", dependencies: ["CReactorCoreThread"]),
        .target(name: "CReactorCoreThread"),
        .target(name: "CReactorTraceClock"),
        .target(name: "CReactorTraceThread"),
        .target(name: "CReactorTraceCRC"),
        .target(name: "CReactorTraceCrash"),
        // The trace schema: event and node kinds, the byte format and the streaming reader; no runtime.
        .target(name: "ReactorTraceFormat", dependencies: ["CReactorTraceCRC"]),
        .target(name: "ReactorTrace", dependencies: ["ReactorCore", "ReactorTraceFormat", "CReactorTraceClock", "CReactorTraceThread",
                                                    "CReactorTraceCrash"]),
        .systemLibrary(name: "CGraphviz", pkgConfig: "libgvc", providers: [.apt(["libgraphviz-dev"])]),
        .target(name: "ReactorInspector", dependencies: ["ReactorTraceFormat", "CGraphviz"]),
        // `reactor-inspect sql`: the importer's tables in SQLite. Internal, so library users need no SQLite.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "ReactorTraceSQL", dependencies: ["ReactorInspector", "ReactorTraceFormat", "CSQLite"]),
        // Swift Testing helpers: record a scenario in process, assert counts and budgets.
        .target(name: "ReactorTesting", dependencies: ["ReactorCore", "ReactorTrace", "ReactorInspector"]),
        // The web inspector of `reactor-inspect serve`: internal, so library users do not pull a server.
        .target(name: "ReactorInspectorServer",
                dependencies: ["ReactorInspector", "ReactorTraceFormat", .product(name: "FlyingFox", package: "FlyingFox"),
                               // LockedValue: a lock ThreadSanitizer sees through (see its comment).
                               "ReactorCore"],
                // The page's files, compiled into the binary (PageAssets).
                resources: [.embedInCode("Page/index.html"), .embedInCode("Page/app.js"), .embedInCode("Page/app.css")]),
        // `reactor-inspect mcp`: internal, so library users do not build the MCP SDK.
        .target(name: "ReactorInspectorMCP", dependencies: [.product(name: "MCP", package: "swift-sdk")]),
        .executableTarget(
            name: "reactor-inspect",
            dependencies: ["ReactorInspector", "ReactorInspectorServer", "ReactorTraceFormat", "ReactorTraceSQL",
                           "ReactorInspectorMCP",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "SampleSupport", dependencies: ["ReactorTrace"], path: "Samples/SampleSupport"),
        .executableTarget(name: "counter", dependencies: ["ReactorCore", "ReactorTrace", "SampleSupport"], path: "Samples/Counter"),
        .executableTarget(name: "stress", dependencies: ["ReactorCore", "ReactorTrace", "SampleSupport"], path: "Samples/Stress"),
        .executableTarget(name: "todos", dependencies: ["ReactorCore", "ReactorTrace", "SampleSupport"], path: "Samples/Todos"),
        .executableTarget(name: "profile", dependencies: ["ReactorCore", "ReactorTrace", "SampleSupport"], path: "Samples/Profile"),
        // Keeps the tests that install the process-wide tracer apart from the scenario recordings.
        .target(name: "TracerSlot", dependencies: ["ReactorCore"], path: "Tests/TracerSlot"),
        .testTarget(name: "ReactorCoreTests", dependencies: ["ReactorCore", "TracerSlot"]),
        // Runs the built executables, for the end-to-end tests of the two suites below.
        .target(name: "BuiltProducts", path: "Tests/BuiltProducts"),
        // Trace bytes built and damaged by hand, for the format tests and the CLI's fuzz harness.
        .target(name: "TraceForgery", dependencies: ["ReactorTraceFormat"], path: "Tests/TraceForgery"),
        .testTarget(name: "ReactorTraceTests", dependencies: ["ReactorTrace", "ReactorTraceFormat", "ReactorCore", "BuiltProducts", "TraceForgery",
                                                           "TracerSlot"]),
        // Checks of the HTML and Markdown reports, shared by the two suites that make them.
        .target(name: "ReportAssertions", path: "Tests/ReportAssertions"),
        .testTarget(name: "ReactorInspectorTests", dependencies: ["ReactorInspector", "ReactorTrace", "ReactorCore", "ReportAssertions",
                                                                 "TraceForgery"]),
        .testTarget(name: "ProfilingScenarios", dependencies: ["ReactorCore", "ReactorTrace", "ReactorTesting", "TracerSlot"]),
        .testTarget(name: "ReactorTestingTests", dependencies: ["ReactorTesting", "ReactorInspector", "ReactorCore", "ReactorTrace", "ReactorTraceFormat",
                                                               "TracerSlot"]),
        .testTarget(
            name: "CLITests",
            dependencies: ["reactor-inspect", "counter", "todos", "profile", "stress", "ReactorInspector", "ReactorTrace", "ReactorCore",
                           "ReportAssertions", "BuiltProducts", "ReactorInspectorServer", "ReactorTraceSQL", "TracerSlot", "TraceForgery"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
