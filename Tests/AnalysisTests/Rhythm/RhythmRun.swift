import Foundation
import Analysis

/// Everything a `RhythmTracker` reported over one signal.
struct RhythmRun {
    var onsets: [OnsetEvent] = []
    var beats: [BeatEvent] = []
    /// (stream frame, tempo) read after each chunk.
    var tempos: [(frame: Int, bpm: Float?)] = []

    /// Runs a fresh tracker over `signal` in chunks of `chunk` samples.
    init(_ signal: [Float], sampleRate: Double, config: RhythmConfig = RhythmConfig(), chunk: Int = 256) {
        let tracker = RhythmTracker(config: config, sampleRate: sampleRate)
        self.init(tracker, signal, chunk: chunk)
    }

    init(_ tracker: RhythmTracker, _ signal: [Float], chunk: Int) {
        signal.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let n = min(chunk, p.count - i)
                tracker.process(p.baseAddress! + i, count: n)
                i += n
                tracker.takeOnsets(into: &onsets)
                tracker.takeBeats(into: &beats)
                tempos.append((tracker.framesProcessed, tracker.tempo))
            }
        }
    }
}

/// The MIREX F-measure: each reference instant matches at most one estimate within `tolerance` seconds.
func fMeasure(reference: [Double], estimated: [Double], tolerance: Double) -> Double {
    guard !reference.isEmpty, !estimated.isEmpty else { return reference.isEmpty && estimated.isEmpty ? 1 : 0 }
    var used = [Bool](repeating: false, count: estimated.count)
    var hits = 0
    for r in reference {
        var best: Int?
        for (j, e) in estimated.enumerated() where !used[j] && abs(e - r) <= tolerance {
            if best == nil || abs(e - r) < abs(estimated[best!] - r) { best = j }
        }
        if let best { used[best] = true; hits += 1 }
    }
    let precision = Double(hits) / Double(estimated.count)
    let recall = Double(hits) / Double(reference.count)
    return hits == 0 ? 0 : 2 * precision * recall / (precision + recall)
}

/// Clicks: 2 ms decaying noise bursts at `times` seconds, -12 dBFS.
func clicks(at times: [Double], seconds: Double, sampleRate: Double) -> [Float] {
    var out = [Float](repeating: 0, count: Int(seconds * sampleRate))
    var seed: UInt32 = 12345
    for t in times {
        let start = Int((t * sampleRate).rounded())
        for i in 0..<Int(0.010 * sampleRate) where start + i < out.count {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = Float(Int32(bitPattern: seed)) / Float(Int32.max)
            out[start + i] += 0.25 * noise * expf(-Float(i) / Float(0.002 * sampleRate))
        }
    }
    return out
}
