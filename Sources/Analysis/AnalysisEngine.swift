import DSP

/// Turns what the tap produced into one `Snapshot` per tick: the analysis thread's whole job, and the same
/// code for a file as for live JACK input.
///
/// Ticks fall every sampleRate / rate frames of audio (not of wall-clock time), so a file analysed as fast as
/// the machine allows reports the same instants as the live stream. A poll makes at most one snapshot: when
/// the source's periods are longer than a tick, ticks follow the periods.
public final class AnalysisEngine {
    /// The sample rate of the source (JACK's or the file's), Hz.
    public let sampleRate: Double
    /// The port names used in snapshots.
    public let portNames: [String]
    let tap: Tap
    let config: AnalysisConfig
    let analyzers: [PortAnalyzer]
    var rms: [RMSWindow]
    var peakSinceTick: [Float]
    var runPeak: [Float]
    var runSumOfSquares: [Double]
    var runFrames = 0
    var position = 0
    var lastSnapshotPosition = 0
    var nextTick: Double
    let tickInterval: Double

    /// An engine reading `tap`, whose channels are named `portNames`, at the source's `sampleRate`.
    public init(tap: Tap, sampleRate: Double, portNames: [String], config: AnalysisConfig) {
        precondition(portNames.count == tap.channels, "one name per tapped channel")
        self.tap = tap
        self.sampleRate = sampleRate
        self.portNames = portNames
        self.config = config
        analyzers = portNames.map { _ in PortAnalyzer(config: config, sampleRate: sampleRate) }
        rms = portNames.map { _ in RMSWindow(windowFrames: Int((config.rmsWindow * sampleRate).rounded())) }
        peakSinceTick = Array(repeating: 0, count: portNames.count)
        runPeak = Array(repeating: 0, count: portNames.count)
        runSumOfSquares = Array(repeating: 0, count: portNames.count)
        tickInterval = sampleRate / config.rate
        nextTick = tickInterval
    }

    /// Drains the tap's meters and ring; returns a snapshot when a tick has come due.
    public func poll() -> Snapshot? {
        let frames = tap.takeFrames()
        for c in 0..<tap.channels {
            let peak = tap.takePeak(channel: c)
            let sum = tap.takeSumOfSquares(channel: c)
            peakSinceTick[c] = max(peakSinceTick[c], peak)
            runPeak[c] = max(runPeak[c], peak)
            runSumOfSquares[c] += sum
            rms[c].add(sumOfSquares: sum, frames: frames)
        }
        runFrames += frames

        let available = tap.ring.readableFrames()
        if available > 0 {
            for c in 0..<tap.channels {
                analyzers[c].append(from: tap.ring, channel: c, offset: 0, count: available)
            }
            tap.ring.consume(available)
            position += available
        }
        guard Double(position) >= nextTick, available > 0 else { return nil }
        while nextTick <= Double(position) { nextTick += tickInterval }
        return snapshot()
    }

    /// At the end of a finite source: drains what is left and returns a last snapshot for the frames after
    /// the last tick (so a file shorter than one tick still gets a reading).
    public func finish() -> Snapshot? {
        if let due = poll() { return due }
        return position > lastSnapshotPosition ? snapshot() : nil
    }

    func snapshot() -> Snapshot {
        var readings = [PortReading]()
        readings.reserveCapacity(portNames.count)
        for c in 0..<portNames.count {
            let rmsDB = Decibels.amplitude(rms[c].rms)
            let spectral = analyzers[c].read(rmsDB: rmsDB)
            readings.append(PortReading(
                name: portNames[c], peakDB: Decibels.amplitude(Double(peakSinceTick[c])), rmsDB: rmsDB,
                level: Decibels.unit(rmsDB, low: config.levelFloorDB), bands: spectral.bands,
                pitch: spectral.pitch, note: spectral.note))
            peakSinceTick[c] = 0
        }
        lastSnapshotPosition = position
        return Snapshot(time: Double(position) / sampleRate, ports: readings, overruns: tap.overruns)
    }

    /// Figures over everything polled so far.
    public func summary() -> RunSummary {
        RunSummary(
            peakDB: runPeak.map { Decibels.amplitude(Double($0)) },
            rmsDB: runSumOfSquares.map { runFrames > 0 ? Decibels.power($0 / Double(runFrames)) : Decibels.floor },
            names: portNames, frames: runFrames, sampleRate: sampleRate, overruns: tap.overruns)
    }
}
