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
}
