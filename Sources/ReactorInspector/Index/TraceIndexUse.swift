/// Whether a question about a trace may use the index beside it (``TraceIndex``).
public enum TraceIndexUse {
    /// Read the trace by passes only; neither read nor write an index (`--no-index`).
    case none
    /// Use the index beside the trace when it is there and fits the trace;
    /// otherwise answer by a pass and leave an index for the next question.
    /// `note` receives at most one line per question: why an index found was
    /// not used, or why none could be written.
    case automatic(note: (String) -> Void)
}
