import Analysis
import DSP
import OSC
import OSCOut
import XCTest

/// Live bundles say which instant their values describe, and a destination can rename addresses for consoles
/// that only take their own (grandMA3, Eos).
final class RouterTimetagTests: XCTestCase {
    func tick(_ time: Double, pitchTime: Double) -> Snapshot {
        Snapshot(time: time, ports: [PortReading(
            name: "in_1", peakDB: -6, rmsDB: -9, level: 0.5, bands: [0.25],
            pitch: PitchReading(frequency: 440, confidence: 0.99, voiced: true, time: pitchTime),
            note: MusicalNote(frequency: 440))], overruns: 0)
    }

    func testATickCarriesItsInstantAndThePitchTheCentreOfItsWindow() throws {
        let listener = OSCRouterTests.Listener()
        let router = try OSCRouter([try DestinationSettings(parsing: "127.0.0.1:\(listener.port)")], analysisRate: 30)
        // Stream second 10 arrived at Unix time 1,000,000: the tick at 10.0 is that instant, the pitch window
        // centred 25 ms earlier is 999,999.975.
        let clock = StreamClock(stream: 10, wall: 1_000_000)
        router.publish(tick(10, pitchTime: 9.975), clock: clock)
        var tagged = [String: OSCTimetag]()
        for datagram in listener.drain() {
            guard case .bundle(let bundle) = try OSCPacket(decoding: datagram) else { return XCTFail("a bundle") }
            for element in bundle.elements { if case .message(let m) = element { tagged[m.address] = bundle.timetag } }
        }
        XCTAssertEqual(tagged["/jacktap/in_1/peak"], OSCTimetag(unixSeconds: 1_000_000))
        XCTAssertEqual(tagged["/jacktap/in_1/pitch"], OSCTimetag(unixSeconds: 999_999.975))
        XCTAssertEqual(tagged["/jacktap/in_1/note"], OSCTimetag(unixSeconds: 999_999.975))
        // Without a clock (a file), everything is immediate.
        router.publish(tick(11, pitchTime: 10.975))
        let plain = listener.drain()
        XCTAssertFalse(plain.isEmpty, "the tick without a clock arrived")
        for datagram in plain {
            guard case .bundle(let bundle) = try OSCPacket(decoding: datagram) else { return XCTFail("a bundle") }
            XCTAssertEqual(bundle.timetag, .immediately)
        }
    }

    func testAMappedAddressReachesTheConsoleUnderItsOwnName() throws {
        let listener = OSCRouterTests.Listener()
        let settings = try DestinationSettings(parsing:
            "127.0.0.1:\(listener.port),plain,filter=/jacktap/in_1/level,scale=percent,map=/jacktap/in_1/level>/Page1/Fader201")
        let router = try OSCRouter([settings], analysisRate: 30)
        router.publish(tick(1, pitchTime: 0.975))
        let received = try listener.drain().map { try OSCPacket(decoding: $0) }
        XCTAssertEqual(received, [.message(OSCMessage("/Page1/Fader201", [.float32(50)]))])
    }

    func testAMapNeedsTwoAddresses() {
        for text in ["127.0.0.1:9000,map=/a", "127.0.0.1:9000,map=a>/b", "127.0.0.1:9000,map=/a>/b c"] {
            XCTAssertThrowsError(try DestinationSettings(parsing: text), text)
        }
    }
}
