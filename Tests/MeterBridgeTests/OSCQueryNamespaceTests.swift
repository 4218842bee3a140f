import Analysis
import DSP
import OSC
import OSCOut
import Schema
import XCTest
@testable import MeterBridge

/// The OSCQuery tree written from the schema and the newest figures: where each node sits, what it says, and that
/// its VALUE is what OSC sent.
final class OSCQueryNamespaceTests: XCTestCase {
    func latest() -> LatestFigures {
        let figures = LatestFigures()
        let port = PortReading(name: "kick drum", peakDB: -3, rmsDB: -12, level: 0.7, bands: [0.1, 0.2, 0.3],
                               pitch: PitchReading(frequency: 55, confidence: 0.9, voiced: true, time: 1), note: nil,
                               tempo: 128, phase: 0.5, bands4: [0.4, 0.3, 0.2, 0.1])
        let main = ProgrammeReading(name: "main", momentary: -20, shortTerm: -21, integrated: -22, range: 4,
                                    maxMomentary: -18, maxShortTerm: -19)
        figures.record(Snapshot(time: 1, ports: [port], overruns: 0, programmes: [main]))
        figures.record(AnalysisEvent(port: "kick drum", kind: .beat(count: 7, bpm: 128), time: 1, reported: 1))
        figures.record(news: OSCPublisher(prefix: "").statusMessage(state: "running", xruns: 2, overruns: 0))
        return figures
    }

    func leaf(_ path: String, controlInput: Bool = false) throws -> [String: Any] {
        let tree = OSCQueryNamespace(prefix: "/stage", controlInput: controlInput).tree(latest().read())
        return try XCTUnwrap(OSCQueryNamespace.node(at: path, in: tree), path)
    }

    func testAFigureIsALeafWithItsValueTypeUnitAndDescription() throws {
        let peak = try leaf("/stage/kick_drum/peak")
        XCTAssertEqual(peak["FULL_PATH"] as? String, "/stage/kick_drum/peak")
        XCTAssertEqual(peak["TYPE"] as? String, "f")
        XCTAssertEqual(peak["ACCESS"] as? Int, 1)
        XCTAssertEqual(peak["VALUE"] as? [Double], [-3])
        XCTAssertEqual(peak["UNIT"] as? [String], ["dBFS"])
        XCTAssertEqual(peak["DESCRIPTION"] as? String, FigureSchema.peak.summary)
        XCTAssertNil(peak["RANGE"], "a sample peak has no bound: float samples pass 0 dBFS")
        let level = try leaf("/stage/kick_drum/level")
        XCTAssertEqual((level["RANGE"] as? [[String: Double]])?.first, ["MIN": 0, "MAX": 1])
    }

    func testAListTakesTheLengthItWasSentWithAndEveryArgumentItsRange() throws {
        let bands = try leaf("/stage/kick_drum/bands")
        XCTAssertEqual(bands["TYPE"] as? String, "fff")
        XCTAssertEqual((bands["RANGE"] as? [[String: Double]])?.count, 3)
        // The pitch's unit is its frequency's; its confidence has none.
        XCTAssertEqual(try leaf("/stage/kick_drum/pitch")["UNIT"] as? [String], ["Hz", ""])
        XCTAssertEqual(try leaf("/stage/kick_drum/beat")["VALUE"] as? [AnyHashable], [7, 128.0] as [AnyHashable])
    }

    func testFiguresNotSentYetAreNodesWithoutValue() throws {
        let note = try leaf("/stage/kick_drum/note")
        XCTAssertEqual(note["TYPE"] as? String, "sif")
        XCTAssertNil(note["VALUE"], "an unnamed note was not sent")
        XCTAssertNil(try leaf("/stage/kick_drum/onset")["VALUE"])
        XCTAssertEqual(try leaf("/stage/status")["VALUE"] as? [AnyHashable], ["running", 2, 0])
    }

    func testContainersHoldTheirChildrenAndTheirOwnPath() throws {
        let port = try leaf("/stage/kick_drum")
        XCTAssertEqual(port["FULL_PATH"] as? String, "/stage/kick_drum")
        XCTAssertNil(port["TYPE"])
        let children = Set((port["CONTENTS"] as? [String: Any] ?? [:]).keys)
        XCTAssertEqual(children, Set(FigureSchema.all.filter { $0.scope == .port }.map(\.path)))
        let loudness = try leaf("/stage/main/loudness")
        XCTAssertEqual(Set((loudness["CONTENTS"] as? [String: Any] ?? [:]).keys),
                       ["momentary", "shortterm", "integrated", "range", "max_momentary", "max_shortterm", "paused"])
        XCTAssertEqual(try leaf("/stage/main/loudness/integrated")["VALUE"] as? [Double], [-22])
    }

    func testCommandsAreWritableOnlyWithTheControlInput() throws {
        let tree = OSCQueryNamespace(prefix: "/stage", controlInput: false).tree(latest().read())
        XCTAssertNil(OSCQueryNamespace.node(at: "/stage/reset", in: tree))
        let subscribe = try leaf("/stage/subscribe", controlInput: true)
        XCTAssertEqual(subscribe["ACCESS"] as? Int, 2)
        XCTAssertEqual(subscribe["TYPE"] as? String, "sis")
        XCTAssertNil(subscribe["VALUE"])
    }

    func testHostInfoNamesTheControlInputOnlyWhenThereIsOne() {
        let with = OSCQueryNamespace.hostInfo(name: "fohtap", oscHost: "127.0.0.1", oscPort: 9000)
        XCTAssertEqual(with["NAME"] as? String, "fohtap")
        XCTAssertEqual(with["OSC_PORT"] as? Int, 9000)
        XCTAssertEqual(with["OSC_TRANSPORT"] as? String, "UDP")
        XCTAssertEqual((with["EXTENSIONS"] as? [String: Bool])?["VALUE"], true)
        XCTAssertNil(OSCQueryNamespace.hostInfo(name: "fohtap", oscHost: nil, oscPort: nil)["OSC_PORT"])
    }

    func testTheServerAnswers404400And204AsTheProposalSays() {
        let namespace = OSCQueryNamespace(prefix: "/jacktap", controlInput: false)
        let figures = LatestFigures()
        func status(_ path: String, _ query: String?) -> Int {
            Int(OSCQueryServer.answer(path: path, query: query, namespace: namespace, latest: figures, hostInfo: "{}")
                .status.code)
        }
        XCTAssertEqual(status("/", nil), 200)
        XCTAssertEqual(status("/", "HOST_INFO"), 200)
        XCTAssertEqual(status("/jacktap/status", "DESCRIPTION"), 200)
        XCTAssertEqual(status("/jacktap/status", "VALUE"), 204, "no status sent yet")
        XCTAssertEqual(status("/jacktap/status", "SOMETHING"), 400)
        XCTAssertEqual(status("/jacktap/in_1/peak", nil), 404, "no tick yet: no port")
    }
}

/// What a request for one address costs, and the values JSON cannot carry.
final class OSCQueryNamespaceEdgeTests: XCTestCase {
    func testAQueryForOneAddressBuildsOnlyItsBranch() throws {
        let figures = LatestFigures()
        let ports = (1...128).map { PortReading(name: "in_\($0)", peakDB: -6, rmsDB: -9, level: 0.5, bands: [], pitch: nil, note: nil) }
        figures.record(Snapshot(time: 1, ports: ports, overruns: 0))
        let namespace = OSCQueryNamespace(prefix: "/jacktap", controlInput: true)
        let tree = namespace.tree(figures.read(), under: "/jacktap/in_7/peak")
        let jacktap = try XCTUnwrap(OSCQueryNamespace.node(at: "/jacktap", in: tree))
        XCTAssertEqual((jacktap["CONTENTS"] as? [String: Any])?.keys.sorted(), ["in_7"])
        XCTAssertEqual(OSCQueryNamespace.node(at: "/jacktap/in_7/peak", in: tree)?["VALUE"] as? [Double], [-6])
        XCTAssertEqual(try XCTUnwrap(OSCQueryNamespace.node(at: "/jacktap", in: namespace.tree(figures.read())))
            .count, 3, "a container: FULL_PATH, ACCESS and CONTENTS")
    }

    func testANonFiniteValueIsNullNotAnEmptyAnswer() throws {
        let figures = LatestFigures()
        figures.record(Snapshot(time: 1, ports: [], overruns: 0, pairs: [PairReading(name: "in_1+in_2", correlation: .nan)]))
        let tree = OSCQueryNamespace(prefix: "/jacktap", controlInput: false).tree(figures.read())
        let text = OSCQueryNamespace.text(tree)
        XCTAssertTrue(text.contains(#""VALUE":[null]"#), text)
    }

    func testHostInfoLeavesOutAWildcardAddress() {
        XCTAssertNil(OSCQueryNamespace.hostInfo(name: "t", oscHost: "0.0.0.0", oscPort: 9000)["OSC_IP"])
        XCTAssertEqual(OSCQueryNamespace.hostInfo(name: "t", oscHost: "192.0.2.7", oscPort: 9000)["OSC_IP"] as? String,
                       "192.0.2.7")
    }
}
