import DSP
import Synchronization

/// Turns what the tap produced into one `Snapshot` per tick, and the onsets and beats between ticks into
/// events: the analysis thread's whole job, and the same code for a file as for live JACK input.
///
/// Ticks fall every sampleRate / rate frames of audio (not of wall-clock time), so a file analysed as fast as
/// the machine allows reports the same instants, and the same figures, as the live stream: every value of a
/// tick is measured on the frames up to that tick, whatever the period size.
public final class AnalysisEngine {
    /// The sample rate of the source (JACK's or the file's), Hz.
    public let sampleRate: Double
    /// The port names used in snapshots.
    public let portNames: [String]
    let tap: Tap
    let config: AnalysisConfig
    let analyzers: [PortAnalyzer]
    let levels: [PortLevels]
    /// Spreads the per-port, per-programme and per-pair work over `--threads` threads.
    let splitter: WorkSplitter
    /// Each port's band levels for the snapshot being made (filled in parallel, then read in port order).
    var spectralScratch: [(bands: [Float], bands4: [Float], bands7: [Float])]
    var runFrames = 0
    var overrunsSeen = 0
    let portMeters: [PortMeters]
    let programmes: [ProgrammeLoudness]
    let pairs: [(pair: MeterConfig.Pair, meter: CorrelationMeter)]
    let resetRequested = Atomic<Bool>(false)
    var position = 0
    var lastSnapshotPosition = 0
    /// Ticks and events in stream order, reused from poll to poll.
    var outputs = [AnalysisOutput]()
    var onsetScratch = [OnsetEvent]()
    var beatScratch = [BeatEvent]()
    var nextTick: Double
    let tickInterval: Double

    /// An engine reading `tap`, whose channels are named `portNames`, at the source's `sampleRate`, running
    /// the broadcast meters `meters` chooses, spreading the ports over `config.threads` threads (1: all on the
    /// calling thread). Every figure and event is the same whatever the number of threads.
    public init(tap: Tap, sampleRate: Double, portNames: [String], config: AnalysisConfig,
                meters: MeterConfig = MeterConfig()) {
        precondition(portNames.count == tap.channels, "one name per tapped channel")
        self.tap = tap
        self.sampleRate = sampleRate
        self.portNames = portNames
        self.config = config
        analyzers = portNames.map {
            PortAnalyzer(config: config, sampleRate: sampleRate, analyses: config.music.analyses(forPort: $0))
        }
        levels = portNames.map { _ in PortLevels(windowFrames: Int((config.rmsWindow * sampleRate).rounded())) }
        splitter = WorkSplitter(threads: max(1, config.threads))
        spectralScratch = Array(repeating: ([], [], []), count: portNames.count)
        tickInterval = sampleRate / config.rate
        nextTick = tickInterval
        portMeters = portNames.map { _ in PortMeters(config: meters, sampleRate: sampleRate) }
        if meters.meters.contains(.loudness), !portNames.isEmpty {
            let groups = meters.programmes.isEmpty ? [MeterConfig.defaultProgramme(portCount: portNames.count)]
                : meters.programmes
            programmes = groups.map { ProgrammeLoudness(programme: $0, sampleRate: sampleRate, alarms: meters.alarms) }
        } else {
            programmes = []
        }
        pairs = meters.meters.contains(.correlation)
            ? meters.pairs.map { (pair: $0, meter: CorrelationMeter(sampleRate: sampleRate)) } : []
        onsetScratch.reserveCapacity(RhythmTracker.defaultEventCapacity)
        beatScratch.reserveCapacity(RhythmTracker.defaultEventCapacity)
    }

    /// Seconds of audio analysed so far.
    public var analysedTime: Double { Double(position) / sampleRate }

    /// Frames analysed since the engine started: the stream frame the next analysis begins at.
    public var analysedFrames: Int { position }

    /// Port `index`'s note as its pitch tracker shows it (voiced, hysteresis applied; nil otherwise) and the
    /// level of the window it was read from, dBFS.
    public func heldNote(port index: Int) -> (midi: Int?, levelDB: Double) {
        guard let pitch = analyzers[index].pitch else { return (nil, -200) }
        return (pitch.note?.midi, pitch.windowLevelDB)
    }

    /// The beat grid of port `index`'s rhythm tracker (nil when it has none or it has not locked).
    public func beatGrid(port index: Int) -> BeatGrid? { analyzers[index].rhythm?.beatGrid }

    /// When set, no frame past this stream position is analysed (`--duration`: a run ends after exactly
    /// that much audio, so it gives the same ticks on a quiet machine and on a loaded one).
    public var frameLimit: Int?

    /// Whether the frame limit has been reached.
    public var reachedLimit: Bool { frameLimit.map { position >= $0 } ?? false }

    /// Seconds of audio that have arrived: what is analysed plus what waits in the ring. Read just after a
    /// wake-up, it is "now" in the stream, whatever the next poll then takes to analyse it.
    public var arrivedTime: Double { Double(position + tap.ring.readableFrames()) / sampleRate }

    /// The stream time, seconds, at which the ring's write count was `ringFrames` (a period the tap stamped).
    public func streamTime(ringFrames: Int) -> Double {
        Double(position + ringFrames - tap.ring.consumedFrames) / sampleRate
    }

    /// Asks for the integrated loudness, range, maxima, holds and clip counts to start again; any thread
    /// (SIGUSR1, the view's key) may call it; the analysis thread carries it out at its next poll.
    public func requestReset() { resetRequested.store(true, ordering: .releasing) }

    func resetMeters() {
        portMeters.forEach { $0.reset() }
        programmes.forEach { $0.reset() }
    }

    /// The loudness programmes' names, in the order of the snapshots.
    public var programmeNames: [String] { programmes.map(\.programme.name) }

    /// Asks `programme` (every programme when nil) to pause, resume or reset its integration; any thread may
    /// call it, and the analysis thread carries it out at its next poll. False when there is no such programme.
    @discardableResult
    public func request(_ command: LoudnessCommand, programme name: String? = nil) -> Bool {
        let chosen = programmes.filter { name == nil || $0.programme.name == name }
        for programme in chosen {
            switch command {
            case .pause: programme.pauseWanted.store(true, ordering: .releasing)
            case .resume: programme.pauseWanted.store(false, ordering: .releasing)
            case .reset: programme.resetWanted.store(true, ordering: .releasing)
            }
        }
        return !chosen.isEmpty
    }

    /// The least work (ports × frames) a chunk gives each worker it wakes: two ports of a 256-frame period.
    /// A port's share of a period is some 30 µs, about what waking a worker and switching to it costs, so
    /// `analyze` of a 60 s stereo file spread over two threads took 0.95 s against 0.74 s on one; with this
    /// its periods run on one thread (0.75 s). With two threads, 4 channels of pink noise took 1.37 s against
    /// 1.44 s on one, 8 channels 1.07 s against 1.42 s (1024 here, four ports a worker, gave 1.15 s), and
    /// live 64 to 192 ports need both cores (Benchmarks/capacity).
    static let portFramesPerWorker = 512

    /// Workers worth waking for `frames` frames of `ports` ports: one for every `portFramesPerWorker`
    /// port-frames. A chunk cut short by a tick counts as a whole 256-frame period: a hop's FFTs may still fall
    /// in it, on every port.
    static func workers(ports: Int, frames: Int) -> Int {
        max(1, min(ports, ports * max(frames, 256) / portFramesPerWorker))
    }

    /// Measures the `count` readable frames starting `offset` frames in, on every channel: sample peak and
    /// sum of squares (the tap's own kernel, without the copy), the broadcast meters sample by sample, the FFT
    /// history and the pitch and rhythm trackers; in the ring's (up to two) contiguous regions.
    /// Ports, programmes and pairs are independent of one another: they run in parallel, each on its own state.
    func measure(offset: Int, count: Int) {
        let (_, firstCount, _, secondCount) = tap.ring.readRegions(channel: 0, offset: offset, count: count)
        let regions = [(offset, firstCount), (offset + firstCount, secondCount)]
        let ports = tap.channels
        splitter.forEach(ports + programmes.count + pairs.count, heavyItems: Self.workers(ports: ports, frames: count)) { item in
            for (start, n) in regions where n > 0 {
                if item < ports {
                    let samples = tap.ring.readRegions(channel: item, offset: start, count: n).0
                    let measured = TapKernel.measure(samples, into: nil, count: n)
                    levels[item].add(peak: measured.peak, sumOfSquares: measured.sumOfSquares, frames: n)
                    portMeters[item].process(samples, count: n)
                    analyzers[item].track(samples, count: n)
                } else if item < ports + programmes.count {
                    programmes[item - ports].process(count: n) {
                        tap.ring.readRegions(channel: $0, offset: start, count: n).0
                    }
                } else {
                    let (pair, meter) = pairs[item - ports - programmes.count]
                    meter.process(left: tap.ring.readRegions(channel: pair.left, offset: start, count: n).0,
                                  right: tap.ring.readRegions(channel: pair.right, offset: start, count: n).0, count: n)
                }
            }
            if item < ports { analyzers[item].append(from: tap.ring, channel: item, offset: offset, count: count) }
        }
        collectEvents()
    }

    /// Moves the trackers' new onsets and beats into `outputs`, in time order per port.
    func collectEvents() {
        for c in 0..<analyzers.count {
            guard let rhythm = analyzers[c].rhythm else { continue }
            rhythm.takeOnsets(into: &onsetScratch)
            for onset in onsetScratch {
                outputs.append(.event(AnalysisEvent(
                    port: portNames[c], kind: .onset(strength: onset.strength), time: Double(onset.frame) / sampleRate,
                    reported: Double(onset.reportedFrame) / sampleRate)))
            }
            onsetScratch.removeAll(keepingCapacity: true)
            rhythm.takeBeats(into: &beatScratch)
            for beat in beatScratch {
                outputs.append(.event(AnalysisEvent(
                    port: portNames[c], kind: .beat(count: beat.count, bpm: beat.bpm, bar: .init(bar: beat.bar, beat: beat.beatInBar, beatsPerBar: beat.beatsPerBar)), time: Double(beat.frame) / sampleRate,
                    reported: Double(beat.reportedFrame) / sampleRate)))
            }
            beatScratch.removeAll(keepingCapacity: true)
        }
    }

    /// Drains the tap; returns a snapshot for every tick that came due, each measured on exactly the frames up
    /// to its instant (however many periods the analysis thread was woken late for, and whatever their size).
    ///
    /// The callback's "max since last read" peak covers every period, including any the ring had to drop:
    /// when periods were dropped, it is folded into the next tick's peak, so no peak is ever lost.
    public func poll() -> [Snapshot] {
        pollOutputs().compactMap { if case .snapshot(let s) = $0 { s } else { nil } }
    }

    /// Like `poll`, with the onset and beat events between the ticks, in the order they became known: an event
    /// comes out at the poll that analysed the frames revealing it, not at the next tick.
    public func pollOutputs() -> [AnalysisOutput] {
        outputs.removeAll(keepingCapacity: true)
        runFrames += tap.takeFrames()
        let dropped = tap.overruns != overrunsSeen
        overrunsSeen = tap.overruns
        for c in 0..<tap.channels {
            let peak = tap.takePeak(channel: c)
            _ = tap.takeSumOfSquares(channel: c)
            if dropped { levels[c].addDropped(peak: peak) }
        }
        if resetRequested.exchange(false, ordering: .acquiring) { resetMeters() }
        for programme in programmes { programme.applyRequests() }

        let readable = tap.ring.readableFrames()
        let available = frameLimit.map { min(readable, max($0 - position, 0)) } ?? readable
        var offset = 0
        while offset < available {
            let untilTick = max(Int((nextTick - Double(position)).rounded(.up)), 1)
            let n = min(available - offset, untilTick)
            measure(offset: offset, count: n)
            offset += n
            position += n
            if Double(position) >= nextTick {
                while nextTick <= Double(position) { nextTick += tickInterval }
                appendSnapshot(to: &outputs)
            }
        }
        // Past the limit the frames are dropped unread: the run is over.
        tap.ring.consume(readable)
        return outputs
    }

    /// At the end of a finite source: drains what is left (snapshots and events), with a last snapshot for the
    /// frames after the last tick (so a file shorter than one tick still gets a reading).
    public func finishOutputs() -> [AnalysisOutput] {
        var all = pollOutputs()
        if position > lastSnapshotPosition { appendSnapshot(to: &all) }
        return all + endAlarms()
    }

    /// An end for every alarm that is on: the engine is done (the end of a file, a restart), and a receiver must
    /// not be left with an alarm nobody will end.
    public func endAlarms() -> [AnalysisOutput] {
        let time = Double(position) / sampleRate
        var ends = [AnalysisOutput]()
        for programme in programmes {
            for kind in AlarmKind.allCases where programme.alarms.on.contains(kind) {
                ends.append(.event(AnalysisEvent(port: programme.programme.name, kind: .alarm(kind, on: false),
                                                 time: time, reported: time)))
            }
            programme.alarms.endAll()
        }
        return ends
    }

    /// A tick's snapshot, then the alarms it starts or ends (`--alarms`), at the tick's instant.
    func appendSnapshot(to outputs: inout [AnalysisOutput]) {
        let tick = snapshot()
        outputs.append(.snapshot(tick))
        for (programme, reading) in zip(programmes, tick.programmes) where !programme.alarms.settings.kinds.isEmpty {
            for (kind, on) in programme.alarms.update(time: tick.time, shortTerm: reading.shortTerm,
                                                      truePeakDB: programme.tickTruePeakDB, paused: reading.paused) {
                outputs.append(.event(AnalysisEvent(port: programme.programme.name, kind: .alarm(kind, on: on),
                                                    time: tick.time, reported: tick.time)))
            }
        }
    }

    func snapshot() -> Snapshot {
        var readings = [PortReading]()
        readings.reserveCapacity(portNames.count)
        let elapsed = Double(position - lastSnapshotPosition) / sampleRate
        // The FFTs, one per port, in parallel; the readings are then made in port order.
        spectralScratch.withUnsafeMutableBufferPointer { scratch in
            // A tick's FFT costs a port about what a period's analysis does: the same rule for waking workers.
            splitter.forEach(portNames.count, heavyItems: Self.workers(ports: portNames.count, frames: 256)) {
                scratch[$0] = analyzers[$0].readBands()
            }
        }
        for c in 0..<portNames.count {
            let rmsDB = Decibels.amplitude(levels[c].rms.rms)
            let peakDB = Decibels.amplitude(Double(levels[c].peakSinceTick))
            let analyzer = analyzers[c]
            let spectral = spectralScratch[c]
            readings.append(PortReading(
                name: portNames[c], peakDB: peakDB, rmsDB: rmsDB,
                level: Decibels.unit(rmsDB, low: config.levelFloorDB), bands: spectral.bands,
                pitch: analyzer.readPitch(), note: analyzer.pitch?.note,
                meters: portMeters[c].read(peakDB: peakDB, elapsed: elapsed),
                tempo: analyzer.rhythm?.tempo, phase: analyzer.rhythm?.phase(atFrame: position),
                bands4: spectral.bands4, bands7: spectral.bands7))
            levels[c].peakSinceTick = 0
        }
        lastSnapshotPosition = position
        for programme in programmes { programme.takeTruePeaks(readings) }
        return Snapshot(time: Double(position) / sampleRate, ports: readings, overruns: tap.overruns,
                        programmes: programmes.map(\.reading),
                        pairs: pairs.map { PairReading(name: $0.pair.name, correlation: $0.meter.read()) })
    }

    /// Figures over everything polled so far.
    public func summary() -> RunSummary {
        RunSummary(
            peakDB: levels.map { Decibels.amplitude(Double($0.runPeak)) },
            rmsDB: levels.map { runFrames > 0 ? Decibels.power($0.runSumOfSquares / Double(runFrames)) : Decibels.floor },
            names: portNames, frames: runFrames, sampleRate: sampleRate, overruns: tap.overruns,
            truePeakDB: portMeters.map { $0.truePeak == nil ? nil : Decibels.amplitude(Double($0.runTruePeak)) },
            clips: portMeters.map { $0.clip?.events },
            programmes: programmes.map(\.reading))
    }
}
