import Analysis
import DSP
import ToolSupport
import XCTest

/// The engine's events and per-tick rhythm readings: beats predicted on the grid, in stream order with the
/// ticks, onsets reported after they happen, tempo and phase in every tick once locked.
final class EngineRhythmTests: XCTestCase {
    func beats(_ outputs: [AnalysisOutput]) -> [AnalysisEvent] {
        outputs.compactMap { if case .event(let e) = $0, case .beat = e.kind { e } else { nil } }
    }

    func testA120BPMLoopGivesBeatsOnTheGridAnnouncedBeforeTheyHappen() {
        let loop = DrumLoop(bpm: 120, sampleRate: 48_000, seconds: 12)
        let outputs = analyseOutputs([loop.render()], sampleRate: 48_000)
        let found = beats(outputs)
        XCTAssertGreaterThan(found.count, 15)
        for event in found {
            XCTAssertEqual(event.port, "in_1")
            XCTAssertLessThanOrEqual(event.reported, event.time, "a beat is predicted, not detected late")
            guard case .beat(_, let bpm, _) = event.kind else { continue }
            XCTAssertEqual(Double(bpm), 120, accuracy: 120 * 0.04)
        }
        // From 2 s on (the lock bar), every predicted beat lies within ±70 ms of the true grid (which goes on
        // past the file's end: a beat predicted for the instant the file stops is still on it).
        let period = 60.0 / loop.bpm
        for event in found where event.time > 2.5 {
            let nearest = loop.firstBeat + ((event.time - loop.firstBeat) / period).rounded() * period
            XCTAssertEqual(event.time, nearest, accuracy: 0.07, "beat at \(event.time)")
        }
        let counts = found.compactMap { if case .beat(let count, _, _) = $0.kind { count } else { nil } }
        XCTAssertEqual(counts, Array(counts.first!..<(counts.first! + counts.count)), "the counter goes up by one")
    }

    func testEventsComeOutInStreamOrderBetweenTheTicks() {
        let loop = DrumLoop(bpm: 128, sampleRate: 44_100, seconds: 6)
        let outputs = analyseOutputs([loop.render()], sampleRate: 44_100, period: 1_024)
        var lastTick = 0.0
        var onsets = 0
        for output in outputs {
            switch output {
            case .snapshot(let s): lastTick = s.time
            case .event(let e):
                // An event is published at the poll that analysed the frames revealing it: never after a tick
                // later than the moment it was known (one tick at 30 per second).
                XCTAssertGreaterThanOrEqual(e.reported, lastTick - 1e-9)
                XCTAssertLessThan(e.reported - lastTick, 1.0 / 30 + 1e-6)
                if case .onset = e.kind {
                    onsets += 1
                    XCTAssertGreaterThanOrEqual(e.reported, e.time, "an onset is reported after it starts")
                }
            }
        }
        XCTAssertGreaterThan(onsets, 20, "eighth-note hats for 6 s")
    }

    func testTempoAndPhaseArriveInTheTicksOnceLocked() {
        let loop = DrumLoop(bpm: 140, sampleRate: 96_000, seconds: 8)
        let ticks = analyse([loop.render()], sampleRate: 96_000).snapshots
        XCTAssertNil(ticks.first!.ports[0].tempo, "no tempo before any beat")
        let late = ticks.filter { $0.time > 4 }.map { $0.ports[0] }
        XCTAssertTrue(late.allSatisfy { abs(Double($0.tempo ?? 0) - 140) <= 140 * 0.04 }, "\(late.map(\.tempo))")
        XCTAssertTrue(late.allSatisfy { ($0.phase ?? -1) >= 0 && ($0.phase ?? 1) < 1 })
        // The phase at each tick is the tick's distance past the last true beat, in beats (±70 ms ≈ ±0.17 beat).
        let period = 60.0 / 140
        for tick in ticks.filter({ $0.time > 4 }) {
            let expected = ((tick.time - loop.firstBeat) / period).truncatingRemainder(dividingBy: 1)
            let error = abs(Double(tick.ports[0].phase!) - expected)
            XCTAssertLessThan(min(error, 1 - error), 0.17, "phase at \(tick.time)")
        }
    }

    func testSilenceHasNoEventsTempoOrPitch() {
        let outputs = analyseOutputs([[Float](repeating: 0, count: 96_000)], sampleRate: 48_000)
        XCTAssertTrue(beats(outputs).isEmpty)
        for case .snapshot(let s) in outputs {
            XCTAssertNil(s.ports[0].tempo)
            XCTAssertNil(s.ports[0].pitch)
        }
        XCTAssertFalse(outputs.contains { if case .event = $0 { true } else { false } })
    }

    func testBandGroupsPutEachToneInItsGroup() {
        // Upper edges 100/250/3000/10000 Hz: 60 Hz is bass, 180 low-mid, 1 kHz mid, 5 kHz high.
        for (frequency, loudest) in [(60.0, 0), (180.0, 1), (1_000.0, 2), (5_000.0, 3)] {
            let port = analyse([sine(frequency, sampleRate: 48_000)], sampleRate: 48_000).snapshots.last!.ports[0]
            XCTAssertEqual(port.bands4.count, 4)
            XCTAssertEqual(port.bands4.indices.max { port.bands4[$0] < port.bands4[$1] }, loudest, "\(frequency) Hz")
            XCTAssertEqual(port.bands7.count, 7)
        }
        // Seven log-spaced bands 63 Hz–16 kHz: 1 kHz lies in band 3 (edges 63·(16000/63)^(i/7)).
        let port = analyse([sine(1_000, sampleRate: 48_000)], sampleRate: 48_000).snapshots.last!.ports[0]
        XCTAssertEqual(port.bands7.indices.max { port.bands7[$0] < port.bands7[$1] }, 3)
    }

    func testTrackersLeftOutReportNothing() {
        let loop = DrumLoop(bpm: 120, sampleRate: 48_000, seconds: 6).render()
        let tone = sine(440, seconds: 6, sampleRate: 48_000)
        let mixed = zip(loop, tone).map { $0 + $1 }
        var config = AnalysisConfig()
        config.rhythmEnabled = false
        let noRhythm = analyseOutputs([mixed], sampleRate: 48_000, config: config)
        XCTAssertFalse(noRhythm.contains { if case .event = $0 { true } else { false } })
        XCTAssertTrue(noRhythm.contains { if case .snapshot(let s) = $0 { s.ports[0].pitch != nil } else { false } })
        config = AnalysisConfig()
        config.pitchEnabled = false
        let noPitch = analyseOutputs([mixed], sampleRate: 48_000, config: config)
        XCTAssertFalse(noPitch.contains { if case .snapshot(let s) = $0 { s.ports[0].pitch != nil || s.ports[0].note != nil } else { false } })
        XCTAssertFalse(beats(noPitch).isEmpty, "the beat tracker still runs")
    }
}
