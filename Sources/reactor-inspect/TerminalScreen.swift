#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The full-screen mode of `top`: the alternate screen, a hidden cursor and
/// keys read one at a time without echo. Whatever ends the process — `q`, a
/// normal exit, SIGINT (Ctrl-C), SIGTERM or SIGHUP — gives the terminal back
/// as it was.
enum TerminalScreen {
    // Set once on entry, read by the signal handler: no other thread touches them.
    nonisolated(unsafe) private static var savedMode = termios()
    nonisolated(unsafe) private static var restoresMode = false
    nonisolated(unsafe) private static var active = false
    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
    /// As bytes, made on entry: the signal handler must not allocate (the
    /// signal may arrive while this thread holds the allocator's lock).
    private static let leaveSequence: [UInt8] = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// Switches to the alternate screen (and, when stdin is a terminal, to
    /// unbuffered keys without echo; Ctrl-C still sends SIGINT).
    static func enter() {
        guard !active else { return }
        if isatty(0) == 1, tcgetattr(0, &savedMode) == 0 {
            var raw = savedMode
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            restoresMode = tcsetattr(0, TCSANOW, &raw) == 0
        }
        _ = leaveSequence.count
        active = true
        // A parent may have started us with these blocked (Foundation's Process does): unblock them,
        // or Ctrl-C would leave the screen as it is.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                TerminalScreen.leave()
                _exit(128 + received)
            }
            sigaddset(&handled, signalNumber)
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        atexit { TerminalScreen.leave() }
        writeSequence(enterSequence)
    }

    /// Gives the terminal back (async-signal-safe: `write` and `tcsetattr` only).
    static func leave() {
        guard active else { return }
        active = false
        leaveSequence.withUnsafeBytes { Terminal.writeAll(1, $0) }
        if restoresMode { tcsetattr(0, TCSANOW, &savedMode) }
    }

    /// Replaces the screen's contents with `text`, line by line (no flicker:
    /// each line clears its own rest, then everything below the last one).
    static func draw(_ text: String) {
        var frame = "\u{1B}[H"
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            frame += line + "\u{1B}[K\n"
        }
        frame += "\u{1B}[J"
        frame.withUTF8 { Terminal.writeAll(1, UnsafeRawBufferPointer($0)) }
    }

    /// The terminal's width and height, or 100×40 when it does not say.
    static func size() -> (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (100, 40) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Waits up to `milliseconds` for a key on stdin; the key's byte, or nil.
    static func key(within milliseconds: Int) -> UInt8? {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(milliseconds)) > 0, descriptor.revents & Int16(POLLIN) != 0 else {
            if descriptor.revents & Int16(POLLHUP | POLLNVAL) != 0 { usleep(UInt32(milliseconds) * 1000) }
            return nil
        }
        var byte: UInt8 = 0
        guard read(0, &byte, 1) == 1 else {
            // stdin at its end: no key will come; wait out the interval instead of spinning.
            usleep(UInt32(milliseconds) * 1000)
            return nil
        }
        return byte
    }

    private static func writeSequence(_ text: String) {
        var text = text
        text.withUTF8 { Terminal.writeAll(1, UnsafeRawBufferPointer($0)) }
    }
}
