import Analysis
import Foundation
import JSONOut
import LoudnessLog
import PrometheusExport

/// A tick of `ports` ports with the broadcast meters' figures and one programme, for the scrape benchmark.
func fleetSnapshot(ports: Int, time: Double) -> Snapshot {
    var snapshot = benchmarkSnapshot(ports: ports)
    snapshot.time = time
    for i in snapshot.ports.indices {
        snapshot.ports[i].meters.truePeakDB = snapshot.ports[i].peakDB + 0.3
        snapshot.ports[i].meters.clips = 0
    }
    snapshot.programmes = [ProgrammeReading(name: "main", momentary: -20, shortTerm: -21, integrated: -23, range: 5,
                                            maxMomentary: -15, maxShortTerm: -18)]
    return snapshot
}

/// `GET /metrics` at `ports` ports: what the analysis thread spends handing a tick over (ns per tick), what one
/// scrape costs (ns) and its size (bytes), and the JSON writer's line for the same tick as the peer (ns).
func scrapeBenchmark(ports: Int) -> (recordNs: Double, scrapeNs: Double, bytes: Int, jsonNs: Double) {
    let state = ScrapeState(run: .init(client: "bench", version: "1", target: .ebuR128, alarms: AlarmKind.allCases),
                            session: { .init(running: true, xruns: 0, periodsDropped: 0) },
                            sources: { (0..<ports).map { "system:capture_\($0 + 1)" } })
    let ticks = (0..<30).map { fleetSnapshot(ports: ports, time: Double($0) / 30) }
    var index = 0
    let record = measure(runs: 9, repeats: 30) {
        state.record(ticks[index % ticks.count])
        index += 1
    }
    var bytes = 0
    let scrape = measure(runs: 9, repeats: max(1, 256 / ports)) { bytes = state.scrape().utf8.count }
    var jsonBytes = 0
    let json = measure(runs: 9, repeats: 30) { jsonBytes &+= JSONLines.line(for: ticks[0]).utf8.count }
    precondition(jsonBytes > 0)
    return (record, scrape, bytes, json)
}

/// `--loudness-log` per programme: the analysis thread's share per tick (the rows and reports made and queued,
/// ns), and a second of audio through both threads (30 ticks handed over, one row opened, appended and closed in
/// `directory` by the writer thread, waited for: ns of wall time, on an otherwise idle process).
func loudnessLogBenchmark(directory: String) -> (perTickNs: Double, perSecondNs: Double) {
    let writer = try! LoudnessLogWriter(directory: directory) { print("# \($0)") }
    let feed = LoudnessLogFeed(recorder: ProgrammeRecorder(client: "bench", target: .ebuR128), writer: writer)
    var tick = 0
    let perTick = measure(runs: 9, repeats: 300) {
        tick += 1
        var snapshot = fleetSnapshot(ports: 0, time: Double(tick) / 30)
        snapshot.programmes[0].momentary = Float(tick % 20) - 40
        feed.record(snapshot, wall: 1_800_000_000 + Double(tick) / 30)
    }
    feed.finish()
    // Both threads: 3000 seconds of audio queued, then written to the end.
    let rowWriter = try! LoudnessLogWriter(directory: directory) { print("# \($0)") }
    let rowFeed = LoudnessLogFeed(recorder: ProgrammeRecorder(client: "rows", target: .ebuR128), writer: rowWriter)
    var second = 0
    let start = now()
    let rows = 3000
    for _ in 0..<rows {
        // 30 ticks a second of audio: one row each.
        for _ in 0..<30 {
            second += 1
            rowFeed.record(fleetSnapshot(ports: 0, time: Double(second) / 30), wall: Double(second) / 30)
        }
    }
    rowFeed.finish()
    let total = Double(now() - start)
    return (perTick, total / Double(rows))
}
