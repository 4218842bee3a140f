import Analysis
import Foundation

/// What a loudness programme measured between a start (or reset) and a reset, a restart or the end: EBU R128's
/// figures against the target, written as JSON and as one CSV line (`--loudness-log`, `analyze --report`).
public struct ProgrammeReport: Sendable, Equatable {
    public var client: String
    public var programme: String
    /// The audio file, for `analyze --report`; nil live.
    public var file: String?
    /// Why the measurement ended: `reset`, `restart` (the analysis started again), `exit`, `end` (of a file).
    public var reason: String
    /// Wall-clock instants of its start and end (seconds since 1970), live; nil for a file.
    public var startWall: Double?
    public var endWall: Double?
    /// Its start and end in seconds of audio since the analysis started.
    public var startSeconds: Double
    public var endSeconds: Double
    /// Seconds of audio while paused.
    public var pausedSeconds: Double
    public var integrated: Float
    public var range: Float
    public var maxMomentary: Float
    public var maxShortTerm: Float
    /// dBTP; nil without the true-peak meter.
    public var maxTruePeak: Float?
    public var target: LoudnessTarget

    /// A report with every figure given.
    public init(client: String, programme: String, file: String? = nil, reason: String, startWall: Double? = nil,
                endWall: Double? = nil, startSeconds: Double, endSeconds: Double, pausedSeconds: Double,
                integrated: Float, range: Float, maxMomentary: Float, maxShortTerm: Float, maxTruePeak: Float?,
                target: LoudnessTarget) {
        self.client = client
        self.programme = programme
        self.file = file
        self.reason = reason
        self.startWall = startWall
        self.endWall = endWall
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.pausedSeconds = pausedSeconds
        self.integrated = integrated
        self.range = range
        self.maxMomentary = maxMomentary
        self.maxShortTerm = maxShortTerm
        self.maxTruePeak = maxTruePeak
        self.target = target
    }

    /// The report of a measurement whose last reading is `reading`: its name and figures come from it.
    public init(client: String, file: String? = nil, reason: String, startWall: Double? = nil, endWall: Double? = nil,
                startSeconds: Double, endSeconds: Double, pausedSeconds: Double, reading: ProgrammeReading,
                target: LoudnessTarget) {
        self.init(client: client, programme: reading.name, file: file, reason: reason, startWall: startWall,
                  endWall: endWall, startSeconds: startSeconds, endSeconds: endSeconds, pausedSeconds: pausedSeconds,
                  integrated: reading.integrated, range: reading.range, maxMomentary: reading.maxMomentary,
                  maxShortTerm: reading.maxShortTerm, maxTruePeak: reading.maxTruePeakDB, target: target)
    }

    public var durationSeconds: Double { endSeconds - startSeconds }

    /// Within the target's tolerance (EBU R128: -23 ± 1 LU for a live programme).
    public var passes: Bool { target.passes(integrated: Double(integrated)) }

    /// The report as one JSON object, keys in a fixed order.
    public func json() -> String {
        func number(_ value: Double?, _ decimals: Int) -> String {
            guard let value, value.isFinite else { return "null" }
            return String(format: "%.\(decimals)f", value)
        }
        func text(_ value: String?) -> String {
            guard let value else { return "null" }
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
            return data.flatMap { String(data: $0, encoding: .utf8) }.map { String($0.dropFirst().dropLast()) } ?? "\"\""
        }
        let fields: [(String, String)] = [
            ("client", text(client)), ("programme", text(programme)), ("file", text(file)), ("reason", text(reason)),
            ("start", text(startWall.map(Self.iso8601))), ("end", text(endWall.map(Self.iso8601))),
            ("start_s", number(startSeconds, 3)), ("end_s", number(endSeconds, 3)),
            ("duration_s", number(durationSeconds, 3)), ("paused_s", number(pausedSeconds, 3)),
            ("integrated_lufs", number(Double(integrated), 2)), ("range_lu", number(Double(range), 2)),
            ("max_momentary_lufs", number(Double(maxMomentary), 2)),
            ("max_shortterm_lufs", number(Double(maxShortTerm), 2)),
            ("max_true_peak_dbtp", number(maxTruePeak.map(Double.init), 2)),
            ("target_lufs", number(target.lufs, 1)), ("tolerance_lu", number(target.toleranceLU, 1)),
            ("result", text(passes ? "pass" : "fail")),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// The CSV summary's header line.
    public static let csvHeader = "client,programme,file,reason,start,end,start_s,end_s,duration_s,paused_s,"
        + "integrated_lufs,range_lu,max_momentary_lufs,max_shortterm_lufs,max_true_peak_dbtp,target_lufs,tolerance_lu,result"

    /// The report as one CSV line (RFC 4180 quoting), in the header's order.
    public func csvLine() -> String {
        func number(_ value: Double?, _ decimals: Int) -> String {
            guard let value, value.isFinite else { return "" }
            return String(format: "%.\(decimals)f", value)
        }
        return [
            Self.csvField(client), Self.csvField(programme), Self.csvField(file ?? ""), reason,
            startWall.map(Self.iso8601) ?? "", endWall.map(Self.iso8601) ?? "",
            number(startSeconds, 3), number(endSeconds, 3), number(durationSeconds, 3), number(pausedSeconds, 3),
            number(Double(integrated), 2), number(Double(range), 2), number(Double(maxMomentary), 2),
            number(Double(maxShortTerm), 2), number(maxTruePeak.map(Double.init), 2), number(target.lufs, 1),
            number(target.toleranceLU, 1), passes ? "pass" : "fail",
        ].joined(separator: ",")
    }

    /// A field quoted when it holds a comma, a quote or a line break (RFC 4180).
    static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `2026-11-26T07:20:01.250Z`.
    static func iso8601(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
