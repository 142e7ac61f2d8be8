// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Reactor",
    products: [
        .library(name: "ReactorCore", targets: ["ReactorCore"]),
        .library(name: "ReactorTrace", targets: ["ReactorTrace"]),
        .executable(name: "counter", targets: ["counter"]),
        .executable(name: "stress", targets: ["stress"]),
    ],
    traits: [
        .trait(
            name: "Tracing",
            description: "Compiles the trace hook into ReactorCore. Disable it to compile tracing out entirely."
        ),
        .default(enabledTraits: ["Tracing"]),
    ],
    targets: [
        .target(name: "ReactorCore"),
        .target(name: "ReactorTrace", dependencies: ["ReactorCore"]),
        .executableTarget(name: "counter", dependencies: ["ReactorCore", "ReactorTrace"], path: "Samples/Counter"),
        .executableTarget(name: "stress", dependencies: ["ReactorCore", "ReactorTrace"], path: "Samples/Stress"),
        .testTarget(name: "ReactorCoreTests", dependencies: ["ReactorCore"]),
        .testTarget(name: "ReactorTraceTests", dependencies: ["ReactorTrace", "ReactorCore"]),
    ],
    swiftLanguageModes: [.v6]
)
