import Foundation
import ReactorInspector
import ReactorTrace

/// Stderr messages, exits and trace loading shared by the subcommands.
enum CLIOutput {
    /// Prints `reactor-inspect: message` on stderr and exits with status 2 (bad input).
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("reactor-inspect: \(message)\n".utf8))
        exit(2)
    }

    /// Prints a warning line on stderr.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("reactor-inspect: warning: \(message)\n".utf8))
    }

    /// Opens `path` as a trace, or fails with one line naming the file and what is wrong.
    static func openTrace(_ path: String) -> TraceReader {
        do {
            return try TraceReader(path: path)
        } catch {
            fail("\(path): \(error)")
        }
    }

    /// Feeds every readable event of the trace at `path` to `consume`, then
    /// warns when the trace was damaged or unfinished (what was read still counts).
    static func readTrace(_ path: String, _ consume: (TraceEvent) throws -> Void) rethrows {
        let reader = openTrace(path)
        for event in reader { try consume(event) }
        if let truncation = reader.truncation {
            warn("\(path): \(truncation); using the \(reader.eventsRead) events before it")
        }
    }

    /// Builds the CI profile of the trace at `path`.
    static func profile(_ path: String) -> TraceProfile {
        let profile = TraceProfile()
        readTrace(path) { profile.record($0) }
        return profile
    }

    /// Writes `text` to `path` (creating or replacing it), or fails with one line.
    static func write(_ text: String, to path: String) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            fail("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The last path component, for titles.
    static func displayName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }
}
