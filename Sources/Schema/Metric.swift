/// One Prometheus metric of `GET /metrics`, derived from a figure of the schema where there is one: its name
/// from the figure's unit (Prometheus's naming rules: the unit as a suffix, `_total` on a counter), its help from
/// the figure's summary. ``MetricSchema`` lists them.
public struct Metric: Sendable, Equatable {
    /// Prometheus's metric types that jacktap uses.
    public enum MetricType: String, Sendable {
        case gauge
        case counter
    }

    /// Where the value comes from.
    public enum Reading: Sendable, Equatable {
        /// The newest tick's value of the figure's argument.
        case newest
        /// The highest value of the figure since the previous scrape, so that no peak between scrapes is lost.
        case maximumSinceScrape
        /// How many times the event figure was sent (`beat`), or the figure's count carried over resets and
        /// restarts so that the counter only grows (`clip`, `status`'s xruns and overruns, `restarted`).
        case count
        /// A figure of the run's settings, not of the audio (the target, the version).
        case setting
    }

    /// The full name: `jacktap_peak_dbfs`.
    public let name: String
    public let type: MetricType
    /// `# HELP`'s text.
    public let help: String
    /// The figure it exports; nil for the run's settings.
    public let figure: Figure?
    /// Which of the figure's arguments (0-based).
    public let argument: Int
    public let reading: Reading
    /// Its labels besides `client`, in order: `port` and `source` for a port's, `programme`, `pair`, `band`, `version`.
    public let labels: [String]

    /// A metric of `figure`'s `argument`: named `jacktap_` + `base` + the unit's suffix (+ `_total` for a counter).
    public init(_ base: String, _ type: MetricType = .gauge, figure: Figure, argument: Int = 0,
                reading: Reading = .newest, extraLabels: [String] = [], help: String? = nil) {
        let unit = Self.unitSuffix(figure: figure, type: type)
        name = "jacktap_" + base + (unit.isEmpty ? "" : "_" + unit) + (type == .counter ? "_total" : "")
        self.type = type
        self.figure = figure
        self.argument = argument
        self.reading = reading
        labels = Self.scopeLabels(figure.scope) + extraLabels
        self.help = help ?? Self.capitalised(figure.summary)
    }

    /// A metric of the run's own, not of a figure.
    public init(name: String, type: MetricType = .gauge, labels: [String], help: String) {
        self.name = name
        self.type = type
        figure = nil
        argument = 0
        reading = .setting
        self.labels = labels
        self.help = help
    }

    /// The unit as Prometheus's naming rules want it at the end of a name: dBFS → `dbfs`, LUFS → `lufs`;
    /// 0..1 levels → `ratio`; counts, states and correlations none.
    static func unitSuffix(figure: Figure, type: MetricType) -> String {
        if type == .counter { return "" }
        if figure.kind == .level { return "ratio" }
        return figure.unit.lowercased().filter { $0.isLetter }
    }

    static func scopeLabels(_ scope: FigureScope) -> [String] {
        switch scope {
        case .port: ["port", "source"]
        case .programme: ["programme"]
        case .pair: ["pair"]
        case .session: []
        }
    }

    static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
