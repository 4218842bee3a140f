import Analysis
import XCTest

/// A note that stops abruptly is not an onset: the end of a tone spreads leakage over every bin, which a log
/// spectral flux sees as a broadband rise, so before `SpectralFlux.riseIsStrong` and
/// `SpectralFlux.newestHopIsSilent` every such note gave two onsets (the sox sines and plucks of eval/ scored
/// F 0.67). Sines and plucks give exactly one onset per note, at its start.
final class NoteEndOnsetTests: XCTestCase {
    /// Asserts exactly one onset per note, each within 50 ms (the MIREX tolerance) of the note's start.
    private func assertOneOnsetPerNote(_ signal: [Float], starts: [Double], sampleRate rate: Double,
                                       _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let run = RhythmRun(signal, sampleRate: rate)
        let found = run.onsets.map { Double($0.frame) / rate }
        XCTAssertEqual(found.count, starts.count, "\(label): onsets at \(found)", file: file, line: line)
        for start in starts {
            XCTAssertTrue(found.contains { abs($0 - start) <= 0.050 }, "\(label): no onset at \(start) s in \(found)",
                          file: file, line: line)
        }
    }

    func testSinesThatStopAbruptlyGiveOneOnsetEachAtTheirStart() {
        // As eval/'s sines: 0.8 s tones, 0.2 s of silence between them, -1 dBFS, no fades.
        let frequencies = [55.0, 110, 220, 440, 880, 1_760, 3_520]
        let starts = frequencies.indices.map { 0.5 + Double($0) }
        for rate in [44_100.0, 48_000] {
            var signal = [Float](repeating: 0, count: Int((Double(frequencies.count) + 1) * rate))
            for (start, frequency) in zip(starts, frequencies) {
                let first = Int(start * rate)
                for i in 0..<Int(0.8 * rate) {
                    signal[first + i] = Float(0.89 * sin(2 * Double.pi * frequency * Double(i) / rate))
                }
            }
            assertOneOnsetPerNote(signal, starts: starts, sampleRate: rate, "sines at \(rate) Hz")
        }
    }

    func testPlucksCutOffMidDecayIntoSilenceGiveNoNoteEndOnsets() {
        // Plucked-string-like notes (8 harmonics at 1/k, decaying with a 0.3 s time constant) cut off
        // abruptly after 0.45 s (13 dB down), 0.15 s of silence between them, E2 to E5. Without the strong-rise
        // test every end gave an onset (16 for 8 notes); with it alone 4 of the 8 ends still passed, being
        // loud enough; the silence of the newest hop (`SpectralFlux.newestHopIsSilent`) removes the rest.
        let rate = 48_000.0
        let keys = [40, 47, 52, 57, 62, 67, 71, 76]
        let starts = keys.indices.map { 0.5 + 0.6 * Double($0) }
        var signal = [Float](repeating: 0, count: Int((starts.last! + 1) * rate))
        for (start, key) in zip(starts, keys) {
            let f0 = 440 * pow(2, Double(key - 69) / 12)
            let first = Int(start * rate)
            for i in 0..<Int(0.45 * rate) {
                let t = Double(i) / rate
                var sample = 0.0
                for k in 1...8 where Double(k) * f0 < rate / 2 { sample += sin(2 * Double.pi * Double(k) * f0 * t) / Double(k) }
                signal[first + i] = Float(0.3 * exp(-t / 0.3) * sample)
            }
        }
        let found = RhythmRun(signal, sampleRate: rate).onsets.map { Double($0.frame) / rate }
        for start in starts {
            XCTAssertTrue(found.contains { abs($0 - start) <= 0.050 }, "no onset at \(start) s in \(found)")
        }
        let ends = found.filter { time in !starts.contains { abs(time - $0) <= 0.050 } }
        XCTAssertEqual(ends, [], "note-end onsets")
    }
}
