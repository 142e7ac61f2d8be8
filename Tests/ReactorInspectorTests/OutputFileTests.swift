import Foundation
import Testing
import ReactorInspector

@Suite struct OutputFileTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reactor-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func nothingIsReplacedUntilCommit() throws {
        let directory = try Self.directory()
        let path = directory.appendingPathComponent("out.txt").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let output = try OutputFile(path: path)
            try output.write("new, half written")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        }
        // Dropped without a commit: the old file stays, the temporary file is gone.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
        let output = try OutputFile(path: path)
        try output.write("new")
        try output.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
    }

    @Test func aReplacedFileKeepsItsPermissions() throws {
        let path = try Self.directory().appendingPathComponent("report.html").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try OutputFile.write("new", to: path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
    }

    @Test func anInputIsRefusedByNameAndByInode() throws {
        let directory = try Self.directory()
        let input = directory.appendingPathComponent("in.trace").path
        try "trace".write(toFile: input, atomically: false, encoding: .utf8)
        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        #expect(throws: OutputFileError.isInput(path: input, input: input)) { try OutputFile(path: input, inputs: [input]) }
        #expect(throws: OutputFileError.isInput(path: link, input: input)) { try OutputFile(path: link, inputs: [input]) }
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "trace")
    }

    /// `-o /dev/stdout` in a pipeline: the path leads through /proc to a pipe ("pipe:[…]",
    /// a link target that is no path), which is written in place.
    @Test func aPathThatLeadsToAPipeIsWrittenInPlace() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let output = try OutputFile(path: "/proc/self/fd/\(ends[1])")
        close(ends[1])
        try output.write("through the pipe")
        try output.commit()
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self) == "through the pipe")
    }

    @Test func errorsCarryTheSystemsReason() throws {
        #expect(throws: OutputFileError.cannotWrite(path: "/nonexistent-dir/x", reason: "No such file or directory")) {
            try OutputFile(path: "/nonexistent-dir/x")
        }
        // /dev/full is a device: written through, and the write fails with its reason.
        let full = try OutputFile(path: "/dev/full")
        #expect(throws: OutputFileError.cannotWrite(path: "/dev/full", reason: "No space left on device")) {
            try full.write("x")
        }
    }
}

@Suite struct TerminalEscapingTests {
    @Test func controlsAndBidiBecomeVisibleEscapes() {
        #expect(TerminalEscaping.escape("a\u{1B}]0;t\u{07}b\r\n\u{0}\u{7F}\u{85}\u{9B}\u{202E}\u{2066}\u{2069}\t")
                == #"a\u{1B}]0;t\u{7}b\u{D}\u{A}\u{0}\u{7F}\u{85}\u{9B}\u{202E}\u{2066}\u{2069}\u{9}"#)
        #expect(TerminalEscaping.escape("TodoList.list é ✓ 🚀") == "TodoList.list é ✓ 🚀")
    }
}
