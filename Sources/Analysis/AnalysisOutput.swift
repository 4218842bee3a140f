/// What one poll of the engine produced, in stream order: ticks and the events found between them.
public enum AnalysisOutput: Sendable, Equatable {
    case snapshot(Snapshot)
    case event(AnalysisEvent)
}
