import ReactorInspector
import ReactorTraceFormat

/// What ``TraceFollower`` last published: the model of the trace so far and
/// the live snapshot the page shows, with the Server-Sent Event that carries it.
package struct FollowedTrace: Sendable {
    /// Where the recording stands.
    package var status: LiveTraceStatus
    /// The ``LiveTrace/generation`` shown: another recording of the same path bumps it.
    package var generation = 0
    /// Bumped by every update.
    package var version = 0
    /// The model so far; nil while the trace is awaited.
    package var model: TraceModel?
    /// The index of what was read (``LiveTrace/index()``): a question about a
    /// moment given it reads only up to the chunk the moment needs.
    package var index: TraceIndex?
    /// Bytes of the file read: the model and index describe exactly these, and
    /// the on-demand questions read no further (``TracePass/byteLimit``).
    package var bytesRead = 0
    /// The end block, once read.
    package var end: TraceEnd?
    /// The recording's metadata, once read.
    package var metadata = TraceMetadata()
    /// A bounded recording's history, once read.
    package var history: TraceHistory?
    /// The hot table, recent actions and issues.
    package var snapshot: LiveSnapshot?
    /// Outermost actions begun so far (the largest N for `action:N`).
    package var actionsBegun = 0
    /// Outermost actions ended so far.
    package var actionsEnded = 0
    /// Node, held-edge and recorded-edge counts: the graph's shape.
    package var graphShape: [Int] = []
    /// Bumped when the graph's shape changes.
    package var graphVersion = 0
    /// The latest event time read (trace nanoseconds).
    package var latestTimestamp: UInt64 = 0
    /// When this was published (monotonic nanoseconds).
    package var publishedAt: UInt64 = 0
    /// The `update` Server-Sent Event for this state.
    package var message: [UInt8] = []

    package init(status: LiveTraceStatus) {
        self.status = status
    }
}

/// The data of an `update` event (docs/SERVE.md).
struct FollowerUpdate: Encodable {
    let version: Int
    let graphVersion: Int
    let actionsBegun: Int
    let lastTimestampNanoseconds: UInt64
    let firstTimestampNanoseconds: UInt64
    let snapshot: LiveSnapshot?
}
