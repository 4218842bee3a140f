import Analysis
import DSP
import Foundation
import JSONOut
import Output
import Synchronization
import XCTest

/// One writer for `--json` and the meter bridge: the feed gets exactly the lines stdout gets.
final class SnapshotSinksTests: XCTestCase {
    final class CollectingFeed: JSONLineFeed {
        let lines = Mutex<[String]>([])
        func tick(_ line: String) { lines.withLock { $0.append("tick " + line) } }
        func event(_ line: String) { lines.withLock { $0.append("event " + line) } }
        func status(_ line: String) { lines.withLock { $0.append("status " + line) } }
    }

    func testTheFeedGetsTheSameTicksAndEventsAsJSONLines() {
        let printed = Mutex<[String]>([])
        let feed = CollectingFeed()
        let sinks = SnapshotSinks(router: nil, json: true, view: nil, feed: feed,
                                  write: { text in printed.withLock { $0.append(text) } })
        let port = PortReading(name: "in_1", peakDB: -6.0206, rmsDB: -9.03, level: 0.85, bands: [0.25, 1],
                               pitch: nil, note: MusicalNote(frequency: 440))
        sinks.publish(Snapshot(time: 1.5, ports: [port], overruns: 0))
        sinks.publish(AnalysisEvent(port: "in_1", kind: .beat(count: 3, bpm: 120, bar: .init(bar: 1, beat: 3, beatsPerBar: 4)),
                                    time: 1.52, reported: 1.5))
        sinks.publish(AnalysisEvent(port: "in_1", kind: .onset(strength: 0.5), time: 1.53, reported: 1.531))
        let stdout = printed.withLock { $0 }
        XCTAssertEqual(stdout.count, 3)
        XCTAssertEqual(feed.lines.withLock { $0 }, [
            "tick " + stdout[0].dropLast(), "event " + stdout[1].dropLast(), "event " + stdout[2].dropLast(),
        ], "the feed's lines are --json's, without the newline")
    }

    func testTheFeedIsFedWithoutJSONOnStdout() {
        let feed = CollectingFeed()
        let sinks = SnapshotSinks(router: nil, json: false, view: nil, feed: feed, write: { _ in XCTFail("nothing on stdout") })
        sinks.publish(Snapshot(time: 0.5, ports: [], overruns: 0))
        XCTAssertEqual(feed.lines.withLock { $0 }, ["tick {\"t\": 0.5000}"])
    }

    func testTheStatusLineIsOneJSONObject() throws {
        let line = JSONLines.statusLine(state: "disconnected", xruns: 3, overruns: 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]])
        XCTAssertEqual(object["status"]?["state"] as? String, "disconnected")
        XCTAssertEqual(object["status"]?["xruns"] as? Int, 3)
        XCTAssertEqual(object["status"]?["overruns"] as? Int, 1)
    }
}
