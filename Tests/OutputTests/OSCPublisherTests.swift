import Analysis
import DSP
import OSC
import Output
import XCTest

final class OSCPublisherTests: XCTestCase {
    func reading(name: String = "in_1", note: MusicalNote? = MusicalNote(frequency: 440)) -> PortReading {
        PortReading(name: name, peakDB: -6.02, rmsDB: -9.03, level: 0.85, bands: [0, 0.5, 1], pitch: nil, note: note)
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
        XCTAssertEqual(messages[4].arguments, [.float32(0), .float32(0)], "no pitch reads 0 Hz at confidence 0")
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
}
