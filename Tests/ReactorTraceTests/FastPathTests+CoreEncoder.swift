import Foundation
import ReactorCore
import ReactorTraceFormat
import Testing
@testable import ReactorTrace

extension FastPathTests {
    /// The core writes the fixed-size node-update events itself, inline through
    /// the thread's encoder, when that encoder is the recording's (`TraceHook`,
    /// as the emission sites call it): every kind and combined run end reads
    /// back as sent, with ids far apart (varints of up to seven bytes), on the
    /// fast path and where a full segment sends the event to the recorder's
    /// entry point (256-byte segments). Another recording's events in between
    /// make the thread's encoder that recording's: each recording still gets
    /// exactly its own events.
    @Test(arguments: [false, true], [256, 64 << 10])
    func coreWritesTheFixedEventsThroughTheThreadsEncoder(usesCycleCounter: Bool, segmentCapacity: Int) throws {
        let options = TraceRecorder.Options(segmentCapacity: segmentCapacity, usesCycleCounter: usesCycleCounter)
        var expected: [TraceRecord] = []
        var otherExpected: [TraceRecord] = []
        var encoderWasTheRecordings = true
        var otherBytes: [UInt8] = []
        let bytes = try TraceFixtures.record(options: options) { recorder in
            let hook = TraceHook.detached(recorder)
            otherBytes = try TraceFixtures.record(options: options) { other in
                let otherHook = TraceHook.detached(other)
                for (index, triple) in Self.farApartTriples.enumerated() {
                    let (computation, output, reader) = triple
                    let firstRun = index % 5 == 0
                    hook.rerunBegan(computation: computation, firstRun: firstRun)
                    expected.append(.rerunBegan(computation: computation, firstRun: firstRun))
                    if TraceThreadEncoder.current?.recording != recorder.generation { encoderWasTheRecordings = false }
                    hook.depend(computation: computation, dependency: output)
                    hook.depend(computation: computation, dependency: reader)
                    expected.append(.depend(computation: computation, dependency: output))
                    expected.append(.depend(computation: computation, dependency: reader))
                    switch index % 6 {
                    case 0:
                        hook.rerunEnded(computation: computation)
                        expected.append(.rerunEnded(computation: computation))
                    case 1:
                        hook.rerunEnded(computation: computation, changed: output)
                        expected += [.rerunEnded(computation: computation), .changed(dependency: output)]
                    case 2:
                        hook.rerunEnded(computation: computation, changed: output, invalidated: reader)
                        expected += [.rerunEnded(computation: computation), .changed(dependency: output),
                                     .invalidated(computation: reader, cause: .dependency, source: output)]
                    case 3:
                        hook.rerunEnded(computation: computation, changed: output, rerunning: reader)
                        hook.rerunEnded(computation: reader)
                        expected += [.rerunEnded(computation: computation), .changed(dependency: output),
                                     .invalidated(computation: reader, cause: .dependency, source: output),
                                     .rerunBegan(computation: reader, firstRun: false), .rerunEnded(computation: reader)]
                    case 4:
                        hook.rerunEnded(computation: computation, beginning: reader)
                        hook.rerunEnded(computation: reader)
                        expected += [.rerunEnded(computation: computation), .rerunBegan(computation: reader, firstRun: false),
                                     .rerunEnded(computation: reader)]
                    default:
                        hook.rerunEnded(computation: computation)
                        hook.invalidated(computation: reader, cause: .dependency, source: output)
                        hook.invalidated(computation: computation, cause: .dependency, source: output)
                        hook.invalidated(computation: reader, cause: .explicit, source: 0)
                        hook.invalidated(computation: computation, cause: .parent, source: reader)
                        expected += [.rerunEnded(computation: computation),
                                     .invalidated(computation: reader, cause: .dependency, source: output),
                                     .invalidated(computation: computation, cause: .dependency, source: output),
                                     .invalidated(computation: reader, cause: .explicit, source: 0),
                                     .invalidated(computation: computation, cause: .parent, source: reader)]
                    }
                    if index % 4 == 0 {
                        // The other recording's events: the thread's encoder becomes its.
                        otherHook.depend(computation: reader, dependency: output)
                        otherHook.invalidated(computation: computation, cause: .stop, source: 0)
                        otherExpected += [.depend(computation: reader, dependency: output),
                                          .invalidated(computation: computation, cause: .stop, source: 0)]
                    }
                }
            }
        }
        #expect(encoderWasTheRecordings)
        for (bytes, expected) in [(bytes, expected), (otherBytes, otherExpected)] {
            let (events, reader) = try TraceFixtures.readAll(bytes)
            #expect(events.map(\.record) == expected)
            #expect(reader.truncation == nil)
            // The other recording's first event is untimed: a clock event goes first.
            #expect(reader.end?.events == UInt64(expected.count + reader.clockEvents))
            var previous: UInt64 = 0
            for event in events {
                #expect(event.timestamp >= previous)
                previous = event.timestamp
            }
        }
    }

    /// The core's encoder writes the schema's tags, cause codes and varints
    /// (it cannot import the schema: ReactorCore depends on nothing).
    @Test func theCoresEncoderSpeaksTheSchema() {
        #expect(TraceThreadEncoder.dependTag == TraceEventKind.depend.rawValue)
        #expect(TraceThreadEncoder.changedTag == TraceEventKind.changed.rawValue)
        #expect(TraceThreadEncoder.invalidatedTag == TraceEventKind.invalidated.rawValue)
        #expect(TraceThreadEncoder.rerunBeganTag == TraceEventKind.rerunBegan.rawValue)
        #expect(TraceThreadEncoder.rerunEndedTag == TraceEventKind.rerunEnded.rawValue)
        #expect(TraceThreadEncoder.dependencyCauseCode == InvalidationCause.dependency.rawValue)
        for cause in ReactorTracing.InvalidationCause.allCases {
            #expect(cause.traceCode == InvalidationCause(cause).rawValue)
        }
        let core = UnsafeMutablePointer<UInt8>.allocate(capacity: 10)
        let schema = UnsafeMutablePointer<UInt8>.allocate(capacity: 10)
        defer {
            core.deallocate()
            schema.deallocate()
        }
        let values: [UInt64] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 1 << 35, UInt64.max]
        for value in values {
            let coreEnd = TraceThreadEncoder.put(value, core)
            let schemaEnd = Varint.put(value, at: schema)
            #expect(Array(UnsafeBufferPointer(start: core, count: coreEnd - core))
                == Array(UnsafeBufferPointer(start: schema, count: schemaEnd - schema)))
            for base in values {
                #expect(TraceThreadEncoder.zigzagDelta(value, from: base) == Varint.zigzagDelta(value, from: base))
            }
        }
    }
}
