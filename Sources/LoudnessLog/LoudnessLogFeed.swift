import Analysis

/// `--loudness-log DIR`: each programme's figures once a second in `CLIENT-PROGRAMME.csv`, and at each reset,
/// restart and exit a report, as `CLIENT-PROGRAMME-START.json` and one line of `CLIENT-PROGRAMME-reports.csv`.
/// The analysis thread hands each tick over; ``LoudnessLogWriter`` writes on its own thread.
public final class LoudnessLogFeed {
    let recorder: ProgrammeRecorder
    let writer: LoudnessLogWriter

    public init(recorder: ProgrammeRecorder, writer: LoudnessLogWriter) {
        self.recorder = recorder
        self.writer = writer
    }

    /// A tick, with the wall-clock time of its audio.
    public func record(_ snapshot: Snapshot, wall: Double) {
        let (rows, reports) = recorder.take(snapshot, wall: wall)
        for row in rows {
            writer.append(row.csvLine(), to: Self.fileName(recorder.client, row.programme) + ".csv",
                          header: ProgrammeRecorder.Row.csvHeader)
        }
        write(reports)
    }

    /// Ends every measurement with a report (at exit), and writes what is queued.
    public func finish() {
        write(recorder.finish(reason: "exit"))
        writer.stop()
    }

    func write(_ reports: [ProgrammeReport]) {
        for report in reports {
            let base = Self.fileName(report.client, report.programme)
            let stamp = ProgrammeReport.iso8601(report.startWall ?? 0).filter { $0.isNumber || $0 == "T" }
            writer.append(report.json(), to: "\(base)-\(stamp).json", header: "")
            writer.append(report.csvLine(), to: base + "-reports.csv", header: ProgrammeReport.csvHeader)
        }
    }

    /// `client-programme`, with anything but letters, digits, `-`, `_` and `.` made `_`.
    static func fileName(_ client: String, _ programme: String) -> String {
        String((client + "-" + programme).map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
    }
}
