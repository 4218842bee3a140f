import Analysis

/// What the analysis loop hands every tempo-sync output after each poll: the engine, what the poll produced,
/// whether the beat source's tracker has confirmed a pulse (the clock, Link and OS2L follow only a pulse that
/// repeats in bars: speech can hold a lock, never that), and the stream instant at which the poll began.
public struct SyncPoll {
    public let engine: AnalysisEngine
    public let outputs: [AnalysisOutput]
    public let periodFrames: Int
    public let pulse: Bool
    /// The stream instant, seconds of audio, that was now when the poll began (the newest period's stream time
    /// plus how long ago its JACK cycle began).
    public let streamNow: Double

    public init(engine: AnalysisEngine, outputs: [AnalysisOutput], periodFrames: Int, pulse: Bool, streamNow: Double) {
        self.engine = engine
        self.outputs = outputs
        self.periodFrames = periodFrames
        self.pulse = pulse
        self.streamNow = streamNow
    }
}

/// A tempo-sync output (MIDI beat clock, MIDI notes, Ableton Link, OS2L), driven by the analysis thread only: the
/// same four calls for each, so the loop knows none of them by name.
public protocol TempoConsumer: AnyObject {
    /// Just before a poll, at the instant `SyncPoll.streamNow` describes: for an output that pairs it with a
    /// clock of its own (Link's).
    func willPoll()
    /// After each poll.
    func update(_ poll: SyncPoll)
    /// `old` gives way to a new engine at `sampleRate` whose stream frame 0 is ring frame `origin`: what belonged
    /// to the old timeline ends there (a running clock stops, a sounding note ends).
    func restart(after old: AnalysisEngine, origin: Int, sampleRate: Double)
    /// The run ends while the process callback still runs: what is queued gets up to `wait` seconds to go out.
    func finish(engine: AnalysisEngine, wait: Double)
}

extension TempoConsumer {
    public func willPoll() {}
    public func restart(after old: AnalysisEngine, origin: Int, sampleRate: Double) {}
    public func finish(engine: AnalysisEngine, wait: Double) {}
}
