import ReactorInspector

/// A progress line on stderr (a terminal) while a large trace is read.
final class ProgressLine {
    let path: String
    private var shown = false

    init(path: String) {
        self.path = path
    }

    /// Shows how many events were read so far.
    func update(_ events: Int) {
        shown = true
        let millions = Double(events) / 1_000_000
        let rounded = (millions * 10).rounded() / 10
        Terminal.standardError.writeRaw("\r\u{1B}[Kreading \(TerminalEscaping.escape(path)): \(rounded)M events…")
    }

    /// Clears the line.
    func finish() {
        if shown { Terminal.standardError.writeRaw("\r\u{1B}[K") }
    }
}
