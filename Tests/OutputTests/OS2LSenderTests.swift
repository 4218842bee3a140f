import Foundation
import Sync
import Synchronization
import ToolSupport
import XCTest

/// The OS2L beat message as the OS2L protocol document writes it (`{"evt":"beat","change":false,"pos":N,
/// "bpm":B,"strength":S}`), and what the sender does with beats while its receiver is down.
final class OS2LSenderTests: XCTestCase {
    func testABeatIsOneCompactJSONObjectInTheProtocolsFieldOrder() {
        let downbeat = OS2LSender.Beat(count: 17, bpm: 120, beatInBar: 1, change: false)
        XCTAssertEqual(OS2LSender.message(downbeat),
                       #"{"evt":"beat","change":false,"pos":17,"bpm":120.0,"strength":1.0}"#)
        let offbeat = OS2LSender.Beat(count: 0, bpm: 87.654321, beatInBar: 3, change: true)
        XCTAssertEqual(OS2LSender.message(offbeat),
                       #"{"evt":"beat","change":true,"pos":0,"bpm":87.65,"strength":0.5}"#)
    }

    func testTheTempoIsRoundedToHundredthsAndEveryMessageParsesAsJSON() throws {
        for bpm in stride(from: 55.0, through: 215.0, by: 0.0137) {
            let beat = OS2LSender.Beat(count: Int(bpm * 10), bpm: bpm, beatInBar: Int(bpm) % 4 + 1, change: false)
            let text = OS2LSender.message(beat)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
            XCTAssertEqual(object["evt"] as? String, "beat")
            XCTAssertEqual(object["pos"] as? Int, Int(bpm * 10))
            XCTAssertEqual(object["bpm"] as? Double ?? 0, (bpm * 100).rounded() / 100, accuracy: 1e-9, text)
            XCTAssertEqual(object["strength"] as? Double, Int(bpm) % 4 == 0 ? 1 : 0.5, text)
            XCTAssertFalse(text.contains(" "), "compact: \(text)")
        }
    }

    /// A receiver that is not there: the beats handed over are dropped, none waits to be flashed late, and
    /// `send` returns at once whatever the network does.
    func testBeatsForAReceiverThatIsDownAreDroppedNotHeld() throws {
        let port = Tool.freeTCPPort()
        let said = LockedLines()
        let sender = OS2LSender(host: "127.0.0.1", port: port) { said.append($0) }
        sender.start()
        defer { sender.stop() }
        for count in 0..<20 { sender.send(.init(count: count, bpm: 120, beatInBar: count % 4 + 1, change: count == 0)) }
        let deadline = Date().addingTimeInterval(30)
        while sender.dropped < 20 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(sender.dropped, 20, "every beat dropped (more than the queue holds, or stale)")
        XCTAssertEqual(sender.sent, 0)
        XCTAssertTrue(said.all.contains { $0.contains("OS2L") && $0.contains("trying again") }, "\(said.all)")
    }
}

/// Lines said by the sender's thread, read by the test's.
final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
