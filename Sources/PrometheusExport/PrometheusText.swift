import Schema

/// The Prometheus text exposition format 0.0.4, written one metric family at a time: `# HELP` and `# TYPE`
/// once before a family's first sample (and not at all for a family without samples), label values and help
/// escaped as the format says, numbers as Prometheus's parser reads them.
struct PrometheusText {
    private(set) var text = ""
    private var family: String?

    /// One sample of `metric`; `labels` in the metric's order, `client` first.
    mutating func sample(_ metric: Metric, _ labels: [(String, String)], _ value: Double) {
        if family != metric.name {
            family = metric.name
            text += "# HELP \(metric.name) \(Self.escapedHelp(metric.help))\n# TYPE \(metric.name) \(metric.type.rawValue)\n"
        }
        text += metric.name
        if !labels.isEmpty {
            text += "{"
            for (i, (name, value)) in labels.enumerated() {
                if i > 0 { text += "," }
                text += name + "=\"" + Self.escapedLabel(value) + "\""
            }
            text += "}"
        }
        text += " " + Self.number(value) + "\n"
    }

    /// A label value: backslash, double quote and line feed escaped.
    static func escapedLabel(_ value: String) -> String { escaped(value, quote: true) }

    /// `# HELP` text: backslash and line feed escaped.
    static func escapedHelp(_ value: String) -> String { escaped(value, quote: false) }

    static func escaped(_ value: String, quote: Bool) -> String {
        var out = ""
        for c in value {
            switch c {
            case "\\": out += "\\\\"
            case "\"" where quote: out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    /// A value as Go's ParseFloat reads it: whole numbers without a fraction, others in the fewest digits that
    /// give the same Float back (jacktap's figures are Floats), non-finite ones as `NaN`, `+Inf`, `-Inf`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return Float(exactly: value).map { "\($0)" } ?? "\(value)"
    }
}
