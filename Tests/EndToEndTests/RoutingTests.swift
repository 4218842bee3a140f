import Foundation
import ToolSupport
import XCTest

/// Per-destination settings, end to end: `jacktap analyze` sends, python-osc decodes, and the values are
/// checked against the `--json` line of the same tick through the mapping the settings define.
final class RoutingTests: XCTestCase {
    /// Runs analyze on `file` with `--json` and one destination `settings` (appended to 127.0.0.1:PORT).
    func run(_ file: String, _ settings: String, _ extra: [String] = []) throws -> (json: [[String: Any]], datagrams: [CapturedDatagram]) {
        let capture = try RoutingCapture()
        let text = try Tool.run(Tool.jacktap, ["analyze", file, "--json", "--osc", "127.0.0.1:\(capture.port)" + settings] + extra)
        let ticks = jsonLines(text).filter { $0["summary"] == nil && $0["event"] == nil }
        return (ticks, capture.datagrams())
    }

    /// The values of `address` in arrival order.
    func values(_ datagrams: [CapturedDatagram], _ address: String) -> [[Any]] {
        datagrams.flatMap(\.messages).filter { $0.address == address }.map(\.args)
    }

    func testFilterAndPrefixKeepOnlyMatchingAddressesUnderTheDestinationsPrefix() throws {
        let file = try stepFile("filter.wav", channels: 2)
        defer { unlink(file) }
        let (json, datagrams) = try run(file, ",prefix=/rig,filter=/rig/in_2/{peak,level}|//correlation",
                                        ["--pair", "in_1,in_2"])
        let addresses = Set(datagrams.flatMap(\.messages).map(\.address))
        XCTAssertEqual(addresses, ["/rig/in_2/peak", "/rig/in_2/level", "/rig/in_1-in_2/correlation"])
        for address in addresses { XCTAssertEqual(values(datagrams, address).count, json.count, address) }
        let peaks = values(datagrams, "/rig/in_2/peak").map { numbers($0)[0] }
        for (tick, line) in json.enumerated() {
            XCTAssertEqual(peaks[tick], (line["in_2"] as! [String: Any])["peak"] as! Double, accuracy: 0.0006)
        }
    }

    func testByteScaleSendsRoundedIntegersOfTheFloorToCeilingMapping() throws {
        let file = try stepFile("byte.wav", dBFS: -12)
        defer { unlink(file) }
        let (json, datagrams) = try run(file, ",scale=byte,floor=-40,ceiling=-10,filter=//peak|//level|//bands|//vu")
        let peaks = values(datagrams, "/jacktap/in_1/peak")
        let levels = values(datagrams, "/jacktap/in_1/level")
        let bands = values(datagrams, "/jacktap/in_1/bands")
        let vus = values(datagrams, "/jacktap/in_1/vu")
        XCTAssertEqual(peaks.count, json.count)
        for (tick, line) in json.enumerated() {
            let port = line["in_1"] as! [String: Any]
            let peakDB = port["peak"] as! Double
            let unit = min(1, max(0, (peakDB + 40) / 30))
            // Rounding of a value printed to 3 decimals can differ by one step at a .5 boundary.
            XCTAssertEqual(Double(peaks[tick][0] as! Int), (255 * unit).rounded(), accuracy: 1, "tick \(tick)")
            XCTAssertTrue(peaks[tick][0] is Int)
            XCTAssertEqual(Double(levels[tick][0] as! Int), (255 * (port["level"] as! Double)).rounded(), accuracy: 1)
            XCTAssertEqual(numbers(bands[tick]).count, (port["bands"] as! [Double]).count, "tick \(tick)")
            for (band, value) in zip(numbers(bands[tick]), port["bands"] as! [Double]) {
                XCTAssertEqual(band, (255 * value).rounded(), accuracy: 1)
            }
            // VU is a scale reading, not dBFS: sent as it is.
            XCTAssertEqual(numbers(vus[tick])[0], port["vu"] as! Double, accuracy: 0.0006)
        }
        // -12 dBFS lies inside -40..-10; silence is clamped to 0.
        XCTAssertTrue(peaks.contains { ($0[0] as! Int) == 0 })
        XCTAssertTrue(peaks.contains { ($0[0] as! Int) == Int((255 * 28.0 / 30).rounded()) })
    }

    func testPercentAndUnitScalesClampAboveTheCeiling() throws {
        let file = try stepFile("clamp.wav", dBFS: -3)
        defer { unlink(file) }
        for (scale, full) in [("percent", 100.0), ("unit", 1.0)] {
            let (json, datagrams) = try run(file, ",scale=\(scale),ceiling=-20,filter=//peak|//pitch")
            let peaks = values(datagrams, "/jacktap/in_1/peak").map { numbers($0)[0] }
            XCTAssertEqual(peaks.count, json.count)
            for (tick, line) in json.enumerated() {
                let peakDB = (line["in_1"] as! [String: Any])["peak"] as! Double
                XCTAssertEqual(peaks[tick], full * min(1, max(0, (peakDB + 60) / 40)), accuracy: full * 0.0001, scale)
            }
            XCTAssertEqual(peaks.max(), full, scale)
            // Pitch (Hz) is not a level: it leaves as measured.
            let pitches = values(datagrams, "/jacktap/in_1/pitch").map { numbers($0)[0] }
            XCTAssertEqual(pitches.max() ?? 0, 220, accuracy: 2, scale)
        }
    }

    func testRateSendsEveryNthTickByAudioTime() throws {
        let file = try stepFile("rate.wav", silence: 1)
        defer { unlink(file) }
        let (json, datagrams) = try run(file, ",rate=10,filter=//peak", ["--rate", "30"])
        XCTAssertEqual(json.count, 90, accuracy: 2)
        let sent = values(datagrams, "/jacktap/in_1/peak").count
        // One tick in three, by audio time: 3 s of audio at 10 per second.
        XCTAssertEqual(sent, (json.count + 2) / 3)
    }

    func testAttackAndReleaseFollowTheOnePoleFormulaInAudioTime() throws {
        let file = try stepFile("smooth.wav", dBFS: -6, tone: 1, silence: 0.5)
        defer { unlink(file) }
        let attack = 0.050, release = 0.300
        let (json, datagrams) = try run(file, ",scale=unit,attack=\(Int(attack * 1000)),release=\(Int(release * 1000)),filter=//peak")
        let sent = values(datagrams, "/jacktap/in_1/peak").map { numbers($0)[0] }
        XCTAssertEqual(sent.count, json.count)
        var y: Double?
        var previousTime = 0.0
        var rose = false, fell = false
        for (tick, line) in json.enumerated() {
            let time = line["t"] as! Double
            let x = min(1, max(0, ((line["in_1"] as! [String: Any])["peak"] as! Double + 60) / 60))
            if let last = y {
                let tau = x > last ? attack : release
                y = last + (1 - exp(-(time - previousTime) / tau)) * (x - last)
                rose = rose || x > last + 0.5
                fell = fell || x < last - 0.5
            } else {
                y = x
            }
            previousTime = time
            XCTAssertEqual(sent[tick], y!, accuracy: 0.0005, "tick \(tick) at \(time) s")
        }
        XCTAssertTrue(rose && fell, "the file has a rising and a falling step")
    }

    func testSixteenPortsOfBandsSplitIntoBundlesWithinMaxsizeAndNothingIsLost() throws {
        let path = Tool.temporaryPath("sixteen.wav")
        defer { unlink(path) }
        try Tool.run("sox", ["-n", "-r", "48000", "-b", "16", "-c", "16", path, "synth", "0.5", "pinknoise", "gain", "-12"])
        for maxSize in [1400, 512] {
            let (json, datagrams) = try run(path, ",maxsize=\(maxSize)")
            XCTAssertTrue(datagrams.allSatisfy { $0.size <= maxSize && $0.bundle }, "maxsize \(maxSize)")
            XCTAssertGreaterThan(datagrams.count, json.count * 4, "ticks are split")
            for port in 1...16 {
                XCTAssertEqual(values(datagrams, "/jacktap/in_\(port)/bands").count, json.count, "in_\(port)")
                XCTAssertTrue(values(datagrams, "/jacktap/in_\(port)/bands").allSatisfy { $0.count == 48 })
            }
        }
    }

    func testAMessageLargerThanMaxsizeIsSentAloneAndArrives() throws {
        let file = try stepFile("oversize.wav")
        defer { unlink(file) }
        let (json, datagrams) = try run(file, ",maxsize=512", ["--bands", "200"])
        let bands = datagrams.filter { $0.messages.contains { $0.address == "/jacktap/in_1/bands" } }
        XCTAssertEqual(bands.count, json.count)
        XCTAssertTrue(bands.allSatisfy { $0.messages.count == 1 && $0.size > 512 })
        XCTAssertTrue(datagrams.filter { $0.messages.count > 1 }.allSatisfy { $0.size <= 512 })
    }

    func testBadDestinationSettingsNameTheKeyAndExit64() throws {
        for (text, named) in [("127.0.0.1:9000,scale=loud", "scale=loud"), ("127.0.0.1:9000,colour=red", "'colour'"),
                              ("127.0.0.1:9000,filter=/a/[b", "filter=/a/[b"), ("127.0.0.1:9000,rate=60", "rate=60"),
                              ("127.0.0.1:9000,floor=-10,ceiling=-20", "ceiling")] {
            let result = try Tool.capture(Tool.jacktap, ["analyze", "/dev/null", "--osc", text])
            XCTAssertEqual(result.status, 64, text)
            XCTAssertTrue(result.stderr.contains(named), "\(text): \(result.stderr)")
        }
    }
}

/// Broadcast and multicast need addresses other than 127.0.0.1; each test makes its own network namespace
/// (root, iproute2) so no datagram leaves the machine.
final class RoutingNetworkTests: XCTestCase {
    var namespace = ""

    override func setUpWithError() throws {
        namespace = "jacktap-routing-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        guard (try? Tool.capture("ip", ["netns", "add", namespace]).status) == 0 else {
            throw XCTSkip("cannot create a network namespace here (needs root and iproute2)")
        }
        try inside(["ip", "link", "set", "lo", "up"])
    }

    override func tearDown() {
        _ = try? Tool.capture("ip", ["netns", "del", namespace])
    }

    @discardableResult
    func inside(_ command: [String]) throws -> String {
        try Tool.run("ip", ["netns", "exec", namespace] + command)
    }

    func testMulticastGroupReceivesEveryTick() throws {
        try inside(["ip", "link", "set", "lo", "multicast", "on"])
        try inside(["ip", "route", "add", "224.0.0.0/4", "dev", "lo"])
        let file = try stepFile("multicast.wav")
        defer { unlink(file) }
        let capture = try RoutingCapture(host: "0.0.0.0", group: "239.77.0.1", namespace: namespace)
        let json = jsonLines(try inside([Tool.jacktap, "analyze", file, "--json", "--osc",
                                         "239.77.0.1:\(capture.port),ttl=2,interface=127.0.0.1,filter=//level"]))
            .filter { $0["summary"] == nil && $0["event"] == nil }
        let levels = capture.messages().filter { $0.address == "/jacktap/in_1/level" }
        XCTAssertEqual(levels.count, json.count)
    }

    func testSubnetBroadcastReachesAListenerOnTheSubnet() throws {
        try inside(["ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"])
        try inside(["ip", "addr", "add", "10.77.0.1/24", "brd", "10.77.0.255", "dev", "v0"])
        try inside(["ip", "link", "set", "v0", "up"])
        try inside(["ip", "link", "set", "v1", "up"])
        let file = try stepFile("broadcast.wav")
        defer { unlink(file) }
        let capture = try RoutingCapture(host: "0.0.0.0", namespace: namespace)
        let json = jsonLines(try inside([Tool.jacktap, "analyze", file, "--json", "--osc",
                                         "10.77.0.255:\(capture.port),broadcast,plain,filter=//peak"]))
            .filter { $0["summary"] == nil && $0["event"] == nil }
        let datagrams = capture.datagrams()
        XCTAssertEqual(datagrams.count, json.count)
        XCTAssertTrue(datagrams.allSatisfy { !$0.bundle })
    }
}
