import DSP

/// The analysis of one port: the newest FFT window of samples, and the spectral readings made from it.
/// Everything is allocated in `init`; `append` and `read` only write into what exists.
final class PortAnalyzer {
    let config: AnalysisConfig
    let sampleRate: Double
    let spectrum: PowerSpectrum
    let layout: BandLayout
    /// The newest `fftSize` samples as a circular buffer; `unrolled` is the same, oldest first, for the FFT.
    var history: [Float]
    var unrolled: [Float]
    var writePosition = 0
    var bands: [Float]

    init(config: AnalysisConfig, sampleRate: Double) {
        self.config = config
        self.sampleRate = sampleRate
        spectrum = PowerSpectrum(size: config.fftSize)
        layout = BandLayout(count: config.bandCount, lowest: config.bandLowest, highest: config.bandHighest,
                            fftSize: config.fftSize, sampleRate: sampleRate)
        history = Array(repeating: 0, count: config.fftSize)
        unrolled = Array(repeating: 0, count: config.fftSize)
        bands = Array(repeating: 0, count: layout.count)
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

    /// The spectral readings of the current window.
    func read(rmsDB: Float) -> (bands: [Float], pitch: DominantFrequency?, note: MusicalNote?) {
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
        let pitch = DominantFrequency(spectrum: spectrum, sampleRate: sampleRate, lowest: config.pitchLowest,
                                      highest: config.pitchHighest)
        var note: MusicalNote?
        if let pitch, pitch.confidence >= config.noteMinimumConfidence, rmsDB >= config.noteMinimumLevelDB {
            note = MusicalNote(frequency: pitch.frequency, a4: config.a4)
        }
        return (bands, rmsDB > Decibels.floor ? pitch : nil, note)
    }
}
