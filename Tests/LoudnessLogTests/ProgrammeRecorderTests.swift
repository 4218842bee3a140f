import Analysis
import LoudnessLog
import XCTest

/// A programme's log rows come once a second of audio, and a report ends each measurement: at a reset, at a
/// restart of the analysis and at the end, with the paused time counted.
final class ProgrammeRecorderTests: XCTestCase {
    func tick(_ time: Double, integrated: Float = -23, paused: Bool = false, resets: Int = 0) -> Snapshot {
        var reading = ProgrammeReading(name: "main", momentary: -20, shortTerm: -21, integrated: integrated, range: 3,
                                       maxMomentary: -18, maxShortTerm: -19)
        reading.paused = paused
        reading.resets = resets
        reading.maxTruePeakDB = -2
        return Snapshot(time: time, ports: [], overruns: 0, programmes: [reading])
    }

    func testARowEverySecondOfAudioAndAReportAtEachReset() {
        let recorder = ProgrammeRecorder(client: "studio", target: .ebuR128)
        var rows = [ProgrammeRecorder.Row]()
        var reports = [ProgrammeReport]()
        // 30 ticks a second for 5 s; paused from 2 s to 3 s; reset at 4 s.
        for i in 1...150 {
            let t = Double(i) / 30
            let taken = recorder.take(tick(t, integrated: t < 4 ? -23.4 : -30, paused: t > 2 && t <= 3,
                                           resets: t < 4 ? 0 : 1), wall: 1_000 + t)
            rows += taken.rows
            reports += taken.reports
        }
        reports += recorder.finish(reason: "exit")
        // The first measurement ends at the tick before the reset (3.967 s), short of its fourth second; the
        // second starts there, so its first second is at 4.967 s.
        XCTAssertEqual(rows.map(\.second), [1, 2, 3, 1], "every second of each measurement, from its start")
        XCTAssertEqual(rows.map { (($0.wall! - 1_000) * 30).rounded() }, [30, 60, 90, 149])
        XCTAssertEqual(reports.map(\.reason), ["reset", "exit"])
        let first = reports[0]
        XCTAssertEqual(first.startSeconds, 0)
        XCTAssertEqual(first.endSeconds, 119.0 / 30, accuracy: 1e-9, "the last tick before the reset")
        XCTAssertEqual(first.startWall!, 1_000, accuracy: 1e-9)
        XCTAssertEqual(first.pausedSeconds, 1, accuracy: 1e-9)
        XCTAssertEqual(first.integrated, -23.4)
        XCTAssertTrue(first.passes, "-23.4 is within EBU R128's -23 ± 1")
        XCTAssertEqual(reports[1].startSeconds, 119.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(reports[1].endSeconds, 5, accuracy: 1e-9)
        XCTAssertFalse(reports[1].passes, "-30 is not")
    }

    func testARestartOfTheAnalysisEndsTheMeasurement() {
        let recorder = ProgrammeRecorder(client: "studio", target: .ebuR128)
        _ = recorder.take(tick(1), wall: 10)
        _ = recorder.take(tick(2), wall: 11)
        let restarted = recorder.take(tick(0.1), wall: 20)
        XCTAssertEqual(restarted.reports.map(\.reason), ["restart"])
        XCTAssertEqual(restarted.reports.first?.endSeconds, 2)
        XCTAssertEqual(recorder.finish(reason: "exit").first?.startWall ?? 0, 19.9, accuracy: 1e-9)
    }

    func testTheReportReadsAsJSONAndAsOneCSVLine() throws {
        let report = ProgrammeReport(client: "studio, \"A\"", programme: "main", reason: "exit", startWall: 0,
                                     endWall: 60.5, startSeconds: 0, endSeconds: 60.5, pausedSeconds: 10,
                                     integrated: -24.04, range: 5.5, maxMomentary: -15, maxShortTerm: -18,
                                     maxTruePeak: nil, target: LoudnessTarget(lufs: -24, toleranceLU: 2))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        XCTAssertEqual(json["client"] as? String, "studio, \"A\"")
        XCTAssertEqual(json["start"] as? String, "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(json["duration_s"] as? Double, 60.5)
        XCTAssertEqual(json["integrated_lufs"] as? Double, -24.04)
        XCTAssertTrue(json["max_true_peak_dbtp"] is NSNull)
        XCTAssertEqual(json["result"] as? String, "pass", "ATSC A/85: -24 ± 2")
        let header = ProgrammeReport.csvHeader.split(separator: ",")
        let line = report.csvLine()
        XCTAssertTrue(line.hasPrefix("\"studio, \"\"A\"\"\",main,,exit,"), line)
        // The quoted field holds one comma: one more split than the header has fields.
        XCTAssertEqual(line.split(separator: ",", omittingEmptySubsequences: false).count, header.count + 1)
        XCTAssertTrue(line.hasSuffix(",-24.0,2.0,pass"), line)
    }
}
