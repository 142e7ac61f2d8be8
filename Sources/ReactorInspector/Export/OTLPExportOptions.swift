import ReactorTraceFormat

/// What an ``OTLPTraceExporter`` needs beyond the events: the resource's
/// `service.name`, and the recording's identity, from which every trace and
/// span id is derived (so exporting one trace twice gives identical files).
public struct OTLPExportOptions: Sendable, Equatable {
    /// The resource's `service.name`: the program that recorded the trace.
    public var serviceName: String
    /// When recording began, in nanoseconds since the Unix epoch: event times
    /// are offsets from it.
    public var wallStartNanoseconds: UInt64
    /// The recording clock's reading at the start; with the wall time and the
    /// pid it tells recordings apart.
    public var monotonicStartNanoseconds: UInt64
    /// The recording process's id (the resource's `process.pid`; 0 leaves it out).
    public var processID: UInt32
    /// The trace file's name, kept as the resource attribute `reactor.trace.file` (empty leaves it out).
    public var traceFile: String

    /// Options with explicit fields.
    public init(serviceName: String, wallStartNanoseconds: UInt64 = 0, monotonicStartNanoseconds: UInt64 = 0,
                processID: UInt32 = 0, traceFile: String = "") {
        self.serviceName = serviceName
        self.wallStartNanoseconds = wallStartNanoseconds
        self.monotonicStartNanoseconds = monotonicStartNanoseconds
        self.processID = processID
        self.traceFile = traceFile
    }

    /// Options for the recording `header` describes.
    public init(serviceName: String, header: TraceHeader, traceFile: String = "") {
        self.init(serviceName: serviceName, wallStartNanoseconds: header.wallStartNanoseconds,
                  monotonicStartNanoseconds: header.monotonicStartNanoseconds, processID: header.processID,
                  traceFile: traceFile)
    }

    /// The 16-byte trace id of the recording, as two halves (high first).
    var traceID: (high: UInt64, low: UInt64) {
        let high = Self.mix(wallStartNanoseconds ^ Self.mix(monotonicStartNanoseconds ^ Self.mix(UInt64(processID) ^ 0x5245_4143_544F_5221)))
        let low = Self.mix(high ^ 0xD1B5_4A32_D192_ED03)
        // An all-zero id is invalid in OTLP.
        return high == 0 && low == 0 ? (0, 1) : (high, low)
    }

    /// The span id of the `ordinal`-th span (0: the recording span): distinct
    /// for distinct ordinals, because the mix is a bijection and the step is odd.
    func spanID(_ ordinal: UInt64) -> UInt64 {
        let id = Self.mix(traceID.low &+ ordinal &* 0x9E37_79B9_7F4A_7C15)
        return id == 0 ? 0x9E37_79B9_7F4A_7C15 : id
    }

    /// SplitMix64's finalizer: a bijection that spreads every input bit.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
