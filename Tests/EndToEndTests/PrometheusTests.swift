import Foundation
import ToolSupport
import XCTest

/// A real Prometheus (Debian's `prometheus`, started here with its own configuration and data directory) scrapes
/// two jacktaps on two private jackd servers, and promtool checks what they expose.
final class PrometheusTests: XCTestCase {
    /// One jacktap tapping a steady tone on its own server, with `--metrics` and `--json` to a file.
    struct Tap {
        let client: String
        let metricsPort: UInt16
        let jsonPath: String
        let process: ChildProcess
    }

    func startTap(_ client: String, level: String, extra: [String] = []) throws -> Tap {
        let server = try privateServer()
        try backgroundGenerator(["--tone", "997", "--level", level, "--name", "tone"], server: server)
        let port = Tool.freeTCPPort()
        let json = Tool.temporaryPath("\(client).jsonl")
        addTeardownBlock { unlink(json) }
        let process = try background(Tool.jacktap, ["tone:out_1", "-n", client, "--metrics", "127.0.0.1:\(port)",
                                                    "--json", "--quiet"] + extra, server: server, stdoutPath: json)
        return Tap(client: client, metricsPort: port, jsonPath: json, process: process)
    }

    /// The body of an HTTP GET on loopback, nil when nothing answers (python's urllib: no client of jacktap's own).
    func get(_ url: String) -> String? {
        let run = try? Tool.capture("python3", ["-c", """
            import sys, urllib.request
            try:
                sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())
            except Exception as e:
                sys.exit(1)
            """, url])
        return run?.status == 0 ? run?.stdout : nil
    }

    /// Prometheus's instant query: each result's labels and value.
    func query(_ prometheus: UInt16, _ expression: String) -> [(labels: [String: String], value: Double)] {
        let encoded = expression.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? expression
        guard let body = get("http://127.0.0.1:\(prometheus)/api/v1/query?query=\(encoded)"),
              let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
              let data = json["data"] as? [String: Any], let results = data["result"] as? [[String: Any]] else { return [] }
        return results.compactMap { result in
            guard let labels = result["metric"] as? [String: String], let pair = result["value"] as? [Any],
                  let text = pair.last as? String, let value = Double(text) else { return nil }
            return (labels, value)
        }
    }

    func startPrometheus(targets: [UInt16]) throws -> UInt16 {
        let directory = Tool.temporaryPath("prometheus-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let config = """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: jacktap
                static_configs:
                  - targets: [\(targets.map { "'127.0.0.1:\($0)'" }.joined(separator: ", "))]
            """
        try config.write(toFile: directory + "/prometheus.yml", atomically: true, encoding: .utf8)
        let port = Tool.freeTCPPort()
        _ = try background("prometheus", ["--config.file=\(directory)/prometheus.yml",
                                          "--storage.tsdb.path=\(directory)/data",
                                          "--web.listen-address=127.0.0.1:\(port)"],
                           stderrPath: directory + "/prometheus.log")
        return port
    }

    func testPrometheusScrapesTwoJacktapsAndReadsWhatJSONPrinted() throws {
        let taps = [try startTap("studio1", level: "-6.0206"), try startTap("studio2", level: "-20")]
        let prometheus = try startPrometheus(targets: taps.map(\.metricsPort))
        // Both scraped, both with a full momentary window of the tone (its 400 ms window filled).
        let ready = waitFor(timeout: 60, every: 0.5) {
            let momentary = query(prometheus, "jacktap_loudness_momentary_lufs > -100")
            return Set(momentary.compactMap { $0.labels["client"] }) == ["studio1", "studio2"]
        }
        XCTAssertTrue(ready, "Prometheus read both jacktaps' loudness")
        for tap in taps {
            let selector = "{client=\"\(tap.client)\",port=\"in_1\",source=\"tone:out_1\"}"
            let peak = try XCTUnwrap(query(prometheus, "jacktap_peak_dbfs" + selector).first, tap.client)
            let momentary = try XCTUnwrap(query(prometheus, "jacktap_loudness_momentary_lufs{client=\"\(tap.client)\"}").first)
            XCTAssertEqual(momentary.labels["programme"], "main")
            // The scraped values are those of one tick --json printed (to its 3 decimals), read after the query.
            let lines = tickLines(jsonLines(try String(contentsOfFile: tap.jsonPath, encoding: .utf8)))
            let printedPeaks = lines.compactMap { ($0["in_1"] as? [String: Any])?["peak"] as? Double }
            let printedMomentary = lines.compactMap {
                (($0["main"] as? [String: Any])?["loudness"] as? [String: Double])?["momentary"]
            }
            XCTAssertTrue(printedPeaks.contains { abs($0 - peak.value) <= 0.0005 },
                          "\(tap.client): peak \(peak.value) is one --json printed (\(Set(printedPeaks)))")
            XCTAssertTrue(printedMomentary.contains { abs($0 - momentary.value) <= 0.0005 },
                          "\(tap.client): momentary \(momentary.value) is one --json printed")
            XCTAssertEqual(query(prometheus, "jacktap_up{client=\"\(tap.client)\"}").first?.value, 1)
            XCTAssertEqual(query(prometheus, "up{instance=\"127.0.0.1:\(tap.metricsPort)\"}").first?.value, 1)
        }
        // The standard's figures too: a mono 997 Hz tone at -20 dBFS reads -23.0 LUFS (BS.1770-4 / Tech 3341),
        // a sine of amplitude 0.5 peaks at -6.02 dBFS.
        let studio2 = try XCTUnwrap(query(prometheus, "jacktap_loudness_momentary_lufs{client=\"studio2\"}").first)
        XCTAssertEqual(studio2.value, -23.0, accuracy: 0.05)
        let studio1 = try XCTUnwrap(query(prometheus, "jacktap_peak_max_dbfs{client=\"studio1\"}").first)
        XCTAssertEqual(studio1.value, -6.02, accuracy: 0.01)

        // What a scrape returns passes promtool's own check, lint included.
        let text = try XCTUnwrap(get("http://127.0.0.1:\(taps[0].metricsPort)/metrics"))
        let path = Tool.temporaryPath("live-exposition.prom")
        defer { unlink(path) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try Tool.capture("/bin/sh", ["-c", "promtool check metrics < \(path)"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(check.stdout + check.stderr, "")

        for tap in taps {
            tap.process.signal(SIGTERM)
            XCTAssertEqual(tap.process.wait(), 0, tap.client)
        }
    }

    func testAStormOfConcurrentScrapesNeitherStopsJacktapNorDropsAPeriod() throws {
        let tap = try startTap("storm", level: "-12")
        let url = "http://127.0.0.1:\(tap.metricsPort)/metrics"
        XCTAssertTrue(waitFor { get(url)?.contains("jacktap_peak_dbfs") ?? false }, "the first tick is exposed")
        // 200 scrapes at once, 5 rounds.
        let storm = try Tool.capture("python3", ["-c", """
            import sys, threading, urllib.request
            url, ok, lock = sys.argv[1], [0], threading.Lock()
            def scrape():
                try:
                    body = urllib.request.urlopen(url, timeout=30).read().decode()
                    if "jacktap_peak_dbfs" in body:
                        with lock: ok[0] += 1
                except Exception as e:
                    print(e, file=sys.stderr)
            for _ in range(5):
                threads = [threading.Thread(target=scrape) for _ in range(200)]
                for t in threads: t.start()
                for t in threads: t.join()
            print(ok[0])
            """, url])
        XCTAssertEqual(storm.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1000", storm.stderr)
        XCTAssertTrue(tap.process.isRunning)
        let after = try XCTUnwrap(get(url))
        XCTAssertTrue(after.contains("jacktap_periods_dropped_total{client=\"storm\"} 0\n"), after)
        tap.process.signal(SIGTERM)
        XCTAssertEqual(tap.process.wait(), 0)
        let lines = tickLines(jsonLines(try String(contentsOfFile: tap.jsonPath, encoding: .utf8)))
        XCTAssertFalse(lines.isEmpty)
    }
}
