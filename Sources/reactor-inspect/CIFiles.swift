import ArgumentParser
import Foundation
import ReactorInspector
import ReactorTraceFormat

/// File handling shared by the commands: budgets, outputs (through
/// ``OutputFile``) and the step summary. Failures become `ValidationError`s, which the root
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

    /// Opens the output at `path` (`-` is standard output); an output that is one
    /// of `inputs`, or that cannot be opened, is one line and exit status 2.
    static func output(_ path: String, inputs: [String]) throws -> OutputFile {
        do {
            return try OutputFile(path: path, inputs: inputs)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Appends `text` to `path` (GitHub's step summary), creating it if needed; a failure is a warning only.
    static func append(_ text: String, to path: String, inputs: [String]) {
        do {
            try OutputFile.append(text, to: path, inputs: inputs)
        } catch {
            Terminal.standardError.write("reactor-inspect: warning: GITHUB_STEP_SUMMARY: \(error)\n")
        }
    }

    /// `path` with its extension replaced, kept as given (relative stays relative):
    /// `out/todos.trace` → `out/todos.svg`.
    static func replacingExtension(of path: String, with newExtension: String) -> String {
        let url = URL(fileURLWithPath: path)
        let base = url.pathExtension.isEmpty ? path : String(path.dropLast(url.pathExtension.count + 1))
        return base + "." + newExtension
    }

    /// The last path component, for titles.
    static func displayName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }
}
