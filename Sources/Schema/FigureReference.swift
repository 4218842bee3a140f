/// The OSC reference, written from ``FigureSchema``: docs/osc-reference.md is its output (`jacktap figures`), and
/// a test fails when the file differs from it.
public enum FigureReference {
    /// The reference as Markdown: a table per scope, one row per figure.
    public static func markdown(prefix: String = "/jacktap") -> String {
        var out = """
            # OSC reference

            Written by `jacktap figures` from the schema of figures (Sources/Schema/FigureSchema.swift); do not edit
            it by hand. Every address below is under `\(prefix)` unless `--prefix` or a destination's `prefix=` says
            otherwise. `<port>` is an input port's short name (`in_1`, sanitised: no space `# * , / ? [ ] { }`),
            `<programme>` a loudness programme (`main`), `<pair>` a `--pair`. Only the tags `i f s` are sent; `f*` is
            as many floats as the option says. dB values are floored at -200: no receiver ever sees -inf or NaN.
            "Scaled" says what a destination's `scale=unit|byte|percent` does to the figure: dB mapped from its
            floor..ceiling, 0..1 clamped, or sent as it is.


            """
        for scope in FigureScope.allCases {
            let figures = FigureSchema.all.filter { $0.scope == scope }
            guard !figures.isEmpty else { continue }
            out += "## \(title(scope))\n\n"
            out += "| address | types | arguments | range | sent | timetag | scaled | meaning |\n"
            out += "|---|---|---|---|---|---|---|---|\n"
            for figure in figures {
                let cells = [
                    "`" + figure.pattern(prefix: prefix) + "`",
                    figure.typeTags,
                    figure.arguments.joined(separator: "; "),
                    figure.range.map(bounds) ?? "",
                    figure.cadence.rawValue,
                    figure.instant.rawValue,
                    scaled(figure.kind.scaling),
                    figure.summary,
                ]
                out += "| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |\n"
            }
            out += "\n"
        }
        out += metricsMarkdown()
        return out
    }

    /// The Prometheus metrics (``MetricSchema``): one row per metric, with the figure it exports.
    static func metricsMarkdown() -> String {
        var out = """
            ## Prometheus metrics (`GET /metrics`)

            Served under `--http` and `--metrics`, in the text exposition format 0.0.4. Every sample has the label
            `client` (the JACK client's name); a port's also `port` and `source` (the JACK port feeding it), a
            programme's `programme`, a pair's `pair`. dB and LUFS of silence read -200, never -Inf.
            jack/prometheus has a scrape configuration, rules and a Grafana dashboard that use these names.

            | metric | type | labels | figure | meaning |
            |---|---|---|---|---|

            """
        for metric in MetricSchema.all {
            let cells = [
                "`" + metric.name + "`", metric.type.rawValue, (["client"] + metric.labels).joined(separator: ", "),
                metric.figure.map { "`" + $0.suffix.dropFirst() + "`" } ?? "", metric.help,
            ]
            out += "| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |\n"
        }
        return out + "\n"
    }

    private static func title(_ scope: FigureScope) -> String {
        switch scope {
        case .port: "Per input port"
        case .programme: "Per loudness programme"
        case .pair: "Per pair"
        case .session: "The run"
        }
    }

    private static func bounds(_ range: ClosedRange<Double>) -> String {
        func text(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        return text(range.lowerBound) + "…" + text(range.upperBound)
    }

    private static func scaled(_ kind: ValueKind) -> String {
        switch kind {
        case .decibels: "dB"
        case .unit: "0..1"
        case .cyclicUnit: "0..1, never smoothed"
        case .asIs: "as it is"
        }
    }
}

extension String {
    /// A table cell's text: a `|` would end the cell.
    fileprivate func replacingPipes() -> String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
