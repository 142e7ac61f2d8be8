import ArgumentParser
import Foundation
import ReactorInspector
import ReactorTraceFormat

/// File handling shared by check, diff, export and report: budgets, outputs
/// and the step summary. Failures become `ValidationError`s, which the root
/// command prints as one line with exit status 2.
enum CIFiles {
    /// Reads and strictly parses the budget at `path`.
    static func budget(at path: String) throws -> Budget {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("\(path): no such budget file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("\(path): cannot read the budget")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("\(path): the budget is not UTF-8 text")
        }
        do {
            return try Budget.parse(text)
        } catch {
            throw ValidationError("\(path): \(error)")
        }
    }

    /// Writes `text` to `path`, creating or replacing it.
    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Appends `text` to `path` (GitHub's step summary), creating it if needed; a failure is a warning only.
    static func append(_ text: String, to path: String) {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            Terminal.standardError.write("reactor-inspect: warning: cannot append to GITHUB_STEP_SUMMARY \(path)\n")
            return
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            Terminal.standardError.write("reactor-inspect: warning: cannot append to GITHUB_STEP_SUMMARY \(path): \(error.localizedDescription)\n")
        }
    }

    /// The last path component, for titles.
    static func displayName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }
}
