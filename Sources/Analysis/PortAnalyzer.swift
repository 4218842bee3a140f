import DSP
import Foundation

/// The analysis of one port: the newest FFT window of samples and the band levels made from it, the pitch
/// tracker and the rhythm tracker (onsets, tempo, beats). Everything is allocated in `init`; `append`, `track`,
/// `readBands` and `readPitch` only write into what exists.
final class PortAnalyzer {
    let config: AnalysisConfig
    let sampleRate: Double
    let spectrum: PowerSpectrum
    let layout: BandLayout
    /// Band groups for consoles: 4 bands with upper edges 100/250/3000/10000 Hz (bass, low-mid, mid, high, the
    /// split LedFx uses) and 7 log-spaced bands 63 Hz–16 kHz (the count of MagicQ's audio input).
    let layout4: BandLayout
    let layout7: BandLayout
    /// The trackers `--music` chose (nil: not run, nothing reported).
    let pitch: PitchTracker?
    let rhythm: RhythmTracker?
    /// The newest `fftSize` samples as a circular buffer; `unrolled` is the same, oldest first, for the FFT.
    var history: [Float]
    var unrolled: [Float]
    var writePosition = 0
    var bands: [Float]
    var bands4: [Float]
    var bands7: [Float]

    static let edges4 = [20.0, 100, 250, 3_000, 10_000]
    static let edges7 = (0...7).map { 63.0 * pow(16_000.0 / 63.0, Double($0) / 7) }

    /// The analysis of a port that runs the trackers `analyses` names.
    init(config: AnalysisConfig, sampleRate: Double, analyses: MusicSelection.Analyses) {
        self.config = config
        self.sampleRate = sampleRate
        spectrum = PowerSpectrum(size: config.fftSize)
        layout = BandLayout(count: config.bandCount, lowest: config.bandLowest, highest: config.bandHighest,
                            fftSize: config.fftSize, sampleRate: sampleRate)
        layout4 = BandLayout(edges: Self.edges4, fftSize: config.fftSize, sampleRate: sampleRate)
        layout7 = BandLayout(edges: Self.edges7, fftSize: config.fftSize, sampleRate: sampleRate)
        pitch = analyses.pitch ? PitchTracker(config: config.pitch, sampleRate: sampleRate) : nil
        rhythm = analyses.rhythm ? RhythmTracker(config: config.rhythm, sampleRate: sampleRate) : nil
        history = Array(repeating: 0, count: config.fftSize)
        unrolled = Array(repeating: 0, count: config.fftSize)
        bands = Array(repeating: 0, count: layout.count)
        bands4 = Array(repeating: 0, count: layout4.count)
        bands7 = Array(repeating: 0, count: layout7.count)
    }

    /// Runs the pitch and rhythm trackers over `count` consecutive samples of this port.
    func track(_ samples: UnsafePointer<Float>, count: Int) {
        pitch?.process(samples, count: count)
        rhythm?.process(samples, count: count)
    }

    /// Takes `count` frames of this port's channel out of `ring`, starting `offset` frames in.
    func append(from ring: PlanarRing, channel: Int, offset: Int, count: Int) {
        let size = history.count
        var taken = 0
        // Only the newest `size` frames can matter.
        if count > size { taken = count - size }
        history.withUnsafeMutableBufferPointer { h in
            while taken < count {
                let piece = min(count - taken, size - writePosition)
                ring.peek(channel: channel, offset: offset + taken, count: piece, into: h.baseAddress! + writePosition)
                writePosition = (writePosition + piece) % size
                taken += piece
            }
        }
    }

    /// The band levels of the current window (full list, 4 and 7 groups), 0…1.
    func readBands() -> (bands: [Float], bands4: [Float], bands7: [Float]) {
        let size = history.count
        unrolled.withUnsafeMutableBufferPointer { u in
            history.withUnsafeBufferPointer { h in
                let tail = size - writePosition
                u.baseAddress!.update(from: h.baseAddress! + writePosition, count: tail)
                (u.baseAddress! + tail).update(from: h.baseAddress!, count: writePosition)
            }
            spectrum.compute(u.baseAddress!)
        }
        layout.levels(of: spectrum.power, floorDB: config.bandFloorDB, into: &bands)
        layout4.levels(of: spectrum.power, floorDB: config.bandFloorDB, into: &bands4)
        layout7.levels(of: spectrum.power, floorDB: config.bandFloorDB, into: &bands7)
        return (bands, bands4, bands7)
    }

    /// The newest pitch estimate as a reading (nil before the first estimate and in silence).
    func readPitch() -> PitchReading? {
        guard let estimate = pitch?.latest, estimate.frequency > 0 else { return nil }
        return PitchReading(frequency: estimate.frequency, confidence: estimate.confidence, voiced: estimate.voiced,
                            time: Double(estimate.centreFrame) / sampleRate)
    }
}
