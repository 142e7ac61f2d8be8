import ReactorInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard streams: colour and progress decisions, unbuffered stderr.
enum Terminal {
    /// Writes to standard error at once.
    struct ErrorStream {
        /// Writes `text`; a message's own controls (from a path, a name) are shown
        /// as visible escapes, keeping the final line break.
        func write(_ text: String) {
            let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
            writeRaw(TerminalEscaping.escape(body) + (text.hasSuffix("\n") ? "\n" : ""))
        }

        /// Writes `text` as it is, control sequences included (the progress line's own).
        func writeRaw(_ text: String) {
            var text = text
            text.withUTF8 { Terminal.writeAll(2, UnsafeRawBufferPointer($0)) }
        }
    }

    static let standardError = ErrorStream()

    /// True when file descriptor `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// True when the `NO_COLOR` convention asks for no colour.
    static var noColorRequested: Bool {
        guard let value = getenv("NO_COLOR") else { return false }
        return value.pointee != 0
    }

    /// Flushes standard output and ends the process with `code`.
    static func exit(_ code: Int32) -> Never {
        fflush(nil)  // every output stream
        #if canImport(Glibc)
        Glibc.exit(code)
        #else
        Darwin.exit(code)
        #endif
    }

    /// Writes `text` to standard output.
    static func print(_ text: String) {
        Swift.print(text, terminator: "")
    }

    /// Writes UTF-8 `bytes` to standard output, after whatever ``print(_:)`` buffered.
    static func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        fflush(nil)   // keep the order with print's buffered output
        bytes.withUnsafeBytes { writeAll(1, $0) }
    }

    /// Writes UTF-8 `bytes` to standard output, after whatever ``print(_:)`` buffered.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        fflush(nil)   // keep the order with print's buffered output
        writeAll(1, UnsafeRawBufferPointer(bytes))
    }

    /// Writes all of `buffer` to `descriptor`, retrying after signals; stops
    /// quietly when the other end is gone (a closed pipe: nothing more to do).
    static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) {
        ReactorInspector.writeAll(descriptor, buffer)
    }
}
