@testable import Analysis
import AudioFile
import Foundation
import ToolSupport
import XCTest

/// MIDI beat clock on the tracker's beats: 24 clocks a beat with the first on the beat, Start on the first beat
/// after the lock and Stop once after the last clock, intervals that bend by at most a quarter when the beat
/// moves (no burst, no gap), and on a recorded loop through the whole analysis, every beat's first clock within
/// 5 ms of the beat jacktap announces.
final class MidiClockSchedulerTests: XCTestCase {
    typealias Event = MidiClockScheduler.Event

    /// Runs the scheduler as the analysis thread does, every `step` frames up to `frames`, looking `lead`
    /// ahead, with the grid `grid(now)` says.
    func schedule(frames: Int, step: Int = 256, lead: Double = 2_400, grid: (Int) -> BeatGrid?) -> [Event] {
        var scheduler = MidiClockScheduler()
        var events = [Event]()
        var now = 0
        while now < frames {
            scheduler.update(grid: grid(now), now: Double(now), horizon: Double(now) + lead, into: &events)
            now += step
        }
        return events
    }

    func clocks(_ events: [Event]) -> [Int] { events.filter { $0.message == .clock }.map(\.frame) }

    func testASteadyBeatGetsTwentyFourClocksABeatTheFirstOnEachBeat() {
        // 120 BPM at 48 kHz: a beat every 24,000 frames, the first at frame 1,000.
        let grid = BeatGrid(nextBeat: 1_000, period: 24_000)
        let events = schedule(frames: 480_000) { _ in grid }
        XCTAssertEqual(events.first, Event(frame: 1_000, message: .start))
        XCTAssertEqual(events.filter { $0.message == .start }.count, 1)
        XCTAssertFalse(events.contains { $0.message == .stop })
        let clocks = clocks(events)
        XCTAssertEqual(clocks.first, 1_000, "the first clock after Start is the first beat")
        for (k, frame) in clocks.enumerated() where k % 24 == 0 {
            XCTAssertEqual(frame, 1_000 + 24_000 * (k / 24), "clock \(k) starts beat \(k / 24)")
        }
        let intervals = zip(clocks, clocks.dropFirst()).map { $1 - $0 }
        XCTAssertTrue(intervals.allSatisfy { $0 == 1_000 }, "48 clocks per second: \(Set(intervals))")
    }

    func testNoBeatNoClock() {
        XCTAssertEqual(schedule(frames: 480_000) { _ in nil }, [])
    }

    func testLosingTheBeatSendsStopOnceAfterTheLastClockAndALockStartsAgain() {
        // Locked for 4 s, lost for 2 s, locked again.
        let grid = BeatGrid(nextBeat: 500, period: 24_000)
        let events = schedule(frames: 480_000) { now in now < 192_000 || now >= 288_000 ? grid : nil }
        let stops = events.indices.filter { events[$0].message == .stop }
        XCTAssertEqual(stops.count, 1)
        let stop = events[stops[0]]
        XCTAssertGreaterThan(stop.frame, clocks(Array(events[..<stops[0]])).last!)
        let starts = events.filter { $0.message == .start }
        XCTAssertEqual(starts.map(\.frame), [500, 288_500], "Start again on the first beat after the new lock")
        XCTAssertFalse(events.contains { $0.message == .clock && $0.frame > stop.frame && $0.frame < 288_500 })
    }

    func testALockRegainedWithinTheLeadStartsAfterTheStop() {
        // The grid is lost for one 256-frame update only: the Stop goes after the clocks already queued 2,400
        // frames ahead, and the new Start after the Stop, so the messages stay in frame order.
        let grid = BeatGrid(nextBeat: 500, period: 24_000)
        let events = schedule(frames: 120_000) { now in now == 48_128 ? nil : grid }
        let frames = events.map(\.frame)
        XCTAssertEqual(frames, frames.sorted(), "messages in frame order")
        let stop = try! XCTUnwrap(events.firstIndex { $0.message == .stop })
        let restart = try! XCTUnwrap(events.lastIndex { $0.message == .start })
        XCTAssertGreaterThan(restart, stop)
        XCTAssertGreaterThan(events[restart].frame, events[stop].frame)
    }

    func testAPhaseJumpAndATempoStepBendIntervalsByAQuarterAtMostAndTheClockCatchesUp() {
        // 100 BPM (28,800 frames a beat); at 3 s the beat moves 60 ms later; at 6 s the tempo steps to 130 BPM.
        let events = schedule(frames: 480_000) { now in
            if now < 144_000 { return BeatGrid(nextBeat: 0, period: 28_800) }
            if now < 288_000 { return BeatGrid(nextBeat: 2_880, period: 28_800) }
            return BeatGrid(nextBeat: 288_000, period: 48_000 * 60 / 130)
        }
        let clocks = clocks(events)
        let before = 28_800.0 / 24, after = 48_000.0 * 60 / 130 / 24
        for (a, b) in zip(clocks, clocks.dropFirst()) {
            let interval = Double(b - a)
            // Clocks queued before the step (up to the lead ahead) keep the old tempo's spacing.
            let bent = a < 288_000 - 2_400 ? abs(interval / before - 1)
                : min(abs(interval / before - 1), abs(interval / after - 1))
            XCTAssertLessThanOrEqual(bent, 0.25 + 1e-3, "interval \(interval) at frame \(a)")
        }
        // By the end every beat's first clock is on the new grid again.
        let lastBeats = clocks.enumerated().filter { $0.offset % 24 == 0 && $0.element > 400_000 }.map(\.element)
        XCTAssertGreaterThan(lastBeats.count, 2)
        let grid = BeatGrid(nextBeat: 288_000, period: 48_000 * 60 / 130)
        for frame in lastBeats { XCTAssertEqual(Double(frame), grid.beat(nearest: Double(frame)), accuracy: 1) }
    }

    func testSpeechStartsNoClockThoughTheTrackerLocksOntoItsSyllables() throws {
        // espeak-ng reading a paragraph twice (46 s): the tracker announces beats at syllable rate, but its
        // onsets never repeat at a bar of that tempo, so no grid is given to the clock.
        let path = Tool.temporaryPath("speech.wav")
        defer { unlink(path) }
        _ = try Tool.run("espeak-ng", ["-w", path, """
            Good evening and welcome. Tonight we are testing the beat tracker with speech, which has syllables \
            and pauses but no steady pulse at all. One, two, three, four. The quick brown fox jumps over the \
            lazy dog, again and again, while nobody keeps time.
            """])
        let reader = try SoundFileReader(path: path)
        let speech = readAll(reader)
        let rate = reader.sampleRate
        var scheduler = MidiClockScheduler()
        var events = [Event]()
        var grids = 0
        let run = analyseWithEvents([speech + speech + speech], sampleRate: rate, period: 256,
                                    config: AnalysisConfig()) { engine, _ in
            let now = Double(engine.analysedFrames)
            let grid = engine.beatGrid(port: 0)
            if grid != nil { grids += 1 }
            scheduler.update(grid: grid, now: now, horizon: now + 0.1 * rate, into: &events)
        }
        let beats = run.outputs.filter { if case .event(let e) = $0, case .beat = e.kind { true } else { false } }
        XCTAssertEqual(events, [], "no Start, no clock on speech (\(beats.count) beats announced, \(grids) polls with a grid)")
    }

    func testSpeechWhoseBarRepetitionTouchesThePulseForAMomentStartsNoClock() throws {
        // An announcement read three times over, behind the lengths of silence at which its bar repetition
        // crossed 0.4 on single frames (and, behind 0.75 s, at one announced beat): a pulse confirmed on one
        // frame clocked all four; confirmed at four beats in a row, none.
        let path = Tool.temporaryPath("announcement.wav")
        defer { unlink(path) }
        _ = try Tool.run("espeak-ng", ["-v", "en-us", "-s", "140", "-w", path, """
            Ladies and gentlemen, please take your seats. The performance will begin in five minutes. Mobile \
            phones should be switched off, and photography is not permitted during the show. Thank you, and \
            enjoy the evening.
            """])
        let reader = try SoundFileReader(path: path)
        let speech = readAll(reader)
        let rate = reader.sampleRate
        for silence in [0.0, 0.75, 1.0, 1.5] {
            var grids = 0
            let run = analyseWithEvents([[Float](repeating: 0, count: Int(silence * rate)) + speech + speech + speech],
                                        sampleRate: rate, period: 256, config: AnalysisConfig()) { engine, _ in
                if engine.beatGrid(port: 0) != nil { grids += 1 }
            }
            let beats = run.outputs.filter { if case .event(let e) = $0, case .beat = e.kind { true } else { false } }
            XCTAssertGreaterThan(beats.count, 20, "the tracker locked onto the syllables (behind \(silence) s)")
            XCTAssertEqual(grids, 0, "no beat grid for the clock behind \(silence) s of silence")
        }
    }

    func testOnARecordedLoopEveryBeatsFirstClockIsWithinFiveMillisecondsOfTheAnnouncedBeat() throws {
        // Sonic Pi's garzul loop (8 s, sixteen beats of 120 BPM), three times, through the whole analysis in
        // 256-frame periods; the clock driven after every poll, as the live analysis thread does.
        let reader = try SoundFileReader(path: "/usr/share/sonic-pi/samples/loop_garzul.flac")
        let loop = readAll(reader)
        let rate = reader.sampleRate
        var scheduler = MidiClockScheduler()
        var events = [Event]()
        let run = analyseWithEvents([Array([[Float]](repeating: loop, count: 3).joined())], sampleRate: rate,
                                    period: 256, config: AnalysisConfig()) { engine, _ in
            let now = Double(engine.analysedFrames)
            scheduler.update(grid: engine.beatGrid(port: 0), now: now, horizon: now + 0.1 * rate, into: &events)
        }
        let beats = run.outputs.compactMap { output -> Double? in
            guard case .event(let e) = output, case .beat = e.kind else { return nil }
            return e.time * rate
        }
        let start = try XCTUnwrap(events.firstIndex { $0.message == .start })
        let clocks = clocks(Array(events[start...]))
        let beatClocks = stride(from: 0, to: clocks.count, by: 24).map { Double(clocks[$0]) }
        // Every beat announced from the clock's start has a beat clock within 5 ms, and the reverse.
        let announced = beats.filter { $0 >= Double(events[start].frame) - 0.005 * rate }
        XCTAssertGreaterThan(announced.count, 30)
        for beat in announced.dropLast() {
            let nearest = beatClocks.min { abs($0 - beat) < abs($1 - beat) }!
            XCTAssertEqual(nearest / rate, beat / rate, accuracy: 0.005, "beat at \(beat / rate) s")
        }
        // Once the tracker holds the loop's tempo (after 8 s): 48 clocks per second within 0.5 %.
        let steady = clocks.filter { Double($0) > 8 * rate }
        let perSecond = Double(steady.count - 1) / (Double(steady.last! - steady.first!) / rate)
        XCTAssertEqual(perSecond, 48, accuracy: 48 * 0.005)
    }
}
