import ArgumentParser
import ReactorInspector

/// When to colour output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Flags every subcommand shares: colour and progress. Other subcommands
/// (check, diff, export, report) include it with `@OptionGroup`.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Colour output: auto (when stdout is a terminal and NO_COLOR is unset), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .long, help: "Do not show the progress line on stderr while reading a large trace.")
    var noProgress = false

    /// The text style for standard output.
    var style: TextStyle {
        switch color {
        case .always: .ansi
        case .never: .plain
        case .auto: Terminal.isTerminal(1) && !Terminal.noColorRequested ? .ansi : .plain
        }
    }

    /// Reports progress on stderr while a trace is read, when stderr is a terminal.
    func progress(for path: String) -> ProgressLine? {
        guard !noProgress, Terminal.isTerminal(2) else { return nil }
        return ProgressLine(path: path)
    }
}
