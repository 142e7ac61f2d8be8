import Foundation
import ReactorTrace

/// The command line the samples share: `--trace PATH` (without it, `REACTOR_TRACE`
/// decides), `--trace-values N` (record values cut to N bytes; without it,
/// `REACTOR_TRACE_VALUES` decides), `-h`/`--help`, and the sample's own options, read in a loop:
///
/// ```swift
/// var commandLine = SampleCommandLine(program: "counter", usage: "[--trace PATH] [--increments N]")
/// while let option = commandLine.nextOption() {
///     switch option {
///     case "--increments": increments = commandLine.count(after: option)
///     default: commandLine.rejectUnknown(option)
///     }
/// }
/// commandLine.startTracing()
/// ```
///
/// Bad input is one line on stderr, `program: message`, and exit status 2.
public struct SampleCommandLine {
    /// The sample's name, the prefix of its error lines.
    public let program: String
    /// The options after the program's name in the usage line.
    public let usage: String
    /// The path given with `--trace`, if any.
    public private(set) var tracePath: String?
    /// The byte limit given with `--trace-values`, if any.
    public private(set) var traceValues: Int?
    private var arguments: ArraySlice<String>

    /// Reads `arguments` (the process's by default; the first is the program's path).
    public init(program: String, usage: String, arguments: [String] = CommandLine.arguments) {
        self.program = program
        self.usage = usage
        self.arguments = arguments.dropFirst()
    }

    /// The next option that is the sample's own, or nil at the end. `--trace`
    /// and `--help` are handled here (help prints the usage and exits 0).
    public mutating func nextOption() -> String? {
        while let argument = arguments.popFirst() {
            switch argument {
            case "--trace":
                guard let path = arguments.popFirst(), !path.isEmpty else { fail("--trace needs a path") }
                tracePath = path
            case "--trace-values":
                guard let text = arguments.popFirst(), let limit = Int(text), limit > 0 else {
                    fail("--trace-values needs a positive number of bytes")
                }
                traceValues = limit
            case "-h", "--help":
                print("usage: \(program) \(usage)")
                exit(0)
            default:
                return argument
            }
        }
        return nil
    }

    /// The value that follows `option`; fails when there is none.
    public mutating func value(after option: String) -> String {
        guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
        return value
    }

    /// The non-negative whole number that follows `option`; fails otherwise.
    public mutating func count(after option: String) -> Int {
        guard let text = arguments.popFirst(), let number = Int(text), number >= 0 else {
            fail("\(option) needs a non-negative number")
        }
        return number
    }

    /// Fails for an argument the sample does not know, with the usage.
    public func rejectUnknown(_ argument: String) -> Never {
        fail("unknown argument '\(argument)' (usage: \(program) \(usage))")
    }

    /// Starts recording to `--trace PATH`, or as `REACTOR_TRACE` says, with
    /// values if `--trace-values` or `REACTOR_TRACE_VALUES` asks; fails with the
    /// recorder's error (an unwritable path, say).
    public func startTracing() {
        let environment = ProcessInfo.processInfo.environment
        var options = TraceRecorder.Options()
        if let limit = traceValues {
            options.values = .described(maxLength: limit)
        } else if let values = TraceRecorder.ValueCapture.fromEnvironment(environment) {
            options.values = values
        }
        do {
            if let tracePath {
                try TraceRecorder.start(path: tracePath, options: options)
            } else {
                try TraceRecorder.startFromEnvironment(environment, options: options)
            }
        } catch {
            fail("\(error)")
        }
    }

    /// Writes `program: message` to stderr and exits with status 2.
    public func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
        exit(2)
    }
}
