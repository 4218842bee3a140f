import DSP
import XCTest

/// EBU Tech 3341 §2.4: a meter can pause the integration. While paused, integrated loudness, range and the maxima
/// ignore the audio; momentary and short-term keep showing it. Figures are the standard's: a stereo 1 kHz tone at
/// -20 dBFS per channel reads -20.0 LUFS (BS.1770-4's calibration, +0.007 at 1 kHz), and a steady tone has no
/// loudness range.
final class LoudnessPauseTests: XCTestCase {
    func testAPausedLoudBreakLeavesIntegratedRangeAndMaximaAsTheProgrammeAlone() {
        let meter = LoudnessMeter(sampleRate: 48_000, roles: [.left, .right])
        let programme = ToneBuilder.render([(8, -20)])
        let loudBreak = ToneBuilder.render([(5, -5)])
        feed(meter, [programme, programme], blockSize: 256)
        meter.pause()
        XCTAssertTrue(meter.isPaused)
        feed(meter, [loudBreak, loudBreak], blockSize: 256)
        assertReading(meter.momentary, -5 + 0.007, 0.01, "momentary keeps showing the break")
        assertReading(meter.shortTerm, -5 + 0.007, 0.01, "short-term keeps showing the break")
        assertReading(meter.integrated, -20 + 0.007, 0.01, "integrated ignores the break")
        assertReading(meter.maxMomentary, -20 + 0.007, 0.01, "max M ignores the break")
        assertReading(meter.maxShortTerm, -20 + 0.007, 0.01, "max S ignores the break")
        // Resumed on the programme again: the windows still hold the break's end for 3 s, and the maxima and
        // the statistics take only windows wholly after the resume.
        meter.resume()
        XCTAssertFalse(meter.isPaused)
        feed(meter, [programme, programme], blockSize: 100)
        assertReading(meter.integrated, -20 + 0.007, 0.01, "integrated over the two programme parts")
        XCTAssertEqual(meter.range, 0, accuracy: 0.05, "one steady level: no range, the break's tail is not in it")
        assertReading(meter.maxMomentary, -20 + 0.007, 0.01, "max M: no window holding the break counts")
        assertReading(meter.maxShortTerm, -20 + 0.007, 0.01, "max S: no window holding the break counts")
    }

    func testWithoutThePauseTheBreakCounts() {
        // The same audio unpaused: the test above would fail if pause did nothing.
        let meter = LoudnessMeter(sampleRate: 48_000, roles: [.left, .right])
        let audio = ToneBuilder.render([(8, -20), (5, -5), (8, -20)])
        feed(meter, [audio, audio], blockSize: 256)
        XCTAssertGreaterThan(meter.integrated, -15)
        assertReading(meter.maxMomentary, -5 + 0.007, 0.01, "max M")
    }

    func testAResetWhilePausedStaysPausedAndResumeIsIdempotent() {
        let meter = LoudnessMeter(sampleRate: 48_000, roles: [.left])
        let tone = ToneBuilder.render([(4, -20)])
        feed(meter, [tone], blockSize: 512)
        meter.pause()
        meter.reset()
        XCTAssertTrue(meter.isPaused)
        feed(meter, [tone], blockSize: 512)
        XCTAssertEqual(meter.integrated, Decibels.floor, "nothing measured while paused")
        meter.resume()
        meter.resume()
        feed(meter, [tone], blockSize: 512)
        assertReading(meter.integrated, -20 - 3.01 + 0.007, 0.01, "a mono -20 dBFS tone on the left alone")
    }
}
