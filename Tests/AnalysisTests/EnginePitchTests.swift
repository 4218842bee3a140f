import Analysis
import AudioFile
import ToolSupport
import DSP
import XCTest

final class EnginePitchTests: XCTestCase {
    func testA440ReadsA4WithinOneHertzAtEveryCommonRate() {
        for rate in [44_100.0, 48_000, 96_000] {
            let result = analyse([sine(440, sampleRate: rate)], sampleRate: rate)
            let last = result.snapshots.last!.ports[0]
            XCTAssertEqual(last.pitch!.frequency, 440, accuracy: 1, "at \(rate) Hz")
            XCTAssertGreaterThan(last.pitch!.confidence, 0.9)
            XCTAssertEqual(last.note?.name, "A4", "at \(rate) Hz")
            XCTAssertEqual(last.note?.midi, 69)
            XCTAssertEqual(last.note!.cents, 0, accuracy: 4)
        }
    }

    func testSubBinInterpolationBeatsRawBinPicking() {
        // 443.9 Hz sits near half a bin from a bin centre at 96 kHz / 4096 (23.4 Hz bins): raw picking is ~12 Hz off.
        let rate = 96_000.0
        let reading = analyse([sine(443.9, sampleRate: rate)], sampleRate: rate).snapshots.last!.ports[0]
        XCTAssertEqual(reading.pitch!.frequency, 443.9, accuracy: 1)
    }

    func testChromaticScaleC4ToB4IsNamedNoteByNote() {
        let names = ["C4", "C#4", "D4", "D#4", "E4", "F4", "F#4", "G4", "G#4", "A4", "A#4", "B4"]
        for rate in [44_100.0, 48_000] {
            for (i, name) in names.enumerated() {
                let f = MusicalNote.frequency(midi: 60 + i)
                let reading = analyse([sine(f, seconds: 0.5, sampleRate: rate)], sampleRate: rate).snapshots.last!.ports[0]
                XCTAssertEqual(reading.note?.name, name, "\(f) Hz at \(rate)")
                XCTAssertEqual(reading.note!.cents, 0, accuracy: 5)
            }
        }
    }

    func testTheRateComesFromTheSourceAndAWrongRateDoesNotPassSilently() throws {
        // A 44.1 kHz file: the reader reports its rate, and the engine built from it names A4.
        let path = NSTemporaryDirectory() + "jacktap-a440-44k1-\(getpid()).wav"
        defer { unlink(path) }
        try Tool.run("sox", ["-n", "-r", "44100", "-b", "24", path, "synth", "1", "sine", "440", "gain", "-6.02"])
        let reader = try SoundFileReader(path: path)
        XCTAssertEqual(reader.sampleRate, 44_100)
        let samples = readAll(reader)
        let right = analyse([samples], sampleRate: reader.sampleRate).snapshots.last!.ports[0]
        XCTAssertEqual(right.note?.name, "A4")
        // The same samples told 48 kHz read 479 Hz: a constant rate would be caught, not pass silently.
        let wrong = analyse([samples], sampleRate: 48_000).snapshots.last!.ports[0]
        XCTAssertEqual(wrong.pitch!.frequency, 440 * 48_000 / 44_100, accuracy: 1)
        XCTAssertNotEqual(wrong.note?.name, "A4")
    }

    func testSilenceHasNoNoteAndBandsStayWithinZeroToOne() {
        let result = analyse([[Float](repeating: 0, count: 48_000)], sampleRate: 48_000)
        XCTAssertFalse(result.snapshots.isEmpty)
        for snapshot in result.snapshots {
            let p = snapshot.ports[0]
            XCTAssertNil(p.note)
            XCTAssertNil(p.pitch)
            XCTAssertEqual(p.peakDB, -200)
            XCTAssertEqual(p.rmsDB, -200)
            XCTAssertEqual(p.bands.count, 48)
            XCTAssertTrue(p.bands.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    func testNoiseIsNotNamedAsANote() {
        var g = UInt32(7)
        let noise = (0..<48_000).map { _ -> Float in
            g = g &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: g)) / Float(Int32.max) * 0.3
        }
        let result = analyse([noise], sampleRate: 48_000)
        XCTAssertTrue(result.snapshots.dropFirst(3).allSatisfy { $0.ports[0].note == nil })
    }

    func testABufferShorterThanTheWindowStillGetsAReading() {
        // 3,000 frames: less than the 4,096-sample FFT window, a little more than the 2,400-sample pitch window
        // (two periods of the 40 Hz minimum), under two ticks.
        let result = analyse([sine(440, seconds: 3_000 / 48_000, sampleRate: 48_000)], sampleRate: 48_000)
        XCTAssertFalse(result.snapshots.isEmpty)
        let last = result.snapshots.last!.ports[0]
        XCTAssertEqual(last.note?.name, "A4")
        XCTAssertEqual(last.peakDB, -6.02, accuracy: 0.05)
    }
}
