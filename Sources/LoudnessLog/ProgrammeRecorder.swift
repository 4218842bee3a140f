import Analysis

/// Follows each loudness programme tick by tick: a row of the log every second of audio and a report whenever a
/// measurement ends (a reset, a restart of the analysis, the end). Pure bookkeeping, no I/O: ``LoudnessLogFeed``
/// writes what it returns, `analyze --report` prints it.
public final class ProgrammeRecorder {
    /// One row of a programme's log: its figures at a whole second of the measurement.
    public struct Row: Sendable, Equatable {
        public var programme: String
        /// Wall-clock time (seconds since 1970), live; nil for a file.
        public var wall: Double?
        /// Seconds of audio since the measurement started.
        public var second: Int
        public var reading: ProgrammeReading

        /// The header of a log file.
        public static let csvHeader = "time,second,momentary_lufs,shortterm_lufs,integrated_lufs,range_lu,"
            + "max_true_peak_dbtp,paused"

        public func csvLine() -> String {
            func lufs(_ value: Float) -> String { String(format: "%.2f", value) }
            return [wall.map(ProgrammeReport.iso8601) ?? "", String(second), lufs(reading.momentary),
                    lufs(reading.shortTerm), lufs(reading.integrated), lufs(reading.range),
                    reading.maxTruePeakDB.map(lufs) ?? "", reading.paused ? "1" : "0"].joined(separator: ",")
        }
    }

    private struct Measurement {
        var startSeconds: Double
        var startWall: Double?
        var resets: Int
        var last: ProgrammeReading
        var lastSeconds: Double
        var lastWall: Double?
        var pausedSeconds = 0.0
        var nextRow = 1
    }

    public let client: String
    public let target: LoudnessTarget
    public let file: String?
    private var measurements: [String: Measurement] = [:]
    private var order: [String] = []
    private var lastTime = -Double.infinity

    public init(client: String, target: LoudnessTarget, file: String? = nil) {
        self.client = client
        self.target = target
        self.file = file
    }

    /// A tick; `wall` is the wall-clock time of its audio (nil for a file). Returns the rows and reports it ends.
    public func take(_ snapshot: Snapshot, wall: Double?) -> (rows: [Row], reports: [ProgrammeReport]) {
        var rows = [Row]()
        var reports = [ProgrammeReport]()
        // A new engine (a server restart, a rate change, more inputs) counts its audio from 0 again.
        if snapshot.time < lastTime { reports += finish(reason: "restart") }
        lastTime = snapshot.time
        for reading in snapshot.programmes {
            guard var measurement = measurements[reading.name] else {
                // The first tick of an engine: the measurement began at its audio's start.
                measurements[reading.name] = Measurement(
                    startSeconds: 0, startWall: wall.map { $0 - snapshot.time }, resets: reading.resets,
                    last: reading, lastSeconds: snapshot.time, lastWall: wall)
                order.append(reading.name)
                rows += dueRows(&measurements[reading.name]!, reading, snapshot.time, wall)
                continue
            }
            if reading.resets != measurement.resets {
                // Reset at this poll: the audio up to the previous tick was the old measurement's.
                reports.append(report(measurement, reason: "reset"))
                measurement = Measurement(startSeconds: measurement.lastSeconds, startWall: measurement.lastWall,
                                          resets: reading.resets, last: reading, lastSeconds: measurement.lastSeconds,
                                          lastWall: measurement.lastWall)
            }
            if reading.paused { measurement.pausedSeconds += snapshot.time - measurement.lastSeconds }
            measurement.last = reading
            measurement.lastSeconds = snapshot.time
            measurement.lastWall = wall
            rows += dueRows(&measurement, reading, snapshot.time, wall)
            measurements[reading.name] = measurement
        }
        return (rows, reports)
    }

    /// Ends every measurement (at exit, at the end of a file, at a restart): their reports.
    public func finish(reason: String) -> [ProgrammeReport] {
        let reports = order.compactMap { measurements[$0].map { report($0, reason: reason) } }
        measurements = [:]
        order = []
        return reports
    }

    private func dueRows(_ measurement: inout Measurement, _ reading: ProgrammeReading, _ time: Double,
                         _ wall: Double?) -> [Row] {
        var rows = [Row]()
        while time - measurement.startSeconds >= Double(measurement.nextRow) - 1e-9 {
            rows.append(Row(programme: reading.name, wall: wall, second: measurement.nextRow, reading: reading))
            measurement.nextRow += 1
        }
        return rows
    }

    private func report(_ m: Measurement, reason: String) -> ProgrammeReport {
        ProgrammeReport(client: client, file: file, reason: reason, startWall: m.startWall, endWall: m.lastWall,
                        startSeconds: m.startSeconds, endSeconds: m.lastSeconds, pausedSeconds: m.pausedSeconds,
                        reading: m.last, target: target)
    }
}
