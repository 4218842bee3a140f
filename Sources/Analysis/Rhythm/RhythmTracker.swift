import Foundation

/// Onsets, tempo and predicted beats of one audio stream, strictly causal and real-time safe.
///
/// Audio is cut into hops of 2.9 ms (a fixed duration at every sample rate, see `RhythmFraming`); each hop
/// yields one value of the onset function (`SpectralFlux`) over the newest 23 ms. Onsets are picked from it
/// at a peak (one hop of look-ahead) or once it has risen for three hops (`OnsetPicker`) and queued the hop
/// they are found. The same function feeds the tempo estimator (`TempoEstimator`) and the beat phase comb
/// (`BeatPredictor`); beats are queued `beatLead` seconds before their predicted instant. Everything at
/// stream frame N uses only samples before N, and results do not depend on how the stream is split into
/// `process` calls.
///
/// Not thread-safe: one thread calls `process`, the `take…` methods and the properties.
public final class RhythmTracker {
    /// The settings this tracker was made with.
    public let config: RhythmConfig
    /// Sample rate, Hz.
    public let sampleRate: Double
    let framing: RhythmFraming
    /// Samples from the end of the window of an onset-function peak back to the onset it describes:
    /// 12.5 ms, the median lag of the peak behind the note-on on GM drum loops and melodies rendered with
    /// fluidsynth (about where the Hann window's weight on the attack has risen to a quarter).
    let onsetDelay: Int
    private let flux: SpectralFlux
    private var picker: OnsetPicker
    private var tempoEstimator: TempoEstimator
    private var beats: BeatPredictor
    private let lead: Double
    private let ring: UnsafeMutablePointer<Float>
    private let frame: UnsafeMutablePointer<Float>
    private var ringIndex = 0
    private var hopFill = 0
    private var processed = 0
    private var onsets: EventQueue<OnsetEvent>
    private var beatEvents: EventQueue<BeatEvent>

    /// A tracker for a stream at `sampleRate`, queueing at most `eventCapacity` onsets and as many beats
    /// between two takes (further ones are dropped).
    public init(config: RhythmConfig, sampleRate: Double, eventCapacity: Int = RhythmTracker.defaultEventCapacity) {
        self.config = config
        self.sampleRate = sampleRate
        framing = RhythmFraming(sampleRate: sampleRate)
        onsetDelay = Int((Self.onsetDelaySeconds * sampleRate).rounded())
        flux = SpectralFlux(framing: framing)
        picker = OnsetPicker(framing: framing, threshold: config.onsetThreshold, minimumGap: config.onsetMinimumGap)
        tempoEstimator = TempoEstimator(framing: framing, minimumBPM: config.minimumBPM, maximumBPM: config.maximumBPM)
        beats = BeatPredictor(framing: framing, onsetDelay: Double(onsetDelay))
        lead = max(0, config.beatLead) * sampleRate
        ring = .allocate(capacity: framing.window)
        ring.initialize(repeating: 0, count: framing.window)
        frame = .allocate(capacity: framing.window)
        frame.initialize(repeating: 0, count: framing.window)
        onsets = EventQueue(capacity: eventCapacity)
        beatEvents = EventQueue(capacity: eventCapacity)
        // The Swift runtime instantiates generic metadata on first use, which allocates: pass one event of
        // each kind through its queue here so that it does not happen on the analysis thread.
        var onsetScratch = [OnsetEvent]()
        onsetScratch.reserveCapacity(1)
        onsets.push(OnsetEvent(strength: 0, frame: 0, reportedFrame: 0))
        onsets.drain(into: &onsetScratch)
        var beatScratch = [BeatEvent]()
        beatScratch.reserveCapacity(1)
        beatEvents.push(BeatEvent(count: 0, bpm: 0, frame: 0, reportedFrame: 0))
        beatEvents.drain(into: &beatScratch)
    }

    deinit {
        ring.deallocate()
        frame.deallocate()
    }

    static let onsetDelaySeconds = 0.0125
    /// Events of each kind queued between two takes by default: at the default 50 ms minimum gap, 64 onsets
    /// span 3.2 s of audio, far longer than a poll interval. A reader reserves as many to take them without
    /// allocating.
    public static let defaultEventCapacity = 64

    /// Analyses `count` more samples of the stream.
    public func process(_ samples: UnsafePointer<Float>, count: Int) {
        var i = 0
        while i < count {
            let n = min(count - i, framing.hop - hopFill)
            for j in 0..<n {
                ring[ringIndex] = samples[i + j]
                ringIndex = ringIndex + 1 == framing.window ? 0 : ringIndex + 1
            }
            i += n
            hopFill += n
            processed += n
            if hopFill == framing.hop {
                hopFill = 0
                analyseHop()
            }
        }
    }

    private func analyseHop() {
        let tail = framing.window - ringIndex
        frame.update(from: ring + ringIndex, count: tail)
        (frame + tail).update(from: ring, count: ringIndex)
        let odf = flux.next(frame)
        let now = processed
        if let pick = picker.push(flux.pickingFlux, strong: flux.riseIsStrong, silent: flux.newestHopIsSilent) {
            // A peak is the previous frame, whose window ended one hop ago. A run reported while it still
            // rises would peak a hop or more later, so it is described from the newest window's end: on the
            // eval corpus that puts the median of each kind within 1.5 ms of the note-on.
            let end = pick.atPeak ? now - framing.hop : now
            onsets.push(OnsetEvent(strength: 1 - exp(-pick.excess), frame: max(0, end - onsetDelay), reportedFrame: now))
        }
        beats.push(odf)
        if tempoEstimator.push(odf) {
            if let period = tempoEstimator.period {
                beats.update(period: period, now: now)
            } else if beats.locked {
                beats.unlock()
            }
        }
        if let beat = beats.due(now: now, lead: lead) { beatEvents.push(beat) }
    }

    /// Appends the onsets found since the last call, in time order. Reserve capacity in `out` beforehand
    /// to keep this free of allocation.
    public func takeOnsets(into out: inout [OnsetEvent]) { onsets.drain(into: &out) }

    /// Appends the beats announced since the last call, in time order.
    public func takeBeats(into out: inout [BeatEvent]) { beatEvents.drain(into: &out) }

    /// Current tempo, BPM; nil until the tracker has locked.
    public var tempo: Float? {
        guard beats.locked else { return nil }
        return beats.bpm
    }

    /// Position within the current beat at stream frame `frame`, 0..<1 (0 on a beat, 0.5 halfway to the
    /// next: for lighting chases); nil until locked.
    public func phase(atFrame frame: Int) -> Float? { beats.phase(atFrame: frame) }

    /// Stream frames processed so far.
    public var framesProcessed: Int { processed }

    /// Forgets everything: the next sample is stream frame 0.
    public func reset() {
        ring.update(repeating: 0, count: framing.window)
        ringIndex = 0
        hopFill = 0
        processed = 0
        flux.reset()
        picker.reset()
        tempoEstimator.reset()
        beats.reset()
        onsets.removeAll()
        beatEvents.removeAll()
    }
}
