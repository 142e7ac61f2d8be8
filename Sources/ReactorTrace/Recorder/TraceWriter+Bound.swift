import Dispatch
import ReactorTraceFormat
import CReactorTraceCrash
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A snapshot asked for by ``TraceWriter/snapshot(to:maxBytes:)``: served by the writer thread.
final class SnapshotRequest: @unchecked Sendable {
    // Sendable: `outcome` is written by the writer thread before `done` is signalled, read after.
    let path: String
    let maxBytes: UInt64?
    let done = DispatchSemaphore(value: 0)
    var outcome: Result<TraceRecorder.Statistics, TraceRecorderError> = .failure(.notRecording)

    init(path: String, maxBytes: UInt64?) {
        self.path = path
        self.maxBytes = maxBytes
    }
}

extension TraceWriter {
    /// Bounds the file (writer thread, nothing staged): copies its most recent chunks,
    /// about half the bound, with the definitions of what it leaves out, to a new file
    /// renamed over it, and writes on there. On failure the file grows on unbounded for
    /// another quarter of the bound before the next try (one line on stderr).
    func bound(to maxBytes: UInt64) {
        let live = threads.withLock { Set($0.map(\.index)) }
        let copy = TraceTailCopy(source: descriptor, sourceLength: bytesWritten, header: headerBytes, dataStart: dataStart,
                                 metadata: metadata, history: history, maxBytes: maxBytes)
        let blocks = copy.blocks()
        let kept = TraceTailCopy.kept(blocks ?? [], keepBytes: maxBytes / 2, sourceLength: bytesWritten, liveThreads: live)
        let temporary = path + ".bounding"
        let output = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0, let blocks, let result = copy.write(to: output, blocks: blocks, kept: kept),
              rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            if output >= 0 { close(output); unlink(temporary) }
            nextBoundingAt = bytesWritten &+ maxBytes / 4
            reportOnce("ReactorTrace: cannot bound \(path) to \(maxBytes) bytes: \(reason); it grows on\n")
            return
        }
        close(descriptor)
        descriptor = output
        bytesWritten = result.length
        eventsWritten = result.events
        chunksWritten = result.chunks
        history = result.history
        dataStart = result.dataStart
        headerEnd = result.dataStart
        nextBoundingAt = result.length &+ maxBytes / 4
        // The old file's chunk ends mean nothing in the copy: a full disk cuts back to its data start at worst.
        for index in chunkEnds.indices { chunkEnds[index] = BlockEnd(offset: 0, events: 0, chunks: 0) }
        for thread in threads.withLock({ $0 }) { thread.nextSequence = result.nextSequence[thread.index] ?? 0 }
    }

    /// Asks the writer thread for a copy of the recording's last `maxBytes` (all of it: nil)
    /// at `path`, a trace that reads on its own, and waits for it.
    func snapshot(to path: String, maxBytes: UInt64?) -> Result<TraceRecorder.Statistics, TraceRecorderError> {
        let request = SnapshotRequest(path: path, maxBytes: maxBytes)
        let accepted = snapshotRequests.withLock { requests in
            guard requests.open else { return false }
            requests.pending.append(request)
            return true
        }
        guard accepted else { return .failure(.notRecording) }
        wake()
        request.done.wait()
        return request.outcome
    }

    /// Writes the snapshots asked for since the last pass (by ``snapshot(to:maxBytes:)``, or by
    /// SIGUSR1 when ``snapshotsOnSignal``); `closing`: the last time, later requests fail.
    func serveSnapshots(closing: Bool = false) {
        let requests = snapshotRequests.withLock { requests in
            if closing { requests.open = false }
            defer { requests.pending.removeAll() }
            return requests.pending
        }
        // A request taken after this pass's shipping would miss what its caller published
        // just before asking: ship again (the closing pass has shipped everything).
        if !requests.isEmpty, !closing { shipPublished() }
        for request in requests {
            request.outcome = writeSnapshot(to: request.path, maxBytes: request.maxBytes)
            request.done.signal()
        }
        guard snapshotsOnSignal else { return }
        for _ in 0..<reactor_trace_snapshot_take_requests() {
            signalSnapshots += 1
            let stem = path.hasSuffix(".trace") ? String(path.dropLast(6)) : path
            let target = "\(stem).snapshot-\(signalSnapshots).trace"
            switch writeSnapshot(to: target, maxBytes: maxBytes) {
            case let .success(statistics):
                report("ReactorTrace: SIGUSR1: wrote the last \(statistics.events) events of \(path) to \(target)\n")
            case let .failure(error):
                report("ReactorTrace: SIGUSR1: \(error)\n")
            }
        }
    }

    /// The snapshot itself (writer thread, everything published shipped): a copy of the
    /// file's chunks within its last `maxBytes`, ended by an end block saying it is a snapshot.
    private func writeSnapshot(to target: String, maxBytes: UInt64?) -> Result<TraceRecorder.Statistics, TraceRecorderError> {
        guard writeError == 0 else {
            return .failure(.cannotSnapshot(path: target, reason: "the recording stopped writing after an error"))
        }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return .failure(.cannotSnapshot(path: target, reason: String(cString: strerror(errno)))) }
        let keep = maxBytes ?? bytesWritten
        let copy = TraceTailCopy(source: descriptor, sourceLength: bytesWritten, header: headerBytes, dataStart: dataStart,
                                 metadata: metadata, history: history, maxBytes: self.maxBytes ?? 0)
        let blocks = copy.blocks()
        let kept = TraceTailCopy.kept(blocks ?? [], keepBytes: keep, sourceLength: bytesWritten, liveThreads: [])
        guard let blocks, let result = copy.write(to: output, blocks: blocks, kept: kept) else {
            let reason = String(cString: strerror(errno))
            close(output)
            unlink(target)
            return .failure(.cannotSnapshot(path: target, reason: reason))
        }
        let end = endBlock(events: result.events, chunks: result.chunks, dropped: 0, termination: .snapshot)
        let written = end.withUnsafeBytes { write(output, $0.baseAddress, $0.count) == $0.count }
        let reason = String(cString: strerror(errno))
        close(output)
        guard written else {
            unlink(target)
            return .failure(.cannotSnapshot(path: target, reason: reason))
        }
        return .success(TraceRecorder.Statistics(events: result.events, eventsDropped: 0, chunks: result.chunks,
                                                 bytes: result.length + UInt64(end.count), writeError: 0,
                                                 eventsOverwritten: result.history.eventsOverwritten))
    }

    private func reportOnce(_ line: String) {
        guard !reportedBounding else { return }
        reportedBounding = true
        report(line)
    }

    private func report(_ line: String) {
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
