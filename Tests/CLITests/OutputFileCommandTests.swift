import BuiltProducts
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every command that writes a file goes through one writer: built the way an
/// adversary would test it, with private device nodes, a FIFO, symlinks, inputs
/// named like outputs, a hard link and a full disk.
@Suite struct OutputFileCommandTests {
    /// A fresh directory holding a copy of the counter sample's trace as `name`.
    static func scratch(traceNamed name: String = "run.trace") throws -> (directory: URL, trace: URL) {
        let directory = try CICommand.temporaryDirectory()
        let trace = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(atPath: try SampleTraces.load().counter, toPath: trace.path)
        return (directory, trace)
    }

    static func type(_ path: URL) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path.path)[.type] as? FileAttributeType
    }

    static func budget(in directory: URL, rules: Int = 1) throws -> URL {
        let url = directory.appendingPathComponent("budget.json")
        let computations = (0..<rules).map { #"{ "match": "rule\#($0)*", "maxReruns": 1 }"# }.joined(separator: ", ")
        try #"{ "computations": [\#(computations)] }"#.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// True when this process may make device nodes (root with CAP_MKNOD).
    static let canMakeDevices: Bool = {
        guard let directory = try? CICommand.temporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(at: directory) }
        return mknod(directory.appendingPathComponent("probe").path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0
    }()

    @Test(.enabled(if: canMakeDevices, "making a device node is not permitted here (needs root with CAP_MKNOD)"))
    func aCharacterDeviceStaysADevice() throws {
        let (directory, trace) = try Self.scratch()
        let device = directory.appendingPathComponent("null")
        // /dev/null's numbers, in a private node: the test may write to it.
        #expect(mknod(device.path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0, "mknod: \(String(cString: strerror(errno)))")
        for arguments in [["export", trace.path, "-o", device.path], ["graph", trace.path, "-o", device.path],
                          ["report", trace.path, "--format", "html", "-o", device.path]] {
            let result = try BuiltProducts.run("reactor-inspect", arguments)
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
            #expect(try Self.type(device) == .typeCharacterSpecial, "\(arguments[0]) replaced the device")
        }
        let budget = try Self.budget(in: directory)
        let check = try BuiltProducts.inspect("check", trace.path, "--budget", budget.path, "--junit", device.path)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(try Self.type(device) == .typeCharacterSpecial)
    }

    @Test func aFIFOGetsTheBytes() throws {
        let (directory, trace) = try Self.scratch()
        let fifo = directory.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let received = directory.appendingPathComponent("received.json")
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo.path, received.path]
        try reader.run()
        let result = try BuiltProducts.inspect("export", trace.path, "-o", fifo.path)
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.stderr)")
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: received)) as? [String: Any]
        #expect((object?["traceEvents"] as? [Any])?.isEmpty == false)
    }

    @Test func aSymlinkIsFollowedAndStaysALink() throws {
        let (directory, trace) = try Self.scratch()
        let target = directory.appendingPathComponent("target.svg")
        try "old".write(to: target, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("link.svg")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.svg")
        let result = try BuiltProducts.inspect("graph", trace.path, "-o", link.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.type(link) == .typeSymbolicLink)
        #expect(try String(contentsOf: target, encoding: .utf8).contains("<svg"))
        // A dangling link creates its target.
        let dangling = directory.appendingPathComponent("dangling.json")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "made.json")
        #expect(try BuiltProducts.inspect("export", trace.path, "-o", dangling.path).status == 0)
        #expect(try Self.type(dangling) == .typeSymbolicLink)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("made.json").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// An input named like the command's output, or the same file under another name, is refused before anything is written.
    @Test(arguments: [
        ("a.json", ["export", "{in}"]),
        ("b.svg", ["graph", "{in}"]),
        ("c.dot", ["graph", "{in}", "--format", "dot"]),
        ("e.html", ["report", "{in}", "-o", "{in}"]),
        ("f.md", ["report", "{in}", "-o", "{in}"]),
        ("g.trace", ["check", "{in}", "--budget", "{budget}", "--junit", "{in}"]),
        ("h.trace", ["export", "{in}", "-o", "{hardlink}"]),
        ("i.trace", ["report", "{in}", "-o", "{symlink}"]),
        ("j.trace", ["check", "{in}", "--budget", "{budget}", "--junit", "{budget}"]),
    ])
    func anOutputThatIsAnInputIsRefused(name: String, template: [String]) throws {
        let (directory, trace) = try Self.scratch(traceNamed: name)
        let before = try Data(contentsOf: trace)
        let budget = try Self.budget(in: directory)
        let budgetBefore = try Data(contentsOf: budget)
        let hardlink = directory.appendingPathComponent("hard.json")
        try FileManager.default.linkItem(atPath: trace.path, toPath: hardlink.path)
        let symlink = directory.appendingPathComponent("link.md")
        try FileManager.default.createSymbolicLink(atPath: symlink.path, withDestinationPath: trace.path)
        let arguments = template.map {
            $0.replacingOccurrences(of: "{in}", with: trace.path).replacingOccurrences(of: "{budget}", with: budget.path)
                .replacingOccurrences(of: "{hardlink}", with: hardlink.path).replacingOccurrences(of: "{symlink}", with: symlink.path)
        }
        let result = try BuiltProducts.run("reactor-inspect", arguments)
        #expect(result.status == 2, "\(arguments): \(result.stdout)")
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("refusing to write"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: trace) == before)
        #expect(try Data(contentsOf: budget) == budgetBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func dashIsStandardOutputForEveryWriter() throws {
        let (directory, trace) = try Self.scratch()
        let budget = try Self.budget(in: directory)
        let export = try BuiltProducts.inspect("export", trace.path, "-o", "-")
        #expect(export.status == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])?["traceEvents"] != nil)
        let graph = try BuiltProducts.inspect("graph", trace.path, "-o", "-")
        #expect(graph.status == 0)
        #expect(graph.stdout.contains("<svg") && graph.stdout.hasSuffix("</svg>\n"))
        let report = try BuiltProducts.inspect("report", trace.path, "--format", "md", "-o", "-")
        #expect(report.status == 0)
        #expect(report.stdout.hasPrefix("### Reactor profile"))
        let check = try BuiltProducts.inspect("check", trace.path, "--budget", budget.path, "--junit", "-")
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("<testsuites"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path))
    }

    @Test func aFullStandardOutputIsAnErrorWithItsReason() throws {
        let (_, trace) = try Self.scratch()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.path(of: "reactor-inspect"))
        process.arguments = ["export", trace.path, "-o", "-"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2)
        #expect(stderr == "reactor-inspect: error: cannot write standard output: No space left on device\n")
    }

    @Test func unwritableOutputsSayTheSystemsReason() throws {
        let (directory, trace) = try Self.scratch()
        let missing = try BuiltProducts.inspect("export", trace.path, "-o", directory.appendingPathComponent("no/such/x.json").path)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasSuffix(": No such file or directory\n"), "\(missing.stderr)")
        let folder = try BuiltProducts.inspect("graph", trace.path, "-o", directory.path)
        #expect(folder.status == 2)
        #expect(folder.stderr.hasSuffix(": Is a directory\n"), "\(folder.stderr)")
        for result in [missing, folder] {
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
            #expect(result.stderrLines.count == 1)
        }
    }

    /// True when this process may mount a tmpfs (root with CAP_SYS_ADMIN, not in a restricted container).
    static let canMountTmpfs: Bool = {
        guard let directory = try? CICommand.temporaryDirectory() else { return false }
        defer { try? FileManager.default.removeItem(at: directory) }
        guard mount("tmpfs", directory.path, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount(directory.path)
        return true
    }()

    /// On a full disk every writer fails with the system's reason, leaves the good file that was there
    /// untouched and no temporary file behind.
    @Test(.enabled(if: canMountTmpfs, "mounting a tmpfs is not permitted here (needs root with CAP_SYS_ADMIN)"))
    func aFullDiskLeavesTheOldOutputUntouched() throws {
        let traces = try SampleTraces.load()
        let scratch = try CICommand.temporaryDirectory()
        let budget = try Self.budget(in: scratch, rules: 200)
        let disk = scratch.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        #expect(mount("tmpfs", disk.path, "tmpfs", 0, "size=64k") == 0)
        defer { umount(disk.path) }
        let good = Data(repeating: UInt8(ascii: "g"), count: 56 << 10)
        for (name, arguments) in [("out.json", ["export", traces.stressHead, "-o"]),
                                  ("out.svg", ["graph", traces.stressHead, "-o"]),
                                  ("out.html", ["report", traces.stressHead, "-o"]),
                                  ("out.xml", ["check", traces.stressHead, "--budget", budget.path, "--junit"])] {
            let output = disk.appendingPathComponent(name)
            try good.write(to: output)
            let result = try BuiltProducts.run("reactor-inspect", arguments + [output.path])
            #expect(result.status == 2, "\(name): \(result.stderr)")
            #expect(result.stderr.hasSuffix("cannot write \(output.path): No space left on device\n"), "\(result.stderr)")
            #expect(try Data(contentsOf: output) == good, "\(name) was changed")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == [name])
            try FileManager.default.removeItem(at: output)
        }
    }
}
