/// Every metric of `GET /metrics` (the Prometheus text exposition format 0.0.4), in the order of the exposition.
/// Each figure's metric takes its name's unit and its help from ``FigureSchema``; jack/prometheus's rules and
/// dashboard name only these (a test checks).
///
/// dB and LUFS of silence are the figures' own finite floor, -200, never -Inf: a graph of a silent channel
/// stays a graph, and `min_over_time` stays a number.
public enum MetricSchema {
    public static let up = Metric(
        name: "jacktap_up", labels: [],
        help: "1 while jacktap's JACK client runs, 0 while the JACK server is gone and jacktap waits for it")
    public static let buildInfo = Metric(
        name: "jacktap_build_info", labels: ["version"], help: "Always 1; the version of jacktap in its label")
    public static let xruns = Metric(
        "xruns", .counter, figure: FigureSchema.status, argument: 1, reading: .count,
        help: "Xruns the JACK server reported over the run")
    public static let periodsDropped = Metric(
        "periods_dropped", .counter, figure: FigureSchema.status, argument: 2, reading: .count,
        help: "Periods metered but not analysed because the analysis fell behind, over the run")
    public static let serverRestarts = Metric(
        "server_restarts", .counter, figure: FigureSchema.restarted, reading: .count,
        help: "Times the JACK server went away and jacktap reconnected to it")

    public static let peak = Metric("peak", figure: FigureSchema.peak,
                                    help: "Sample peak of the newest tick (dBFS, -200 for digital silence)")
    public static let peakMax = Metric(
        "peak_max", figure: FigureSchema.peak, reading: .maximumSinceScrape,
        help: "Highest sample peak since the previous scrape (dBFS): no peak between scrapes is lost")
    public static let rms = Metric("rms", figure: FigureSchema.rms)
    public static let level = Metric("level", figure: FigureSchema.level)
    public static let bandLevel = Metric("band_level", figure: FigureSchema.bands4, extraLabels: ["band"],
                                         help: "Band level 0..1 of bass, lowmid, mid and high (upper edges 100, 250, "
                                             + "3000 and 10000 Hz), dB from -80 to 0")
    public static let truePeak = Metric("true_peak", figure: FigureSchema.truePeak,
                                        help: "True peak of the newest tick, BS.1770-4 Annex 2 (needs the true-peak meter)")
    public static let truePeakMax = Metric(
        "true_peak_max", figure: FigureSchema.truePeak, reading: .maximumSinceScrape,
        help: "Highest true peak since the previous scrape (dBTP): no over between scrapes is lost")
    public static let tempo = Metric("tempo", figure: FigureSchema.tempo,
                                     help: "The beat tracker's tempo, once it has locked")
    public static let clips = Metric("clips", .counter, figure: FigureSchema.clip, reading: .count,
                                     help: "Clip events (runs of samples at or above --clip-threshold count once)")
    public static let beats = Metric("beats", .counter, figure: FigureSchema.beat, reading: .count,
                                     help: "Beats the beat tracker announced")

    public static let momentary = Metric("loudness_momentary", figure: FigureSchema.momentary)
    public static let shortTerm = Metric("loudness_shortterm", figure: FigureSchema.shortTerm)
    public static let integrated = Metric("loudness_integrated", figure: FigureSchema.integrated)
    public static let loudnessRange = Metric("loudness_range", figure: FigureSchema.loudnessRange)
    public static let maxMomentary = Metric("loudness_max_momentary", figure: FigureSchema.maxMomentary)
    public static let maxShortTerm = Metric("loudness_max_shortterm", figure: FigureSchema.maxShortTerm)
    public static let paused = Metric("loudness_paused", figure: FigureSchema.paused,
                                      help: "1 while the programme's integrated loudness, range and maxima are paused")
    public static let target = Metric(
        name: "jacktap_loudness_target_lufs", labels: ["programme"],
        help: "The programme's loudness target (--target; EBU R128 -23 LUFS by default)")
    public static let tolerance = Metric(
        name: "jacktap_loudness_tolerance_lu", labels: ["programme"],
        help: "The tolerance around the target (--target; EBU R128 1 LU by default)")
    public static let alarm = Metric("alarm", figure: FigureSchema.alarm, argument: 1, extraLabels: ["kind"],
                                     help: "1 while the programme's alarm of this kind is on (--alarms: silence, "
                                         + "over_target, true_peak)")
    public static let alarms = Metric("alarms", .counter, figure: FigureSchema.alarm, argument: 1, reading: .count,
                                      extraLabels: ["kind"],
                                      help: "Alarms of this kind started, so that one that came and went between "
                                          + "two scrapes is seen")
    public static let correlation = Metric("correlation", figure: FigureSchema.correlation)

    /// Every metric, in the order of the exposition.
    public static let all: [Metric] = [
        up, buildInfo, xruns, periodsDropped, serverRestarts,
        peak, peakMax, rms, level, bandLevel, truePeak, truePeakMax, tempo, clips, beats,
        momentary, shortTerm, integrated, loudnessRange, maxMomentary, maxShortTerm, paused, target, tolerance,
        alarm, alarms, correlation,
    ]

    /// The names of every metric, and the names Prometheus writes for a counter without its `_total`.
    public static var names: Set<String> { Set(all.map(\.name)) }
}
