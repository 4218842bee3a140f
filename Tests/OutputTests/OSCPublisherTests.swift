import Analysis
import DSP
import OSC
import OSCOut
import XCTest

final class OSCPublisherTests: XCTestCase {
    func reading(name: String = "in_1", note: MusicalNote? = MusicalNote(frequency: 440)) -> PortReading {
        PortReading(name: name, peakDB: -6.02, rmsDB: -9.03, level: 0.85, bands: [0, 0.5, 1],
                    pitch: PitchReading(frequency: 440, confidence: 0.97, voiced: true, time: 0.95), note: note)
    }

    func testEveryV1PathIsSentPerPortWithTheContractsTypes() {
        let snapshot = Snapshot(time: 1, ports: [reading()], overruns: 0)
        let messages = OSCPublisher().messages(for: snapshot)
        XCTAssertEqual(messages.map(\.address), [
            "/jacktap/in_1/peak", "/jacktap/in_1/rms", "/jacktap/in_1/level", "/jacktap/in_1/bands",
            "/jacktap/in_1/pitch", "/jacktap/in_1/note",
        ])
        XCTAssertEqual(messages[0].arguments, [.float32(-6.02)])
        XCTAssertEqual(messages[3].arguments, [.float32(0), .float32(0.5), .float32(1)])
        XCTAssertEqual(messages[4].arguments, [.float32(440), .float32(0.97)])
        XCTAssertEqual(messages[5].arguments, [.string("A4"), .int32(69), .float32(0)])
    }

    func testNoNoteMeansNoNoteMessage() {
        let messages = OSCPublisher().messages(for: Snapshot(time: 0, ports: [reading(note: nil)], overruns: 0))
        XCTAssertFalse(messages.contains { $0.address.hasSuffix("/note") })
    }

    func testPortNamesAreSanitisedAndThePrefixIsSettable() {
        let snapshot = Snapshot(time: 0, ports: [reading(name: "Main L/R #1")], overruns: 0)
        let messages = OSCPublisher(prefix: "rig/", bundles: true).messages(for: snapshot)
        XCTAssertEqual(messages[0].address, "/rig/Main_L_R__1/peak")
    }

    func testOneBundleWithAnImmediateTimetagOrPlainMessages() {
        let snapshot = Snapshot(time: 0, ports: [reading(), reading(name: "in_2")], overruns: 0)
        let bundled = OSCPublisher(bundles: true).packets(for: snapshot)
        XCTAssertEqual(bundled.count, 1)
        guard case .bundle(let bundle) = bundled[0] else { return XCTFail("not a bundle") }
        XCTAssertEqual(bundle.timetag, .immediately)
        XCTAssertEqual(bundle.elements.count, 12)
        let plain = OSCPublisher(bundles: false).packets(for: snapshot)
        XCTAssertEqual(plain.count, 12)
        XCTAssertTrue(plain.allSatisfy { if case .message = $0 { true } else { false } })
    }

    func testBroadcastMetersProgrammesAndPairsGetTheirOwnPaths() {
        var port = reading()
        port.meters.truePeakDB = -1.5
        port.meters.vu = 0.5
        port.meters.ppm = -2
        port.meters.k = -3
        port.meters.holdDB = -1
        port.meters.clips = 4
        let programme = ProgrammeReading(name: "main", momentary: -23, shortTerm: -22, integrated: -21, range: 5,
                                         maxMomentary: -20, maxShortTerm: -19)
        let snapshot = Snapshot(time: 0, ports: [port], overruns: 0, programmes: [programme],
                                pairs: [PairReading(name: "in_1-in_2", correlation: 0.5)])
        let byAddress = Dictionary(uniqueKeysWithValues: OSCPublisher().messages(for: snapshot).map { ($0.address, $0.arguments) })
        XCTAssertEqual(byAddress["/jacktap/in_1/truepeak"], [.float32(-1.5)])
        XCTAssertEqual(byAddress["/jacktap/in_1/vu"], [.float32(0.5)])
        XCTAssertEqual(byAddress["/jacktap/in_1/ppm"], [.float32(-2)])
        XCTAssertEqual(byAddress["/jacktap/in_1/k"], [.float32(-3)])
        XCTAssertEqual(byAddress["/jacktap/in_1/hold"], [.float32(-1)])
        XCTAssertEqual(byAddress["/jacktap/in_1/clip"], [.int32(4)])
        XCTAssertEqual(byAddress["/jacktap/main/loudness/momentary"], [.float32(-23)])
        XCTAssertEqual(byAddress["/jacktap/main/loudness/shortterm"], [.float32(-22)])
        XCTAssertEqual(byAddress["/jacktap/main/loudness/integrated"], [.float32(-21)])
        XCTAssertEqual(byAddress["/jacktap/main/loudness/range"], [.float32(5)])
        XCTAssertEqual(byAddress["/jacktap/main/loudness/max_momentary"], [.float32(-20)])
        XCTAssertEqual(byAddress["/jacktap/main/loudness/max_shortterm"], [.float32(-19)])
        XCTAssertEqual(byAddress["/jacktap/in_1-in_2/correlation"], [.float32(0.5)])
    }

    func testMetersLeftOutAreNotSent() {
        let messages = OSCPublisher().messages(for: Snapshot(time: 0, ports: [reading()], overruns: 0))
        XCTAssertFalse(messages.contains { $0.address.hasSuffix("/truepeak") || $0.address.contains("loudness") })
    }
}
