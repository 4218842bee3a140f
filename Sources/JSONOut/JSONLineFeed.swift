/// Where the lines `--json` prints go besides stdout: the meter bridge (`--http`) hands them to its viewers.
///
/// Called on the analysis thread (ticks, events) and the main thread (status); an implementation must return at
/// once, whatever its readers are doing: it keeps the newest lines and drops what a slow reader has not taken.
public protocol JSONLineFeed: AnyObject, Sendable {
    /// One tick, as `JSONLines.line(for: Snapshot)` wrote it.
    func tick(_ line: String)
    /// One event (onset, beat with its bar), as `JSONLines.line(for: AnalysisEvent)` wrote it.
    func event(_ line: String)
    /// The JACK connection's state and counts, as `JSONLines.statusLine` wrote it.
    func status(_ line: String)
    /// An alarm that started or ended, as `JSONLines.line(for: AnalysisEvent)` wrote it; `key` names the alarm
    /// (programme and kind), so that a reader who comes while it is on is told.
    func alarm(_ line: String, key: String, on: Bool)
}

extension JSONLineFeed {
    /// A feed that keeps no state sends an alarm as any other event.
    public func alarm(_ line: String, key: String, on: Bool) { event(line) }
}
