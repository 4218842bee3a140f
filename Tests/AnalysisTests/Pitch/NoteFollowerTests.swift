@testable import Analysis
import AudioFile
import Foundation
import ToolSupport
import XCTest

/// MIDI notes from the pitch tracker: a voiced note sounds only after an onset, a legato change moves the note
/// without one, an onset that begins another note does not strike the old one again, a repeated note is
/// struck again, velocity follows the level; and on five plucked notes through the whole analysis, five note
/// ons with the right numbers, each ended before the next.
final class NoteFollowerTests: XCTestCase {
    typealias Event = NoteFollower.Event

    func testAVoicedNoteSoundsOnlyAfterAnOnsetAndEndsWhenUnvoiced() {
        var follower = NoteFollower(sampleRate: 48_000)
        var events = [Event]()
        follower.update(note: 60, levelDB: -12, onset: nil, frame: 1_000, into: &events)
        XCTAssertEqual(events, [], "voiced without an attack: a partial, a tail, a hum")
        follower.update(note: 60, levelDB: -12, onset: 1_100, frame: 1_200, into: &events)
        follower.update(note: 60, levelDB: -12, onset: nil, frame: 2_000, into: &events)
        XCTAssertEqual(events, [Event(frame: 2_000, kind: .on, note: 60, velocity: 102)],
                       "once shown for 20 ms (960 frames), within 150 ms of the onset")
        follower.update(note: nil, levelDB: -50, onset: nil, frame: 30_000, into: &events)
        XCTAssertEqual(events.last, Event(frame: 30_000, kind: .off, note: 60, velocity: 0), "unvoiced ends it at once")
        XCTAssertEqual(events.map(\.bytes), [[0x90, 60, 102], [0x80, 60, 0]])
    }

    /// Feeds `note` every 256 frames from `from` to `to`.
    func hold(_ follower: inout NoteFollower, _ note: Int?, from: Int, to: Int, onsetAt: Int? = nil,
              levelDB: Double = -20, into events: inout [Event]) {
        var frame = from
        while frame < to {
            let onset = onsetAt.flatMap { $0 >= frame - 256 && $0 < frame ? $0 : nil }
            follower.update(note: note, levelDB: levelDB, onset: onset, frame: frame, into: &events)
            frame += 256
        }
    }

    func testALegatoChangeMovesTheNoteAndAnOnsetOfANewNoteDoesNotStrikeTheOldOne() {
        var follower = NoteFollower(sampleRate: 48_000)
        var events = [Event]()
        hold(&follower, 60, from: 256, to: 20_000, onsetAt: 200, into: &events)
        // Slurred to 62 without an attack; then 64 is attacked: the onset comes while the tracker still
        // shows 62, and 64 some 25 ms later.
        hold(&follower, 62, from: 20_000, to: 41_200, onsetAt: 40_000, into: &events)
        hold(&follower, 64, from: 41_200, to: 60_000, into: &events)
        XCTAssertEqual(events.map { "\($0.kind) \($0.note)" }, ["on 60", "off 60", "on 62", "off 62", "on 64"])
    }

    func testANoteShownForLessThanTheSettlingTimeIsNotPlayed() {
        var follower = NoteFollower(sampleRate: 48_000)
        var events = [Event]()
        hold(&follower, 67, from: 256, to: 20_000, onsetAt: 200, into: &events)
        // Across the next attack the tracker reads C3 for 10 ms, then C5.
        hold(&follower, 48, from: 20_000, to: 20_480, onsetAt: 19_900, into: &events)
        hold(&follower, 72, from: 20_480, to: 40_000, into: &events)
        XCTAssertEqual(events.map { "\($0.kind) \($0.note)" }, ["on 67", "off 67", "on 72"])
    }

    func testARepeatedNoteIsStruckAgain() {
        var follower = NoteFollower(sampleRate: 48_000)
        var events = [Event]()
        hold(&follower, 67, from: 256, to: 24_064, onsetAt: 100, into: &events)
        follower.update(note: 67, levelDB: -10, onset: 24_000, frame: 24_064, into: &events)
        XCTAssertEqual(events.count, 1, "not before the repeat delay")
        hold(&follower, 67, from: 24_320, to: 24_064 + Int(NoteFollower.repeatDelay * 48_000) + 256, levelDB: -10,
             into: &events)
        XCTAssertEqual(events.map { "\($0.kind) \($0.note)" }, ["on 67", "off 67", "on 67"])
        XCTAssertEqual(events.last?.velocity, 106, "-10 dBFS: 1 + 126 · 50/60")
    }

    func testANoteOffNeverGoesBeforeItsNoteOn() {
        // The live loop stamps a note on a period ahead of the analysis, and a release (the run ends, the rate
        // changes) at the analysis itself: the note off still comes at or after the note on.
        var follower = NoteFollower(sampleRate: 48_000)
        var events = [Event]()
        hold(&follower, 60, from: 256, to: 2_000, onsetAt: 200, into: &events)
        let on = try! XCTUnwrap(events.last)
        follower.release(frame: on.frame - 256, into: &events)
        XCTAssertEqual(events.last?.kind, .off)
        XCTAssertEqual(events.last?.frame, on.frame)
    }

    func testVelocityIsLinearInDecibelsFromMinusSixtyToZero() {
        XCTAssertEqual(NoteFollower.velocity(levelDB: -200), 1)
        XCTAssertEqual(NoteFollower.velocity(levelDB: -60), 1)
        XCTAssertEqual(NoteFollower.velocity(levelDB: -30), 64)
        XCTAssertEqual(NoteFollower.velocity(levelDB: 0), 127)
        XCTAssertEqual(NoteFollower.velocity(levelDB: 6), 127)
    }

    func testFivePluckedNotesThroughTheWholeAnalysisGiveFiveNoteOnsWithTheirNumbers() throws {
        // sox's plucked strings: C4, E4, G4, G4 again, C5, 0.4 s each (the last 0.6 s).
        let path = Tool.temporaryPath("plucks.wav")
        defer { unlink(path) }
        _ = try Tool.run("sox", ["-n", "-r", "48000", "-c", "1", path, "synth", "0.4", "pluck", "C4", ":", "synth", "0.4",
                                 "pluck", "E4", ":", "synth", "0.4", "pluck", "G4", ":", "synth", "0.4", "pluck", "G4",
                                 ":", "synth", "0.6", "pluck", "C5"])
        let reader = try SoundFileReader(path: path)
        var follower = NoteFollower(sampleRate: 48_000)
        var events = [Event]()
        _ = analyseWithEvents([readAll(reader)], sampleRate: 48_000, period: 256, config: AnalysisConfig()) { engine, outputs in
            let held = engine.heldNote(port: 0)
            follower.update(note: held.midi, levelDB: held.levelDB,
                            onset: NoteFollower.onsetFrame(in: outputs, port: "in_1", sampleRate: 48_000),
                            frame: engine.analysedFrames, into: &events)
        }
        let ons = events.filter { $0.kind == .on }
        XCTAssertEqual(ons.map(\.note), [60, 64, 67, 67, 72])
        // Each within 80 ms after its pluck (the pitch window's 50 ms, the settling 20 ms; the repeated G4 its
        // repeat delay later), each note off before the next note on.
        for (k, on) in ons.enumerated() {
            let delay = Double(on.frame) / 48_000 - 0.4 * Double(k) - (k == 3 ? NoteFollower.repeatDelay : 0)
            XCTAssertTrue((0...0.08).contains(delay), "note \(k) \(delay) s after its pluck")
        }
        var sounding: Int?
        for event in events {
            if event.kind == .on { XCTAssertNil(sounding, "a note on while \(sounding ?? -1) sounds"); sounding = event.note }
            else { XCTAssertEqual(sounding, event.note); sounding = nil }
        }
    }
}
