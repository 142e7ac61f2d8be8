// swift-tools-version:6.1
import PackageDescription

// The benchmarks live in their own package so that the library's users never
// resolve ordo-one/benchmark or OpenCombine.

// REACTOR_TRACING=off builds against the root package with its `Tracing` trait
// disabled (tracing compiled out), for `tracing-overhead.sh`'s "tracing off vs
// compiled out": one package graph holds the root once, so the script builds twice.
let tracingCompiledOut = Context.environment["REACTOR_TRACING"] == "off"
let reactor: Package.Dependency = tracingCompiledOut
    ? .package(name: "Reactor", path: "..", traits: [])
    : .package(name: "Reactor", path: "..")

let package = Package(
    name: "ReactorBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        reactor,
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // The cases, each written four ways (ReactorCore, Observation,
        // OpenCombine, hand-written baseline), shared by the benchmarks and the tests.
        .target(
            name: "ReactivityCases",
            dependencies: [
                .product(name: "ReactorCore", package: "Reactor"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        .executableTarget(
            name: "Reactivity",
            dependencies: [
                "ReactivityCases",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Reactivity",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Signals",
            dependencies: [
                .product(name: "ReactorCore", package: "Reactor"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Signals",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Tracing",
            dependencies: [
                "ReactivityCases",
                .product(name: "ReactorCore", package: "Reactor"),
                .product(name: "ReactorTrace", package: "Reactor"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Tracing",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Values",
            dependencies: [
                .product(name: "ReactorCore", package: "Reactor"),
                .product(name: "ReactorTrace", package: "Reactor"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Values",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Rendering",
            dependencies: [
                .product(name: "ReactorCore", package: "Reactor"),
                .product(name: "ReactorTrace", package: "Reactor"),
                .product(name: "ReactorInspector", package: "Reactor"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Rendering",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Runs one case outside the harness, for valgrind --tool=callgrind.
        .executableTarget(
            name: "ReactivityDriver",
            dependencies: [
                "ReactivityCases",
                .product(name: "ReactorCore", package: "Reactor"),
                .product(name: "ReactorTrace", package: "Reactor"),
            ]
        ),
        // Measures the lag from recording an event to a following reader seeing it.
        .executableTarget(
            name: "FollowLag",
            dependencies: [
                .product(name: "ReactorCore", package: "Reactor"),
                .product(name: "ReactorTrace", package: "Reactor"),
            ]
        ),
        .testTarget(name: "ReactivityCasesTests", dependencies: ["ReactivityCases"]),
    ],
    swiftLanguageModes: [.v6]
)
