/// Whether a question about a trace may use the index beside it (``TraceIndex``).
public enum TraceIndexUse {
    /// Read the trace by passes only; neither read nor write an index (`--no-index`).
    case none
    /// Use the index beside the trace when it is there and fits the trace;
    /// otherwise answer by a pass and leave an index for the next question.
    /// `note` receives at most one line per question: why an index found was
    /// not used, or why none could be written.
    case automatic(note: (String) -> Void)
    /// Use `index`, held by the caller: the index of the part of a growing
    /// trace a follower has read (``LiveTrace/index()``), for a pass over the
    /// same bytes (``TracePass/byteLimit``). Checked chunk by chunk as one
    /// read from disk is (a chunk that differs makes the pass read on, as
    /// without an index); never written beside the trace.
    case given(TraceIndex)

    /// The session of one question under this use (nil: by passes only).
    func session(tracePath: String) -> TraceIndexSession? {
        switch self {
        case .none: nil
        case let .automatic(note): TraceIndexSession(tracePath: tracePath, note: note)
        case let .given(index): TraceIndexSession(tracePath: tracePath, given: index)
        }
    }
}
