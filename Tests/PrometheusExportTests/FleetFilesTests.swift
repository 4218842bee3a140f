import Foundation
import Schema
import ToolSupport
import XCTest

/// jack/prometheus: the rules and the dashboard name only metrics jacktap exports, and promtool checks the
/// configuration and the rules and runs the rules' unit tests.
final class FleetFilesTests: XCTestCase {
    /// Every `jacktap_…` name in a file, and every recording rule (`jacktap:…`) it defines or uses.
    func names(in relative: String) throws -> (metrics: Set<String>, recorded: Set<String>) {
        let text = try String(contentsOfFile: Tool.repositoryPath(relative), encoding: .utf8)
        let metric = try Regex("jacktap_[a-z0-9_]+")
        let recorded = try Regex("jacktap:[a-zA-Z0-9_:]+")
        return (Set(text.matches(of: metric).map { String(text[$0.range]) }),
                Set(text.matches(of: recorded).map { String(text[$0.range]) }))
    }

    func testTheDashboardAndTheRulesNameOnlyMetricsJacktapExports() throws {
        let rules = try names(in: "jack/prometheus/jacktap-rules.yml")
        let dashboard = try names(in: "jack/prometheus/grafana-dashboard.json")
        // Label values that look like names (`job="jacktap"`) never match: a metric name has `jacktap_` and more.
        for (file, found) in [("jacktap-rules.yml", rules.metrics), ("grafana-dashboard.json", dashboard.metrics)] {
            XCTAssertFalse(found.isEmpty, file)
            XCTAssertEqual(found.subtracting(MetricSchema.names), [], "\(file) names metrics jacktap does not export")
        }
        XCTAssertEqual(dashboard.recorded.subtracting(rules.recorded), [],
                       "the dashboard uses only recording rules the rules file defines")
    }

    func testPromtoolChecksTheConfigurationAndTheRulesAndTheRulesPassTheirUnitTests() throws {
        // The script also parses every dashboard query with promtool and, given the names, checks them too.
        var environment = ProcessInfo.processInfo.environment
        environment["JACKTAP_METRICS"] = MetricSchema.names.sorted().joined(separator: " ")
        let run = try Tool.capture(Tool.repositoryPath("jack/prometheus/check"), [], environment: environment)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    }
}
