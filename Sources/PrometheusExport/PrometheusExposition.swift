import Analysis
import Schema

/// One scrape's text, written from ``MetricSchema`` and the newest figures: the run's metrics, then each port's,
/// programme's and pair's, in the order of the schema.
struct PrometheusExposition {
    let run: ScrapeState.Run
    let session: ScrapeState.Session
    let sources: [String?]

    func text(snapshot: Snapshot?, ports: [ScrapeState.PortCounts], restarts: Int, alarmsOn: [String: Set<AlarmKind>] = [:],
              alarmStarts: [String: [AlarmKind: Int]] = [:]) -> String {
        typealias M = MetricSchema
        var out = PrometheusText()
        let client = [("client", run.client)]
        out.sample(M.up, client, session.running ? 1 : 0)
        out.sample(M.buildInfo, client + [("version", run.version)], 1)
        out.sample(M.xruns, client, Double(session.xruns))
        out.sample(M.periodsDropped, client, Double(session.periodsDropped))
        out.sample(M.serverRestarts, client, Double(restarts))
        guard let snapshot else { return out.text }

        let portLabels = snapshot.ports.indices.map { i in
            client + [("port", snapshot.ports[i].name),
                      ("source", i < sources.count ? sources[i] ?? "" : "")]
        }
        func each(_ metric: Metric, _ value: (Int) -> Double?) {
            for i in snapshot.ports.indices {
                if let v = value(i) { out.sample(metric, portLabels[i], v) }
            }
        }
        let counts = Dictionary(ports.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        each(M.peak) { Double(snapshot.ports[$0].peakDB) }
        each(M.peakMax) { Double(counts[snapshot.ports[$0].name]?.peakMax ?? snapshot.ports[$0].peakDB) }
        each(M.rms) { Double(snapshot.ports[$0].rmsDB) }
        each(M.level) { Double(snapshot.ports[$0].level) }
        for i in snapshot.ports.indices {
            for (band, value) in zip(FigureSchema.bandGroups, snapshot.ports[i].bands4) {
                out.sample(M.bandLevel, portLabels[i] + [("band", band.leaf)], Double(value))
            }
        }
        each(M.truePeak) { snapshot.ports[$0].meters.truePeakDB.map(Double.init) }
        each(M.truePeakMax) { i in
            snapshot.ports[i].meters.truePeakDB.map { Double(counts[snapshot.ports[i].name]?.truePeakMax ?? $0) }
        }
        each(M.tempo) { snapshot.ports[$0].tempo.map(Double.init) }
        each(M.clips) { i in snapshot.ports[i].meters.clips.map { _ in Double(counts[snapshot.ports[i].name]?.clips ?? 0) } }
        each(M.beats) { Double(counts[snapshot.ports[$0].name]?.beats ?? 0) }

        let programmeLabels = snapshot.programmes.map { client + [("programme", $0.name)] }
        let loudness: [(Metric, (ProgrammeReading) -> Double)] = [
            (M.momentary, { Double($0.momentary) }), (M.shortTerm, { Double($0.shortTerm) }),
            (M.integrated, { Double($0.integrated) }), (M.loudnessRange, { Double($0.range) }),
            (M.maxMomentary, { Double($0.maxMomentary) }), (M.maxShortTerm, { Double($0.maxShortTerm) }),
            (M.paused, { $0.paused ? 1 : 0 }),
        ]
        for (metric, value) in loudness {
            for (programme, labels) in zip(snapshot.programmes, programmeLabels) {
                out.sample(metric, labels, value(programme))
            }
        }
        for labels in programmeLabels { out.sample(M.target, labels, run.target.lufs) }
        for labels in programmeLabels { out.sample(M.tolerance, labels, run.target.toleranceLU) }
        for (programme, labels) in zip(snapshot.programmes, programmeLabels) {
            for kind in run.alarms {
                out.sample(M.alarm, labels + [("kind", kind.rawValue)],
                           alarmsOn[programme.name]?.contains(kind) == true ? 1 : 0)
            }
        }
        for (programme, labels) in zip(snapshot.programmes, programmeLabels) {
            for kind in run.alarms {
                out.sample(M.alarms, labels + [("kind", kind.rawValue)], Double(alarmStarts[programme.name]?[kind] ?? 0))
            }
        }
        for pair in snapshot.pairs {
            out.sample(M.correlation, client + [("pair", pair.name)], Double(pair.correlation))
        }
        return out.text
    }
}
