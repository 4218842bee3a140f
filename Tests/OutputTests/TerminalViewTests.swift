import DSP
import Foundation
@testable import TerminalOut
import XCTest
@testable import Analysis

final class TerminalViewTests: XCTestCase {
    private let esc = "\u{1B}"

    // MARK: Bar

    func testBarLengthIsProportionalToLevelOnTheMinus60To0Scale() {
        // -30 dBFS is half way up a -60…0 scale: 30 of 60 cells.
        let bar = TerminalView.bar(levelDB: -30, holdDB: -200, width: 60, colour: false)
        XCTAssertEqual(bar, String(repeating: "█", count: 30) + String(repeating: " ", count: 30))
        // -45 dBFS on a 20-cell bar: a quarter, 5 cells.
        XCTAssertEqual(TerminalView.bar(levelDB: -45, holdDB: -200, width: 20, colour: false),
                       String(repeating: "█", count: 5) + String(repeating: " ", count: 15))
    }

    func testBarIsEmptyBelowTheScaleAndFullAtOrAboveFullScale() {
        XCTAssertEqual(TerminalView.bar(levelDB: -80, holdDB: -200, width: 60, colour: false),
                       String(repeating: " ", count: 60))
        XCTAssertEqual(TerminalView.bar(levelDB: -200, holdDB: -200, width: 60, colour: false),
                       String(repeating: " ", count: 60))
        XCTAssertEqual(TerminalView.bar(levelDB: 0, holdDB: -200, width: 60, colour: false),
                       String(repeating: "█", count: 60))
        XCTAssertEqual(TerminalView.bar(levelDB: 3, holdDB: -200, width: 60, colour: false),
                       String(repeating: "█", count: 60))
    }

    func testCellsAreColouredByTheDecibelsOfTheirPosition() {
        // 60 cells of 1 dB: cells 0…41 stand for -60…-18 (green), 42…53 for -18…-6 (yellow), 54…59 for -6…0 (red).
        let full = TerminalView.bar(levelDB: 0, holdDB: -200, width: 60, colour: true)
        let expected = "\(esc)[32m" + String(repeating: "█", count: 42)
            + "\(esc)[33m" + String(repeating: "█", count: 12)
            + "\(esc)[31m" + String(repeating: "█", count: 6) + "\(esc)[0m"
        XCTAssertEqual(full, expected)
    }

    func testQuietBarIsAllGreenWhateverItsLength() {
        // -20 dBFS lights 40 cells, all below -18 dBFS: green only, then unlit cells.
        let bar = TerminalView.bar(levelDB: -20, holdDB: -200, width: 60, colour: true)
        XCTAssertEqual(bar, "\(esc)[32m" + String(repeating: "█", count: 40) + String(repeating: " ", count: 20)
            + "\(esc)[0m")
    }

    func testHoldMarkSitsInTheTopCellTheHeldPeakWouldLight() {
        // -6 dBFS would light 54 cells, 0…53: the mark is in cell 53.
        XCTAssertEqual(TerminalView.bar(levelDB: -200, holdDB: -6, width: 60, colour: false),
                       String(repeating: " ", count: 53) + "│" + String(repeating: " ", count: 6))
        // Bar to -30 (cells 0…29), hold at -12 (would light 48 cells, mark in cell 47).
        XCTAssertEqual(TerminalView.bar(levelDB: -30, holdDB: -12, width: 60, colour: false),
                       String(repeating: "█", count: 30) + String(repeating: " ", count: 17) + "│"
                       + String(repeating: " ", count: 12))
    }

    func testHoldBelowTheScaleShowsNoMark() {
        XCTAssertEqual(TerminalView.bar(levelDB: -200, holdDB: -75, width: 60, colour: false),
                       String(repeating: " ", count: 60))
    }

    // MARK: Peak hold

    func testTheHoldMarkIsTheEnginesHeldPeak() {
        let view = TerminalView(title: "t", columns: 80, colour: false)
        var held = port("in_1", peakDB: -200, rmsDB: -200)
        held.meters.holdDB = -6
        XCTAssertTrue(meterLine(of: view.render(snapshot(time: 0, ports: [held])), port: "in_1").contains("│"))
        let none = port("in_1", peakDB: -6, rmsDB: -200)
        XCTAssertFalse(meterLine(of: view.render(snapshot(time: 0.1, ports: [none])), port: "in_1").contains("│"),
                       "without the hold meter there is no mark")
    }

    func testProgrammeLoudnessAndTruePeakAreShown() {
        let view = TerminalView(title: "t", columns: 120, colour: false)
        var p = port("in_1", peakDB: -6, rmsDB: -9)
        p.meters.truePeakDB = -5.4
        let programme = ProgrammeReading(name: "main", momentary: -23.04, shortTerm: -22.96, integrated: -23.0,
                                         range: 4.25, maxMomentary: -20, maxShortTerm: -21)
        let frame = view.render(Snapshot(time: 1, ports: [p], overruns: 0, programmes: [programme]))
        XCTAssertTrue(meterLine(of: frame, port: "in_1").contains("TP  -5.4"))
        let line = visibleLines(frame).first { $0.hasPrefix("main") } ?? ""
        XCTAssertTrue(line.contains("M -23.0") && line.contains("S -23.0") && line.contains("I -23.0 LUFS"), line)
        XCTAssertTrue(line.contains("LRA  4.2 LU") || line.contains("LRA  4.3 LU"), line)
    }

    // MARK: Status and sources

    func testTheStatusLineAndTheSelectedPortsSourceAreShownAndFollowChanges() {
        let view = TerminalView(title: "jacktap · 48000 Hz", columns: 100, colour: false)
        let frame = { view.render(self.snapshot(time: 0, ports: [self.port("in_1", peakDB: -6, rmsDB: -9)])) }
        XCTAssertFalse(visibleLines(frame()).contains { $0.contains("JACK") }, "no status line before one is set")
        view.setHeader(title: "jacktap · 44100 Hz / 512 frames", status: "JACK running · xruns 3 · overruns 0")
        view.setSources(["in_1": "Drums L (player:out_1)"])
        let lines = visibleLines(frame())
        XCTAssertEqual(lines.first, "jacktap · 44100 Hz / 512 frames", "the heading follows a rate change")
        XCTAssertEqual(lines.dropFirst().first, "JACK running · xruns 3 · overruns 0")
        XCTAssertTrue(lines.contains("in_1 ← Drums L (player:out_1)"), "\(lines)")
        view.setHeader(title: "jacktap · waiting for the JACK server", status: "JACK disconnected · xruns 3 · overruns 0")
        XCTAssertEqual(visibleLines(frame()).dropFirst().first, "JACK disconnected · xruns 3 · overruns 0")
    }

    // MARK: Frame

    func testEveryLineFitsTheColumnCount() {
        let longTitle = "jacktap  client jacktap_with_a_long_name  48000 Hz  OSC → 192.168.1.255:7000, "
            + "127.0.0.1:9000, 10.0.0.12:53000  " + String(repeating: "x", count: 200)
        let ports = [
            port("system_capture_with_a_very_long_name_1", peakDB: 0, rmsDB: -3, note: MusicalNote(frequency: 440)),
            port("in_2", peakDB: -12.5, rmsDB: -20, bands: (0..<48).map { Float($0) / 47 }),
            port("in_3", peakDB: -200, rmsDB: -200),
        ]
        for columns in [20, 80, 200] {
            let view = TerminalView(title: longTitle, columns: columns, colour: true)
            let frame = view.render(snapshot(time: 1, ports: ports, overruns: 12))
            for line in visibleLines(frame) {
                XCTAssertLessThanOrEqual(line.count, columns, "\(columns) columns: \(line)")
            }
        }
    }

    func testFrameRedrawsInPlaceWithoutClearingTheScreen() {
        let view = TerminalView(title: "jacktap", columns: 80, colour: true)
        let frame = view.render(snapshot(time: 0, ports: [port("in_1", peakDB: -6, rmsDB: -12)]))
        XCTAssertTrue(frame.hasPrefix("\(esc)[H"))
        XCTAssertTrue(frame.hasSuffix("\(esc)[J"))
        XCTAssertFalse(frame.contains("\(esc)[2J"))
        let lines = frame.dropLast("\(esc)[J".count).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.last, "")  // the last line ends with "\n" too
        for line in lines.dropLast() {
            XCTAssertTrue(line.hasSuffix("\(esc)[K"), String(line))
        }
    }

    func testFrameStartsWithTheTitleAndEndsWithTheKeyHelp() {
        let view = TerminalView(title: "jacktap @ 48000 Hz → 127.0.0.1:9000", columns: 120, colour: false)
        let lines = visibleLines(view.render(snapshot(time: 0, ports: [port("in_1", peakDB: -6, rmsDB: -12)])))
        XCTAssertEqual(lines.first, "jacktap @ 48000 Hz → 127.0.0.1:9000")
        XCTAssertEqual(lines.last, "←/→ or Tab: port   r: reset holds, loudness, maxima   p: pause/resume loudness   q: quit")
    }

    func testOverrunsAppearInTheFooterOnlyWhenThereAreAny() {
        let view = TerminalView(title: "t", columns: 120, colour: false)
        let clean = visibleLines(view.render(snapshot(time: 0, ports: [port("in_1")], overruns: 0)))
        XCTAssertFalse(clean.last!.contains("overrun"))
        let dropped = visibleLines(view.render(snapshot(time: 0, ports: [port("in_1")], overruns: 7)))
        XCTAssertTrue(dropped.last!.hasSuffix("overruns: 7"))
    }

    // MARK: Numbers and notes

    func testDecibelsHaveOneDecimalAndTheFloorReadsMinusInf() {
        XCTAssertEqual(TerminalView.decibels(-6), "-6.0")
        XCTAssertEqual(TerminalView.decibels(-12.34), "-12.3")
        XCTAssertEqual(TerminalView.decibels(-0.96), "-1.0")
        XCTAssertEqual(TerminalView.decibels(0.5), "0.5")
        XCTAssertEqual(TerminalView.decibels(-200), "-inf")
    }

    func testSilentPortShowsMinusInfForPeakAndRMS() {
        let view = TerminalView(title: "t", columns: 100, colour: false)
        let line = meterLine(of: view.render(snapshot(time: 0, ports: [port("in_1", peakDB: -200, rmsDB: -200)])),
                             port: "in_1")
        XCTAssertEqual(line.components(separatedBy: "-inf").count - 1, 2, line)
    }

    func testMeterLineShowsPeakAndRMSAndTheNote() {
        // 3 cents above A4: 440 · 2^(3/1200) = 440.7625 Hz.
        let note = MusicalNote(frequency: 440.7625)
        let view = TerminalView(title: "t", columns: 100, colour: false)
        let line = meterLine(of: view.render(snapshot(time: 0, ports: [port("in_1", peakDB: -6, rmsDB: -9.04,
                                                                             note: note)])), port: "in_1")
        XCTAssertTrue(line.contains("  -6.0   -9.0  A4 +3c   "), line)
    }

    func testNoNoteShowsADash() {
        let view = TerminalView(title: "t", columns: 100, colour: false)
        let line = meterLine(of: view.render(snapshot(time: 0, ports: [port("in_1", peakDB: -6, rmsDB: -9)])),
                             port: "in_1")
        XCTAssertTrue(line.contains("  -6.0   -9.0  —        "), line)
    }

    func testFlatNoteShowsNegativeCents() {
        // 12 cents below C#4 (MIDI 61, 277.1826 Hz): 277.1826 · 2^(-12/1200) = 275.2680 Hz.
        XCTAssertEqual(TerminalView.noteText(MusicalNote(frequency: 275.2680)!), "C#4 -12c")
    }

    // MARK: Level history and tempo

    func testTheHistoryShowsTheLoudestLevelOfEachTwoAndAHalfSecondsOfTheLastThirty() {
        // 30 s of ticks at 10 per second, the level rising 2 dB every 2.5 s from -60: cell k holds -60 + 2k dB,
        // and the last tick, at 30 s exactly, falls in the last cell.
        let levels = (0...300).map { tick -> (time: Double, db: Float) in
            let time = Double(tick) / 10
            return (time, -60 + 2 * Float(min(Int(time / 2.5), 11)))
        }
        let line = PortTimeline.sparkline(levels, now: 30)
        XCTAssertEqual(line.count, 12)
        // Eighth blocks over -60…0, 7.5 dB each: ▁ below -52.5 (cells at -60…-54), ▂ below -45 (-52…-46),
        // ▃ below -37.5 (-44…-38).
        XCTAssertEqual(line, "▁▁▁▁▂▂▂▂▃▃▃▃")
        // No level yet: blank cells; a port that has been playing for 5 s fills the last two.
        XCTAssertEqual(PortTimeline.sparkline([], now: 30), String(repeating: " ", count: 12))
        let recent = (0..<50).map { (time: 25 + Double($0) / 10, db: Float(0)) }
        XCTAssertEqual(PortTimeline.sparkline(recent, now: 30), String(repeating: " ", count: 10) + "██")
    }

    func testTheHistoryForgetsWhatIsOlderThanThirtySeconds() {
        var timeline = PortTimeline()
        for tick in 0..<600 { timeline.add(time: Double(tick) / 10, rmsDB: -20) }
        XCTAssertEqual(timeline.levels.first?.time ?? 0, 30.0, accuracy: 0.11)
    }

    func testTheTempoFieldShowsTheBeatMarkOnTheFrameAfterABeatAndTheBarPosition() {
        let view = TerminalView(title: "t", columns: 120, colour: false)
        let playing = PortReading(name: "in_1", peakDB: -6, rmsDB: -12, level: 0.8,
                                  bands: Array(repeating: 0, count: 48), pitch: nil, note: nil, tempo: 120)
        view.note(AnalysisEvent(port: "in_1", kind: .beat(count: 7, bpm: 120, bar: .init(bar: 2, beat: 3, beatsPerBar: 4)),
                                time: 3.5, reported: 3.48))
        let first = meterLine(of: view.render(snapshot(time: 3.5, ports: [playing])), port: "in_1")
        XCTAssertTrue(first.hasSuffix("♩120.0 ● 3/4"), first)
        let next = meterLine(of: view.render(snapshot(time: 3.53, ports: [playing])), port: "in_1")
        XCTAssertTrue(next.hasSuffix("♩120.0   3/4"), next)
        // A port without rhythm analysis shows no tempo column at all.
        let quiet = TerminalView(title: "t", columns: 120, colour: false)
        let line = meterLine(of: quiet.render(snapshot(time: 0, ports: [port("in_1", peakDB: -6, rmsDB: -9)])), port: "in_1")
        XCTAssertFalse(line.contains("♩"), line)
    }

    // MARK: Spectrum

    func testSpectrumHasOneColumnPerBandAndFullScaleFillsAllEightRows() {
        // Band 0 full scale, band 1 silent, the rest half scale (32 of 64 eighths: the bottom 4 rows).
        let bands = [Float(1), 0] + Array(repeating: Float(0.5), count: 46)
        let view = TerminalView(title: "t", columns: 80, colour: false)
        let rows = spectrumRows(view.render(snapshot(time: 0, ports: [port("in_1", bands: bands)])))
        XCTAssertEqual(rows.count, 8)
        for (index, row) in rows.enumerated() {
            let cells = Array(row)
            XCTAssertEqual(cells.count, 48)
            XCTAssertEqual(cells[0], "█")
            XCTAssertEqual(cells[1], " ")
            XCTAssertEqual(cells[2], index < 4 ? " " : "█")
        }
    }

    func testSpectrumUsesEighthBlocksForTheTopOfABar() {
        // 0.1 of 64 eighths is 6.4, rounded to 6: "▆" in the bottom row only (3 bands fit twice over in 80).
        let view = TerminalView(title: "t", columns: 80, colour: false)
        let rows = spectrumRows(view.render(snapshot(time: 0, ports: [port("in_1", bands: [0.1, 0, 0])])))
        XCTAssertEqual(rows, Array(repeating: "      ", count: 7) + ["▆▆    "])
    }

    func testWideTerminalDrawsTwoColumnsPerBand() {
        let bands = [Float(1), 0] + Array(repeating: Float(0), count: 46)
        let view = TerminalView(title: "t", columns: 200, colour: false)
        let rows = spectrumRows(view.render(snapshot(time: 0, ports: [port("in_1", bands: bands)])))
        for row in rows {
            XCTAssertEqual(row, "██" + String(repeating: " ", count: 94))
        }
    }

    func testSpectrumLabelNamesThePortAndTheBandRange() {
        let view = TerminalView(title: "t", columns: 80, colour: false)
        let lines = visibleLines(view.render(snapshot(time: 0, ports: [port("in_1")])))
        XCTAssertTrue(lines.contains("spectrum: in_1  60 Hz … 18 kHz"), "\(lines)")
    }

    // MARK: Selection and keys

    func testSelectionMovesAndWrapsAroundThePorts() {
        let view = TerminalView(title: "t", columns: 80, colour: false)
        let ports = [port("in_1"), port("in_2"), port("in_3")]
        _ = view.render(snapshot(time: 0, ports: ports))
        XCTAssertEqual(view.selectedPort, 0)
        view.selectPreviousPort()
        XCTAssertEqual(view.selectedPort, 2)
        view.selectNextPort()
        view.selectNextPort()
        XCTAssertEqual(view.selectedPort, 1)
        let lines = visibleLines(view.render(snapshot(time: 0, ports: ports)))
        XCTAssertTrue(lines.contains { $0.hasPrefix("spectrum: in_2 ") }, "\(lines)")
    }

    func testSelectionFromAnotherThreadWhileRendering() {
        let view = TerminalView(title: "t", columns: 80, colour: false)
        let ports = [port("in_1"), port("in_2"), port("in_3")]
        _ = view.render(snapshot(time: 0, ports: ports))
        let snapshots = (0..<300).map { snapshot(time: Double($0) / 30, ports: ports) }
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for step in 0..<300 {
                if worker == 0 {
                    _ = view.render(snapshots[step])
                } else {
                    view.selectNextPort()
                }
            }
        }
        // 300 steps forward round 3 ports ends where it started.
        XCTAssertEqual(view.selectedPort, 0)
    }

    func testKeysMapToActions() {
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x1B, 0x5B, 0x43]), .next)  // right arrow
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x09]), .next)  // Tab
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x1B, 0x5B, 0x44]), .previous)  // left arrow
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x1B, 0x5B, 0x5A]), .previous)  // shift-Tab
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x72]), .resetHolds)  // r
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x70]), .pauseLoudness)  // p
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x71]), .quit)  // q
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x51]), .quit)  // Q
        XCTAssertEqual(TerminalView.handleKey(bytes: [0x03]), .quit)  // Ctrl-C
        XCTAssertNil(TerminalView.handleKey(bytes: [0x1B, 0x5B, 0x41]))  // up arrow: unused
        XCTAssertNil(TerminalView.handleKey(bytes: [0x78]))  // x
        XCTAssertNil(TerminalView.handleKey(bytes: []))
    }

    func testEnterAndLeaveSequencesUseTheAlternateScreen() {
        XCTAssertEqual(TerminalView.enterSequence, "\(esc)[?1049h\(esc)[?25l")
        XCTAssertEqual(TerminalView.leaveSequence, "\(esc)[?25h\(esc)[?1049l")
    }

    // MARK: Helpers

    private func port(_ name: String, peakDB: Float = -200, rmsDB: Float = -200, bands: [Float]? = nil,
                      note: MusicalNote? = nil) -> PortReading {
        PortReading(name: name, peakDB: peakDB, rmsDB: rmsDB, level: Decibels.unit(rmsDB, low: -60),
                    bands: bands ?? Array(repeating: 0, count: 48), pitch: nil, note: note)
    }

    private func snapshot(time: Double, ports: [PortReading], overruns: Int = 0) -> Snapshot {
        Snapshot(time: time, ports: ports, overruns: overruns)
    }

    /// The frame's lines as the terminal shows them: escape sequences removed, frame ending dropped.
    private func visibleLines(_ frame: String) -> [String] {
        let text = frame.replacing(/\x1B\[[0-9;?]*[@-~]/, with: "")
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()  // after the last "\n" there is only ESC[J, now removed
        return lines
    }

    private func meterLine(of frame: String, port name: String) -> String {
        visibleLines(frame).first { $0.dropFirst().hasPrefix(name) } ?? ""
    }

    /// The rows after the spectrum's label.
    private func spectrumRows(_ frame: String) -> [String] {
        let lines = visibleLines(frame)
        guard let label = lines.firstIndex(where: { $0.hasPrefix("spectrum: ") }) else { return [] }
        return Array(lines[(label + 1)...(label + 8)])
    }
}
