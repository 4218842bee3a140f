import Analysis
import PrometheusExport
import Schema
import ToolSupport
import XCTest

/// `GET /metrics` as Prometheus reads it: the text exposition format 0.0.4 (promtool checks it), names and help
/// from the schema, peaks between scrapes kept, counters that only grow.
final class ScrapeStateTests: XCTestCase {
    func reading(_ name: String, peak: Float, truePeak: Float? = nil, clips: Int? = nil) -> PortReading {
        var meters = MeterReading()
        meters.truePeakDB = truePeak
        meters.clips = clips
        return PortReading(name: name, peakDB: peak, rmsDB: peak - 3, level: 0.5, bands: [], pitch: nil, note: nil,
                           meters: meters, bands4: [0.1, 0.2, 0.3, 0.4])
    }

    func snapshot(_ ports: [PortReading], integrated: Float = -23) -> Snapshot {
        Snapshot(time: 1, ports: ports, overruns: 0,
                 programmes: [ProgrammeReading(name: "main", momentary: -20, shortTerm: -21, integrated: integrated,
                                               range: 4, maxMomentary: -18, maxShortTerm: -19)],
                 pairs: [PairReading(name: "in_1-in_2", correlation: 0.5)])
    }

    func state(client: String = "studio1", sources: [String?] = ["system:capture_1", nil],
               session: ScrapeState.Session = .init(running: true, xruns: 0, periodsDropped: 0)) -> ScrapeState {
        ScrapeState(run: .init(client: client, version: "1.0", target: .ebuR128), session: { session },
                    sources: { sources })
    }

    /// The value of the sample whose name and labels start as `prefix` (`jacktap_peak_dbfs{client="s",port="in_1"`).
    func value(_ text: String, _ prefix: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.split(separator: " ").last!) }
    }

    func testPeaksBetweenScrapesAreKeptAsTheMaximumSinceThePreviousScrape() {
        let scrape = state()
        scrape.record(snapshot([reading("in_1", peak: -3, truePeak: -2.5), reading("in_2", peak: -40)]))
        scrape.record(snapshot([reading("in_1", peak: -20, truePeak: -19), reading("in_2", peak: -30)]))
        let first = scrape.scrape()
        XCTAssertEqual(value(first, "jacktap_peak_dbfs{client=\"studio1\",port=\"in_1\""), -20, "the newest tick")
        XCTAssertEqual(value(first, "jacktap_peak_max_dbfs{client=\"studio1\",port=\"in_1\""), -3, "the peak between scrapes")
        XCTAssertEqual(value(first, "jacktap_true_peak_max_dbtp{client=\"studio1\",port=\"in_1\""), -2.5)
        XCTAssertEqual(value(first, "jacktap_peak_max_dbfs{client=\"studio1\",port=\"in_2\""), -30)
        // No tick since: the maximum is the newest tick's own; a new tick starts the next maximum.
        let second = scrape.scrape()
        XCTAssertEqual(value(second, "jacktap_peak_max_dbfs{client=\"studio1\",port=\"in_1\""), -20)
        scrape.record(snapshot([reading("in_1", peak: -12, truePeak: -11), reading("in_2", peak: -30)]))
        let third = scrape.scrape()
        XCTAssertEqual(value(third, "jacktap_peak_max_dbfs{client=\"studio1\",port=\"in_1\""), -12)
        XCTAssertEqual(value(third, "jacktap_true_peak_max_dbtp{client=\"studio1\",port=\"in_1\""), -11)
    }

    func testCountersOnlyGrowOverResetsAndRestarts() {
        let scrape = state()
        scrape.record(snapshot([reading("in_1", peak: 0, clips: 3)]))
        scrape.record(snapshot([reading("in_1", peak: 0, clips: 5)]))
        // A reset (SIGUSR1, /reset) starts the engine's count again: the counter carries on from 5.
        scrape.record(snapshot([reading("in_1", peak: 0, clips: 1)]))
        XCTAssertEqual(value(scrape.scrape(), "jacktap_clips_total{client=\"studio1\",port=\"in_1\""), 6)
        // A server restart: a new engine, whose ticks start again at 0 and whose first count of 4 is all new.
        scrape.recordRestart(reason: "reconnect")
        var restarted = snapshot([reading("in_1", peak: 0, clips: 4)])
        restarted.time = 0.1
        scrape.record(restarted)
        for _ in 0..<3 {
            scrape.record(AnalysisEvent(port: "in_1", kind: .beat(count: 1, bpm: 120), time: 1, reported: 1))
        }
        scrape.record(AnalysisEvent(port: "in_1", kind: .onset(strength: 1), time: 1, reported: 1))
        let text = scrape.scrape()
        XCTAssertEqual(value(text, "jacktap_clips_total{client=\"studio1\",port=\"in_1\""), 10)
        XCTAssertEqual(value(text, "jacktap_beats_total{client=\"studio1\",port=\"in_1\""), 3, "beats, not onsets")
        XCTAssertEqual(value(text, "jacktap_server_restarts_total{client=\"studio1\"}"), 1)
        scrape.recordRestart(reason: "samplerate")
        XCTAssertEqual(value(scrape.scrape(), "jacktap_server_restarts_total{client=\"studio1\"}"), 1,
                       "a rate change is no server restart")
    }

    func testEveryFamilyHasOneHelpAndOneTypeBeforeItsSamplesAndPrometheusNames() throws {
        let scrape = state(session: .init(running: false, xruns: 7, periodsDropped: 2))
        scrape.record(snapshot([reading("in_1", peak: -6, truePeak: -5, clips: 0), reading("in_2", peak: -200)]))
        let text = scrape.scrape()
        var seen = Set<String>()
        var current: String?
        let name = try Regex("^[a-zA-Z_:][a-zA-Z0-9_:]*$")
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# HELP ") {
                let family = String(line.split(separator: " ")[2])
                XCTAssertFalse(seen.contains(family), "one HELP for \(family)")
                XCTAssertNotNil(try name.wholeMatch(in: family), family)
                seen.insert(family)
                current = family
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                XCTAssertEqual(String(parts[2]), current, "TYPE right after HELP")
                let type = try XCTUnwrap(MetricSchema.all.first { $0.name == current }).type
                XCTAssertEqual(String(parts[3]), type.rawValue)
                if type == .counter { XCTAssertTrue(current!.hasSuffix("_total"), current!) }
            } else {
                let sampleName = String(line.prefix { $0 != "{" && $0 != " " })
                XCTAssertEqual(sampleName, current, "a sample under its own family: \(line)")
                XCTAssertFalse(line.contains("Inf") || line.contains("NaN"), "silence is the finite floor: \(line)")
            }
        }
        XCTAssertEqual(value(text, "jacktap_up{client=\"studio1\"}"), 0, "the JACK server is gone")
        XCTAssertEqual(value(text, "jacktap_xruns_total{client=\"studio1\"}"), 7)
        XCTAssertEqual(value(text, "jacktap_periods_dropped_total{client=\"studio1\"}"), 2)
        XCTAssertEqual(value(text, "jacktap_peak_dbfs{client=\"studio1\",port=\"in_2\",source=\"\"}"), -200)
        XCTAssertEqual(value(text, "jacktap_loudness_target_lufs{client=\"studio1\",programme=\"main\"}"), -23)
        XCTAssertEqual(value(text, "jacktap_loudness_tolerance_lu{client=\"studio1\",programme=\"main\"}"), 1)
        XCTAssertEqual(value(text, "jacktap_correlation{client=\"studio1\",pair=\"in_1-in_2\"}"), 0.5)
        XCTAssertEqual(value(text, "jacktap_band_level_ratio{client=\"studio1\",port=\"in_1\",source=\"system:capture_1\",band=\"mid\"}"),
                       0.3, "a Float written in its shortest digits")
        XCTAssertNil(value(text, "jacktap_true_peak_dbtp{client=\"studio1\",port=\"in_2\""),
                     "no true peak where the meter does not run")
        XCTAssertNil(value(text, "jacktap_tempo_bpm"), "no tempo before the tracker locks")
    }

    func testBeforeTheFirstTickOnlyTheRunIsExposed() {
        let text = state().scrape()
        XCTAssertEqual(value(text, "jacktap_up{client=\"studio1\"}"), 1)
        XCTAssertEqual(value(text, "jacktap_build_info{client=\"studio1\",version=\"1.0\"}"), 1)
        XCTAssertFalse(text.contains("jacktap_peak_dbfs"))
    }

    func testPromtoolAcceptsTheExpositionWithLabelsThatNeedEscaping() throws {
        let scrape = state(client: "studio \"A\" \\ left\nright", sources: ["sys:capture \"1\"", "a\\b"])
        scrape.record(snapshot([reading("in_1", peak: -6, truePeak: -5, clips: 2), reading("in_2", peak: -200)]))
        let text = scrape.scrape()
        XCTAssertTrue(text.contains("client=\"studio \\\"A\\\" \\\\ left\\nright\""), text)
        let path = Tool.temporaryPath("exposition.prom")
        defer { unlink(path) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // promtool reads the exposition on stdin and names every problem it sees (lint included).
        let check = try Tool.capture("/bin/sh", ["-c", "promtool check metrics < \(path)"])
        XCTAssertEqual(check.status, 0, "promtool check metrics: \(check.stdout)\(check.stderr)")
        XCTAssertEqual(check.stdout + check.stderr, "", "no lint finding either")
    }
}
