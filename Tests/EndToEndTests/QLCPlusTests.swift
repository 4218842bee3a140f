import Foundation
import ToolSupport
import XCTest

/// jacktap driving a real lighting console: QLC+ 4.12 run headless with a workspace whose Virtual Console slider
/// is bound to `/jacktap/in_1/level`, its position read back over QLC+'s web socket.
final class QLCPlusTests: XCTestCase {
    static let levelPath = "/jacktap/in_1/level"
    /// The slider's ID in Fixtures/qlcplus/jacktap-level.qxw.
    static let sliderID = 1

    var console: QLCPlusConsole?
    var server: PrivateJackServer?
    var background: [ChildProcess] = []

    override func setUpWithError() throws {
        guard QLCPlusConsole.executable != nil else {
            throw XCTSkip("qlcplus is not installed (Debian: apt-get install --no-install-recommends qlcplus); "
                + "the QLC+ round trip is not tested")
        }
        guard QLCPlusConsole.udpPortIsFree(QLCPlusConsole.oscInputPort) else {
            throw Tool.Failed(description: "UDP 127.0.0.1:\(QLCPlusConsole.oscInputPort) is taken (another QLC+?); "
                + "the test's QLC+ listens there")
        }
        console = try QLCPlusConsole(workspace: "jacktap-level.qxw", readyWidget: QLCPlusTests.sliderID)
    }

    override func tearDown() {
        for process in background {
            process.signal()
            process.wait()
        }
        background.removeAll()
        server?.stop()
        console?.stop()
    }

    /// CRC-16/X.25 (reflected polynomial 0x1021 → 0x8408, init 0xFFFF, final XOR 0xFFFF; Qt's qChecksum, which
    /// QLC+'s OSC plugin uses to turn a path into an input channel).
    static func crc16X25(_ text: String) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in text.utf8 {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x8408 : crc >> 1 }
        }
        return crc ^ 0xFFFF
    }

    /// The byte QLC+ makes of a float v: (uchar)(255·v), truncated (plugins/osc/oscpacketizer.cpp).
    static func qlcByte(_ value: Double) -> Int { Int((255 * value).rounded(.towardZero)) }

    /// jacktap's /level for a sine of `peak` dBFS: its RMS (peak − 10·log10 2 = peak − 3.0103 dB for a sine)
    /// mapped linearly from −60 dBFS (0) to 0 dBFS (1).
    static func expectedLevel(sinePeak peak: Double) -> Double {
        let rms = peak - 10 * log10(2)
        return min(max((rms + 60) / 60, 0), 1)
    }

    func testTheFixtureSliderIsBoundToTheLevelPathByItsCRC16X25() throws {
        // The catalogue's check value for CRC-16/X.25 (reveng: check=0x906e for "123456789").
        XCTAssertEqual(QLCPlusTests.crc16X25("123456789"), 0x906E)
        let workspace = try String(contentsOfFile: QLCPlusConsole.fixtures + "/jacktap-level.qxw", encoding: .utf8)
        let channel = try XCTUnwrap(workspace.firstMatch(of: try Regex(#"<Input Universe="0" Channel="(\d+)"/>"#))?
            .output[1].substring.flatMap { Int($0) })
        XCTAssertEqual(channel, Int(QLCPlusTests.crc16X25(QLCPlusTests.levelPath)))

        let console = try XCTUnwrap(console)
        XCTAssertEqual(try console.widgetValues(QLCPlusTests.sliderID), [0], "the workspace starts the slider at 0")
        // liblo's oscsend, not jacktap: the binding itself, 0.5 → (uchar)127.5 = 127.
        try Tool.run("oscsend", ["127.0.0.1", String(QLCPlusConsole.oscInputPort), QLCPlusTests.levelPath, "f", "0.5"])
        let seen = try console.poll(QLCPlusTests.sliderID) { $0.last != 0 }
        XCTAssertEqual(seen.last, QLCPlusTests.qlcByte(0.5), "readings \(seen)\n\(console.log)")
    }

    func testASineAtMinus12dBFSMovesTheBoundSliderToItsRMSLevelByte() throws {
        try assertSliderFollowsJacktap(sinePeak: -12, extraArguments: [])
    }

    func testPlainMessagesOfASineAtMinus30dBFSMoveTheBoundSliderToo() throws {
        try assertSliderFollowsJacktap(sinePeak: -30, extraArguments: ["--no-bundles"])
    }

    /// Plays a 440 Hz sine at `peak` dBFS into a private JACK server, runs jacktap live on it sending OSC to QLC+
    /// on 127.0.0.1:7700, and checks the slider settles on the byte the sine's RMS gives (±2).
    func assertSliderFollowsJacktap(sinePeak peak: Double, extraArguments: [String],
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let console = try XCTUnwrap(console)
        let expected = QLCPlusTests.qlcByte(QLCPlusTests.expectedLevel(sinePeak: peak))
        XCTAssertEqual(try console.widgetValues(QLCPlusTests.sliderID), [0], "the slider starts at 0")

        let server = try PrivateJackServer(rate: 48_000, period: 256)
        self.server = server
        background.append(try startGenerator([
            "--tone", "440", "--level", String(peak), "--name", "qlc-tone", "--duration", "120",
        ], server: server))
        background.append(try Tool.start(Tool.jacktap, [
            "--connect", "qlc-tone:out_*", "--osc", "127.0.0.1:\(QLCPlusConsole.oscInputPort)", "--quiet",
            "--duration", "120",
        ] + extraArguments, environment: server.environment))

        // jacktap's RMS window (300 ms) fills first, so the slider climbs, then holds: wait for three equal
        // non-zero readings in a row, then judge five more.
        let settling = try console.poll(QLCPlusTests.sliderID, timeout: 30) { seen in
            seen.count >= 3 && seen.suffix(3).allSatisfy { $0 != 0 && $0 == seen.last }
        }
        let readings = try console.widgetValues(QLCPlusTests.sliderID, count: 5, interval: 0.1)
        XCTAssertTrue(readings.allSatisfy { abs($0 - expected) <= 2 },
                      "sine at \(peak) dBFS peak: expected \(expected) ± 2, read \(readings) after \(settling)",
                      file: file, line: line)
    }
}
