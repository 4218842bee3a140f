import DSP

/// One port's broadcast meters, fed every frame the ring delivers. They work sample by sample, so readings do
/// not depend on the JACK period size; `read` takes each meter's value since the previous tick.
final class PortMeters {
    let config: MeterConfig
    let sampleRate: Double
    let truePeak: TruePeakMeter?
    let vu: VUMeter?
    let ppm: PPMMeter?
    let k: KMeter?
    let clip: ClipCounter?
    var hold: PeakHold?
    var runTruePeak: Float = 0

    init(config: MeterConfig, sampleRate: Double) {
        self.config = config
        self.sampleRate = sampleRate
        let on = config.meters
        truePeak = on.contains(.truePeak) ? TruePeakMeter(sampleRate: sampleRate) : nil
        vu = on.contains(.vu) ? VUMeter(sampleRate: sampleRate) : nil
        ppm = on.contains(.ppm) ? PPMMeter(kind: config.ppmType == .typeI ? .typeI : .typeII, sampleRate: sampleRate) : nil
        k = on.contains(.k) ? KMeter(sampleRate: sampleRate) : nil
        clip = on.contains(.clip) ? ClipCounter(thresholdDB: config.clipThresholdDB) : nil
        hold = on.contains(.hold) ? PeakHold(holdSeconds: config.holdSeconds, fallDBPerSecond: config.fallDBPerSecond) : nil
    }

    func process(_ samples: UnsafePointer<Float>, count: Int) {
        truePeak?.process(samples, count: count)
        vu?.process(samples, count: count)
        ppm?.process(samples, count: count)
        k?.process(samples, count: count)
        clip?.process(samples, count: count)
    }

    /// The readings since the previous tick; `peakDB` is the tick's sample peak, `elapsed` the seconds since
    /// the previous tick (for the hold's fall).
    func read(peakDB: Float, elapsed: Double) -> MeterReading {
        var reading = MeterReading()
        if let truePeak {
            let linear = truePeak.read()
            runTruePeak = max(runTruePeak, linear)
            reading.truePeakDB = Decibels.amplitude(Double(linear))
        }
        if let vu { reading.vu = Decibels.amplitude(Double(vu.read())) - config.vuReferenceDB }
        if let ppm { reading.ppm = Decibels.amplitude(Double(ppm.read())) - config.ppmReferenceDB }
        if let k { reading.k = Decibels.amplitude(Double(k.read())) + config.kScale }
        if hold != nil { reading.holdDB = hold!.update(levelDB: peakDB, elapsedSeconds: elapsed) }
        if let clip { reading.clips = clip.events }
        return reading
    }

    /// Clears the holds, the clip count and the run's true peak (SIGUSR1, the view's `r`, OSC later).
    func reset() {
        hold?.reset()
        clip?.reset()
        runTruePeak = 0
    }
}
