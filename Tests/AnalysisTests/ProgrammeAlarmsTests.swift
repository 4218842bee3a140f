@testable import Analysis
import XCTest

/// A programme's alarms, tick by tick in audio time: silence after `--silence` seconds under -60 LUFS short-term,
/// over target with its hysteresis, a true peak held a second.
final class ProgrammeAlarmsTests: XCTestCase {
    let tick = 1.0 / 30

    /// Runs `ticks` (short-term LUFS, true peak dBTP) from time 0; the alarm changes with their times.
    func changes(_ settings: AlarmSettings, _ ticks: [(Float, Float?)]) -> [(Double, AlarmKind, Bool)] {
        var alarms = ProgrammeAlarms(settings: settings)
        var out = [(Double, AlarmKind, Bool)]()
        for (i, (shortTerm, truePeak)) in ticks.enumerated() {
            let time = Double(i + 1) * tick
            out += alarms.update(time: time, shortTerm: shortTerm, truePeakDB: truePeak).map { (time, $0.0, $0.1) }
        }
        return out
    }

    func testSilenceStartsAfterItsSecondsUnderMinus60AndEndsAtTheFirstTickAbove() {
        // 1 s of programme, 5 s of dead air, then programme again.
        let ticks = Array(repeating: (Float(-23), Float?.none), count: 30)
            + Array(repeating: (Float(-200), Float?.none), count: 150) + [(-59.9, nil)]
        let seen = changes(AlarmSettings(kinds: [.silence], silenceSeconds: 4), ticks)
        XCTAssertEqual(seen.map(\.1), [.silence, .silence])
        XCTAssertEqual(seen.map(\.2), [true, false])
        XCTAssertEqual(seen[0].0, 31 * tick + 4, accuracy: 1e-9, "4 s after the first tick under -60")
        XCTAssertEqual(seen[1].0, 181 * tick, accuracy: 1e-9)
        XCTAssertTrue(changes(AlarmSettings(kinds: [.silence], silenceSeconds: 6), ticks).isEmpty,
                      "5 s of dead air is no 6 s silence")
        XCTAssertTrue(changes(AlarmSettings(kinds: [.overTarget, .truePeak], silenceSeconds: 4), ticks).isEmpty,
                      "only the alarms asked for")
    }

    func testOverTargetEndsHalfALoudnessUnitUnderTheLimit() {
        // EBU R128: -23 ± 1 → the limit is -22.
        let levels: [Float] = [-23, -22, -21.9, -22, -22.4, -22.6, -21]
        let seen = changes(AlarmSettings(kinds: [.overTarget]), levels.map { ($0, nil) })
        XCTAssertEqual(seen.map { Int(($0.0 / tick).rounded()) }, [3, 6, 7])
        XCTAssertEqual(seen.map(\.2), [true, false, true])
        let streaming = changes(AlarmSettings(kinds: [.overTarget], target: LoudnessTarget(lufs: -16, toleranceLU: 1)),
                                levels.map { ($0, nil) })
        XCTAssertTrue(streaming.isEmpty, "a streaming target of -16 ± 1 allows all of these")
    }

    func testATruePeakOverIsHeldASecondAfterTheLast() {
        var ticks = [(Float(-23), Float?(-3)), (-23, -0.5), (-23, -3)]
        ticks += Array(repeating: (Float(-23), Float?(-1)), count: 40)  // exactly -1 is not over it
        let seen = changes(AlarmSettings(kinds: [.truePeak]), ticks)
        XCTAssertEqual(seen.map(\.2), [true, false])
        XCTAssertEqual(seen[0].0, 2 * tick, accuracy: 1e-9)
        XCTAssertEqual(seen[1].0, 32 * tick, accuracy: 1e-9, "a second after the over")
        XCTAssertTrue(changes(AlarmSettings(kinds: [.truePeak]), [(-23, nil), (-23, nil)]).isEmpty,
                      "no true-peak meter, no true-peak alarm")
    }

    func testAPausedProgrammeRaisesNoSilenceOrOverTargetButATruePeakCounts() {
        var alarms = ProgrammeAlarms(settings: AlarmSettings(kinds: Set(AlarmKind.allCases), silenceSeconds: 1))
        var seen = [(AlarmKind, Bool)]()
        for i in 1...90 {
            // A paused break: dead air, then a jingle over the target with an over.
            let time = Double(i) * tick
            seen += alarms.update(time: time, shortTerm: i < 60 ? -200 : -10, truePeakDB: i == 70 ? 0 : -20, paused: true)
        }
        XCTAssertEqual(seen.map(\.0), [.truePeak])
        seen = alarms.update(time: 91 * tick, shortTerm: -10, truePeakDB: -20, paused: false)
        XCTAssertEqual(seen.map(\.0), [.overTarget], "resumed over the target: now it counts")
        alarms.endAll()
        XCTAssertTrue(alarms.on.isEmpty)
    }
}
