import Schema
import XCTest

/// The metrics of `GET /metrics` come from the figures of the schema, named by Prometheus's rules.
final class MetricSchemaTests: XCTestCase {
    func testEveryMetricOfAFigureNamesADeclaredFigureAndItsUnit() {
        for metric in MetricSchema.all {
            guard let figure = metric.figure else {
                XCTAssertEqual(metric.reading, .setting, metric.name)
                continue
            }
            XCTAssertTrue(FigureSchema.all.contains(figure), "\(metric.name): \(figure.path) is declared")
            XCTAssertLessThan(metric.argument, figure.arguments.count, metric.name)
            switch (metric.type, figure.unit) {
            case (.counter, _): XCTAssertTrue(metric.name.hasSuffix("_total"), metric.name)
            case (.gauge, "dBFS"): XCTAssertTrue(metric.name.hasSuffix("_dbfs"), metric.name)
            case (.gauge, "dBTP"): XCTAssertTrue(metric.name.hasSuffix("_dbtp"), metric.name)
            case (.gauge, "LUFS"): XCTAssertTrue(metric.name.hasSuffix("_lufs"), metric.name)
            case (.gauge, "LU"): XCTAssertTrue(metric.name.hasSuffix("_lu"), metric.name)
            case (.gauge, "BPM"): XCTAssertTrue(metric.name.hasSuffix("_bpm"), metric.name)
            default: break
            }
            if figure.scope == .port { XCTAssertEqual(Array(metric.labels.prefix(2)), ["port", "source"], metric.name) }
            if figure.scope == .programme { XCTAssertEqual(metric.labels.first, "programme", metric.name) }
        }
    }

    func testNamesAreUniqueAndPrometheusNames() throws {
        XCTAssertEqual(MetricSchema.names.count, MetricSchema.all.count)
        let valid = try Regex("^jacktap_[a-z0-9_]*[a-z0-9]$")
        for name in MetricSchema.names { XCTAssertNotNil(try valid.wholeMatch(in: name), name) }
        // The names, which dashboards and rules already use.
        for name in ["jacktap_peak_dbfs", "jacktap_rms_dbfs", "jacktap_true_peak_dbtp", "jacktap_loudness_momentary_lufs",
                     "jacktap_loudness_shortterm_lufs", "jacktap_loudness_integrated_lufs", "jacktap_loudness_range_lu",
                     "jacktap_correlation", "jacktap_tempo_bpm", "jacktap_clips_total", "jacktap_xruns_total",
                     "jacktap_periods_dropped_total", "jacktap_beats_total", "jacktap_server_restarts_total",
                     "jacktap_up", "jacktap_build_info"] {
            XCTAssertTrue(MetricSchema.names.contains(name), name)
        }
    }
}
