import ArgumentParser
import Foundation
import ReactorInspectorMCP

/// `reactor-inspect mcp`: the inspector for coding agents, a Model Context Protocol server on stdio.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the inspector to coding agents: a Model Context Protocol server on stdin/stdout.",
        discussion: """
            Tools: summary, hot, why, state, history, waste, check, sql and graph. Each
            takes `trace` (a path) and the command's options, and answers what the
            command prints with --json (graph: DOT). A bad argument is an error result;
            the server goes on.

            An agent's configuration (README, "Coding agents"):
              { "mcpServers": {
                  "reactor": { "command": "reactor-inspect", "args": ["mcp"] } } }
            """
    )

    func run() throws {
        // The tools run this executable again, by its own path.
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        Task.detached {
            do {
                try await InspectorMCPServer.serve(executable: executable, version: "1.0.0")
            } catch {
                failure = error
            }
            finished.signal()
        }
        finished.wait()
        if let failure { throw ValidationError("mcp: \(failure)") }
    }
}
