// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Reactor",
    products: [
        .library(name: "ReactorCore", targets: ["ReactorCore"]),
        .library(name: "ReactorTrace", targets: ["ReactorTrace"]),
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
        .testTarget(name: "ReactorCoreTests", dependencies: ["ReactorCore"]),
        .testTarget(name: "ReactorTraceTests", dependencies: ["ReactorTrace", "ReactorCore"]),
    ],
    swiftLanguageModes: [.v6]
)
