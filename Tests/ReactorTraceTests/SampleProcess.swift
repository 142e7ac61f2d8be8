import Foundation
import Testing

/// Runs the sample executables built next to the test bundle.
enum SampleProcess {
    /// The build products directory (where `swift build` put `counter` and `stress`).
    static var productsDirectory: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On Darwin the runner sits inside `X.xctest/Contents/MacOS`.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("stress").path) { return directory }
        // Fallback: the package's default debug products.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }

    /// The path of sample `name`, failing the test if it was not built.
    static func executable(_ name: String) throws -> String {
        let path = productsDirectory.appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path),
                     "sample '\(name)' not found at \(path): build it with `swift build` first")
        return path
    }

    /// Runs a sample to completion; returns its stdout and exit status.
    static func run(_ name: String, _ arguments: [String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable(name))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    /// Starts a sample and returns it running, with a reader on its stdout.
    static func launch(_ name: String, _ arguments: [String]) throws -> (process: Process, output: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable(name))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return (process, pipe.fileHandleForReading)
    }

    /// Reads one line from `handle` (blocking until it comes or the stream ends).
    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }

    /// The JSON object a sample printed.
    static func json(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(line)")
    }
}
