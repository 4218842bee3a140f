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
    private var activation: BeatActivation
    /// The learned beat activation and its input, when the config has weights: the beat model then reads the
    /// network's output instead of `activation.value` (which still tells silence and where the music starts).
    private var features: BeatFeatures
    private let network: BeatNetwork?
    /// The newest frame's learned activation (0 without a network).
    private var learnedValue: Float = 0
    /// Per model frame, when recording: the instant it describes (s), the learned activation, the features.
    private var featureRecord: [Float]?
    private let model: TempoPhaseModel
    private var beats: BeatScheduler
    private var bars: BarTracker
    /// Bass and broadband onset function of the newest model frames, and the stream frame each ended at:
    /// enough to read the accents of a beat once it has passed.
    private let frameBass: UnsafeMutablePointer<Float>
    private let frameBroad: UnsafeMutablePointer<Float>
    private let frameEnd: UnsafeMutablePointer<Int>
    private var frameCount = 0
    private var partialBass: Float = 0
    /// Stream frame described by the first accent after the last silence: where the music started.
    private var musicStart: Int?
    /// Onsets picked since the music last started.
    private var onsetsHeard = 0
    /// Whether, since the tracker last locked, the onsets have repeated at a bar of its tempo
    /// (`pulseRepetition`) at `pulseBeatsNeeded` announced beats in a row: what the tempo-sync outputs wait for.
    private var pulseConfirmed = false
    /// Announced beats in a row, since the lock, at which the bar repetition held `pulseRepetition`.
    private var pulseBeats = 0
    /// The bar repetition (`barRepetition`) that counts a beat towards a pulse. Read at every beat the tracker
    /// announced (a one-off probe on 2026-11-24, not kept as a command): speech (espeak-ng, 46 s, which the
    /// tracker locks onto at syllable rate) read 0.17 / 0.24 / 0.28 at its 10th / 50th / 90th percentiles;
    /// every item of the real-recording corpus (eval/out/real-v1) had its median at 0.52 or above (drum
    /// kits, loops, tabla, GM pieces through their tempo changes).
    static let pulseRepetition: Float = 0.4
    /// A bar of 4 beats in a row. Speech does reach 0.4 now and then: a second probe (2026-11-25, three
    /// espeak-ng paragraphs in two languages, each three times over, behind 0 to 1.5 s of silence: 21
    /// runs) read up to 0.43 on single frames, and a pulse confirmed on the first frame over 0.4 clocked 4 of
    /// the 21 runs (and a live test of speech once); at announced beats it never held 0.4 twice in a row (0.35
    /// twice at most). Four in a row confirmed every item of the real corpus, 3.1 s after its first beat at
    /// the median and 6.3 s at the most (against 1.2 and 3.4 s for a single beat).
    static let pulseBeatsNeeded = 4
    /// Beats since the first announced one (skipped ones included), and the newest one's stream frame.
    private var beatIndex = 0
    private var previousBeatFrame = 0
    /// Announced beats not yet passed, oldest first: their indices and stream frames, a ring.
    private let pendingIndex: UnsafeMutablePointer<Int>
    private let pendingFrame: UnsafeMutablePointer<Int>
    private var pendingHead = 0
    private var pendingSize = 0
    private let lead: Double
    /// The newest `ringSize` samples, and a copy of the newest window in time order.
    private let ringSize: Int
    /// Samples of the features' long window (version 2), 0 without one.
    private var longWindow: Int
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
        activation = BeatActivation(framing: framing)
        // What the network was trained on; without one, version 1 (which costs nothing unless pooled):
        // `recordFeatures` moves to the newest.
        features = BeatFeatures(version: config.learnedActivation?.featureVersion ?? 1, lowBin: flux.lowBin,
                                binCount: flux.binCount, binHz: flux.binHz, framing: framing,
                                decimation: BeatActivation.decimation)
        if let weights = config.learnedActivation {
            precondition(weights.inputCount == features.inputCount,
                         "beat weights take \(weights.inputCount) inputs; the features are \(features.inputCount)")
            network = BeatNetwork(weights: weights)
        } else {
            network = nil
        }
        model = TempoPhaseModel(
            frameRate: activation.frameRate, minimumBPM: config.minimumBPM, maximumBPM: config.maximumBPM,
            preferredMinimumBPM: min(max(config.preferredMinimumBPM, config.minimumBPM), config.maximumBPM),
            preferredMaximumBPM: max(min(config.preferredMaximumBPM, config.maximumBPM), config.minimumBPM),
            settings: config.beatModel)
        beats = BeatScheduler(frameSamples: Double(framing.hop * BeatActivation.decimation))
        bars = BarTracker()
        frameBass = .allocate(capacity: Self.accentFrames)
        frameBass.initialize(repeating: 0, count: Self.accentFrames)
        frameBroad = .allocate(capacity: Self.accentFrames)
        frameBroad.initialize(repeating: 0, count: Self.accentFrames)
        frameEnd = .allocate(capacity: Self.accentFrames)
        frameEnd.initialize(repeating: 0, count: Self.accentFrames)
        pendingIndex = .allocate(capacity: Self.pendingCapacity)
        pendingIndex.initialize(repeating: 0, count: Self.pendingCapacity)
        pendingFrame = .allocate(capacity: Self.pendingCapacity)
        pendingFrame.initialize(repeating: 0, count: Self.pendingCapacity)
        lead = max(0, config.beatLead) * sampleRate
        // The ring holds the longest window anything may read: the long window of version 2's features.
        longWindow = features.long?.size ?? 0
        ringSize = LongWindowBands.windowsPerLongWindow * framing.window
        ring = .allocate(capacity: ringSize)
        ring.initialize(repeating: 0, count: ringSize)
        frame = .allocate(capacity: ringSize)
        frame.initialize(repeating: 0, count: ringSize)
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
        features.deallocate()
        ring.deallocate()
        frame.deallocate()
        frameBass.deallocate()
        frameBroad.deallocate()
        frameEnd.deallocate()
        pendingIndex.deallocate()
        pendingFrame.deallocate()
    }

    /// Model frames kept for reading the accents of passed beats: 128 × 8.7 ms = 1.1 s, more than a beat
    /// at 55 BPM plus the lead.
    static let accentFrames = 128
    /// At most this many beats are announced and not yet passed (one, unless the lead exceeds a beat).
    static let pendingCapacity = 8

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
                ringIndex = ringIndex + 1 == ringSize ? 0 : ringIndex + 1
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

    /// Copies the newest `count` samples of the ring into `frame`, oldest first.
    private func copyNewest(_ count: Int) {
        let start = (ringIndex + ringSize - count) % ringSize
        let first = min(count, ringSize - start)
        frame.update(from: ring + start, count: first)
        (frame + first).update(from: ring, count: count - first)
    }

    private func analyseHop() {
        copyNewest(framing.window)
        let odf = flux.next(frame)
        let now = processed
        if let pick = picker.push(flux.pickingFlux, strong: flux.riseIsStrong, silent: flux.newestHopIsSilent) {
            // A peak is the previous frame, whose window ended one hop ago. A run reported while it still
            // rises would peak a hop or more later, so it is described from the newest window's end: on the
            // eval corpus that puts the median of each kind within 1.5 ms of the note-on.
            let end = pick.atPeak ? now - framing.hop : now
            onsets.push(OnsetEvent(strength: 1 - exp(-pick.excess), frame: max(0, end - onsetDelay), reportedFrame: now))
            onsetsHeard += 1
        }
        partialBass = max(partialBass, flux.bassLevel)
        // Pooled only for the network or a recording (0.6 % of a port's analysis otherwise, Benchmarks/beat-cost),
        // on every hop from the stream's start, so that a frame's features and `activation`'s frame end on the
        // same hop.
        let featuresReady = network != nil || featureRecord != nil
            ? features.push(flux.logMagnitudes, decimation: BeatActivation.decimation) : false
        if featuresReady && longWindow > 0 {
            copyNewest(longWindow)
            features.pushLongWindow(frame)
        }
        if activation.push(odf, beat: flux.beatFlux) {
            if featuresReady {
                if let network { learnedValue = network.step(features.vector) }
                if featureRecord != nil { record(now: now) }
            }
            let slot = frameCount % Self.accentFrames
            frameBass[slot] = partialBass
            frameBroad[slot] = activation.frameSum
            frameEnd[slot] = now
            frameCount += 1
            partialBass = 0
            observePassedBeats(now: now)
            if activation.startsMusic { musicStart = now - onsetDelay }
            if activation.silent {
                // The music stopped (or has not started): beats stop and the model starts afresh, so that
                // what comes next is not read at the old tempo.
                onsetsHeard = 0
                if beats.locked || model.bestPeriod != 0 {
                    beats.reset()
                    model.reset()
                    bars.reset()
                    pendingSize = 0
                }
            } else {
                model.step(activation: network == nil ? activation.value : learnedValue, accent: activation.frameSum)
                // The newest frame's onsets are described as the onset picker describes a peak: the window's
                // end less the onset delay.
                let heard = musicStart.map { Double(now - $0) / sampleRate } ?? 0
                beats.update(period: model.bestPeriod, framesToNextBeat: model.framesToNextBeat,
                             meanPeriod: model.meanPeriod, instant: Double(now - onsetDelay),
                             mayLock: heard >= BeatScheduler.minimumMusicSeconds
                                 && onsetsHeard >= BeatScheduler.minimumOnsets)
            }
        }
        if !beats.locked {
            pulseConfirmed = false
            pulseBeats = 0
        }
        if let beat = beats.due(now: now, hop: framing.hop, lead: lead) {
            if !pulseConfirmed {
                pulseBeats = model.barRepetition >= Self.pulseRepetition ? pulseBeats + 1 : 0
                pulseConfirmed = pulseBeats >= Self.pulseBeatsNeeded
            }
            // Beats are indexed by time, not by count: a beat the tracker skipped (or a phase jump) still
            // moves the bar on by the beats that passed.
            let period = beats.periodSamples
            if beat.count == 1 {
                bars.reset()
                pendingSize = 0
                beatIndex = 0
            } else {
                beatIndex += max(1, Int((Double(beat.frame - previousBeatFrame) / period).rounded()))
            }
            previousBeatFrame = beat.frame
            if let musicStart, beatIndex < BarTracker.anchorBeats {
                let since = Int((Double(beat.frame - musicStart) / period).rounded())
                if since >= 0 { bars.anchor(index: beatIndex, beatsSinceOne: since) }
            }
            let position = bars.number(index: beatIndex)
            if pendingSize < Self.pendingCapacity {
                let slot = (pendingHead + pendingSize) % Self.pendingCapacity
                pendingIndex[slot] = beatIndex
                pendingFrame[slot] = beat.frame
                pendingSize += 1
            }
            beatEvents.push(BeatEvent(count: beat.count, bpm: bpm, bar: position.bar, beatInBar: position.beat,
                                      beatsPerBar: bars.beatsPerBar, frame: beat.frame, reportedFrame: now))
        }
    }

    /// Hands the bar tracker the accents of every pending beat whose onsets have all been seen: the model
    /// frames within 1.5 frames of its instant, once two more frames have passed.
    private func observePassedBeats(now: Int) {
        let frameSamples = framing.hop * BeatActivation.decimation
        while pendingSize > 0, now - onsetDelay >= pendingFrame[pendingHead] + 2 * frameSamples {
            let first = (index: pendingIndex[pendingHead], frame: pendingFrame[pendingHead])
            var bass: Float = 0, broad: Float = 0
            for back in 0..<min(frameCount, Self.accentFrames) {
                let slot = (frameCount - 1 - back) % Self.accentFrames
                let described = frameEnd[slot] - onsetDelay
                if described < first.frame - 2 * frameSamples { break }
                if abs(described - first.frame) * 2 <= 3 * frameSamples {
                    bass = max(bass, frameBass[slot])
                    broad = max(broad, frameBroad[slot])
                }
            }
            bars.observe(index: first.index, bass: bass, broadband: broad)
            pendingHead = (pendingHead + 1) % Self.pendingCapacity
            pendingSize -= 1
        }
    }

    /// Starts keeping, for every model frame from now on, the instant it describes, the learned activation and
    /// the features the network reads (`takeFeatureRecord`; without a network, the newest version's). For
    /// training and checking the network offline (`jacktap beat-features`): it allocates as it goes, so never on
    /// a live run. Call it before the first `process`.
    public func recordFeatures() {
        featureRecord = []
        if network == nil && features.version != BeatFeatures.newestVersion {
            features.deallocate()
            features = BeatFeatures(version: BeatFeatures.newestVersion, lowBin: flux.lowBin, binCount: flux.binCount,
                                    binHz: flux.binHz, framing: framing, decimation: BeatActivation.decimation)
            longWindow = features.long?.size ?? 0
        }
    }

    /// Values per recorded frame: the instant, the learned activation, then the features.
    public var featureRecordWidth: Int { 2 + features.inputCount }

    /// The frames recorded since the last take, `featureRecordWidth` values each.
    public func takeFeatureRecord() -> [Float] {
        defer { if featureRecord != nil { featureRecord = [] } }
        return featureRecord ?? []
    }

    private func record(now: Int) {
        featureRecord?.append(Float(Double(now - onsetDelay) / sampleRate))
        featureRecord?.append(network == nil ? -1 : learnedValue)
        for i in 0..<features.inputCount { featureRecord?.append(features.vector[i]) }
    }

    /// Appends the onsets found since the last call, in time order. Reserve capacity in `out` beforehand
    /// to keep this free of allocation.
    public func takeOnsets(into out: inout [OnsetEvent]) { onsets.drain(into: &out) }

    /// Appends the beats announced since the last call, in time order.
    public func takeBeats(into out: inout [BeatEvent]) { beatEvents.drain(into: &out) }

    /// Current tempo, BPM; nil until the tracker has locked.
    public var tempo: Float? {
        guard beats.locked else { return nil }
        return bpm
    }

    private var bpm: Float { Float(60 * sampleRate / beats.periodSamples) }

    /// The beats ahead as the tracker predicts them: the next beat's stream frame and the period between
    /// beats, samples (the tempo `/beat` reports); nil until locked and until the onsets have repeated at a
    /// bar of that tempo since (`pulseRepetition`). The tempo-sync outputs (MIDI clock, Link, OS2L) follow
    /// this grid: a lighting rig must not be clocked by speech, whose syllables the tracker can lock onto.
    public var beatGrid: BeatGrid? {
        guard beats.locked, pulseConfirmed, beats.periodSamples > 0 else { return nil }
        return BeatGrid(nextBeat: beats.nextBeat, period: beats.periodSamples)
    }

    /// How strongly the onsets repeat at a bar of the tempo the tracker holds (0…1).
    public var barRepetition: Float { model.barRepetition }

    /// Position within the current beat at stream frame `frame`, 0..<1 (0 on a beat, 0.5 halfway to the
    /// next: for lighting chases); nil until locked.
    public func phase(atFrame frame: Int) -> Float? { beats.phase(atFrame: frame) }

    /// Stream frames processed so far.
    public var framesProcessed: Int { processed }

    /// Forgets everything: the next sample is stream frame 0.
    public func reset() {
        ring.update(repeating: 0, count: ringSize)
        ringIndex = 0
        hopFill = 0
        processed = 0
        flux.reset()
        picker.reset()
        activation.reset()
        features.reset()
        network?.reset()
        learnedValue = 0
        model.reset()
        beats.reset()
        bars.reset()
        pendingSize = 0
        frameCount = 0
        pulseConfirmed = false
        pulseBeats = 0
        partialBass = 0
        musicStart = nil
        onsetsHeard = 0
        onsets.removeAll()
        beatEvents.removeAll()
    }
}
