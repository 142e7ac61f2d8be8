import Foundation
import MCP

/// The inspector as a Model Context Protocol server on stdio (`reactor-inspect
/// mcp`), on the official Swift SDK. A tool call runs the subcommand of its
/// name as a child process of `executable` (this reactor-inspect): the answer
/// is exactly the CLI's, and a bad argument, an unreadable trace or a crash
/// while reading one costs an error result, never the server.
public enum InspectorMCPServer {
    /// Serves on standard input and output until the client closes them.
    public static func serve(executable: String, version: String) async throws {
        let server = Server(name: "reactor-inspect", version: version,
                            instructions: "Each tool takes `trace`, the path of a Reactor trace file, and answers what `reactor-inspect <tool> --json` prints for it.",
                            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in
            .init(tools: MCPTool.all.map(\.listing))
        }
        await server.withMethodHandler(CallTool.self) { parameters in
            guard let tool = MCPTool.all.first(where: { $0.name == parameters.name }) else {
                return .init(content: [.text(text: "no tool named \"\(parameters.name)\" (tools: \(MCPTool.all.map(\.name).joined(separator: ", ")))", annotations: nil, _meta: nil)],
                             isError: true)
            }
            switch tool.commandLine(parameters.arguments ?? [:]) {
            case let .failure(problem):
                return .init(content: [.text(text: problem.message, annotations: nil, _meta: nil)], isError: true)
            case let .success(words):
                return await answer(tool, run(executable, words))
            }
        }
        try await server.start(transport: StdioTransport())
        await server.waitUntilCompleted()
    }

    /// A child's outcome.
    struct Outcome: Sendable {
        var status: Int32
        var output: Data
        var errors: Data
    }

    static func answer(_ tool: MCPTool, _ outcome: Outcome) -> CallTool.Result {
        let text = String(decoding: outcome.output, as: UTF8.self)
        let message = String(decoding: outcome.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard tool.answeringStatuses.contains(outcome.status) else {
            let line = message.isEmpty ? "\(tool.name) failed (status \(outcome.status))" : message
            return .init(content: [.text(text: line, annotations: nil, _meta: nil)], isError: true)
        }
        var structured: Value?
        if tool.outputWords.contains("--json"), let value = try? JSONDecoder().decode(Value.self, from: outcome.output),
           case .object = value {
            structured = value
        }
        return .init(content: [.text(text: text, annotations: nil, _meta: nil)], structuredContent: structured, isError: outcome.status != 0)
    }

    /// Runs `executable` with `arguments`, off the server's threads; both pipes are drained at once.
    static func run(_ executable: String, _ arguments: [String]) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                process.standardInput = FileHandle.nullDevice
                let output = Pipe(), errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                do {
                    try process.run()
                } catch {
                    continuation.resume(returning: Outcome(status: -1, output: Data(),
                                                           errors: Data("cannot run \(executable): \(error)".utf8)))
                    return
                }
                let errorsRead = DispatchSemaphore(value: 0)
                nonisolated(unsafe) var errorData = Data()
                Thread.detachNewThread {
                    errorData = errors.fileHandleForReading.readDataToEndOfFile()
                    errorsRead.signal()
                }
                let outputData = output.fileHandleForReading.readDataToEndOfFile()
                errorsRead.wait()
                process.waitUntilExit()
                continuation.resume(returning: Outcome(status: process.terminationStatus, output: outputData, errors: errorData))
            }
        }
    }
}
