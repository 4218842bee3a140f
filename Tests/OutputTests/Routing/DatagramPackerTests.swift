import Analysis
import OSC
import OSCOut
import XCTest

/// Ticks split into bundles that each fit the datagram limit, with every message kept in order.
final class DatagramPackerTests: XCTestCase {
    func snapshot(ports: Int, bands: Int) -> Snapshot {
        let readings = (1...ports).map { i in
            PortReading(name: "in_\(i)", peakDB: -6, rmsDB: -9, level: 0.8, bands: Array(repeating: 0.5, count: bands),
                        pitch: nil, note: nil)
        }
        return Snapshot(time: 1, ports: readings, overruns: 0)
    }

    func testEveryBundleFitsAndHoldsAllMessagesInOrder() {
        for maxSize in [512, 1400] {
            let publisher = OSCPublisher()
            let tick = snapshot(ports: 16, bands: 48)
            let packets = publisher.packets(for: tick, maxSize: maxSize)
            XCTAssertGreaterThan(packets.count, 1)
            for packet in packets { XCTAssertLessThanOrEqual(packet.encoded.count, maxSize) }
            XCTAssertEqual(packets.flatMap { $0.messages().map(\.message) }, publisher.messages(for: tick))
        }
    }

    func testBundleSizeIsTheHeaderPlusSizedElements() {
        let message = OSCMessage("/jacktap/in_1/peak", [.float32(-6)])
        let bundle = OSCBundle(timetag: .immediately, [.message(message), .message(message)])
        XCTAssertEqual(DatagramPacker.bundleSize([message.encoded.count, message.encoded.count]), bundle.encoded.count)
    }

    func testAMessageTooBigForAnyBundleGetsAGroupOfItsOwn() {
        XCTAssertEqual(DatagramPacker.bundleGroups(sizes: [100, 2000, 100, 100], maxSize: 256), [0..<1, 1..<2, 2..<4])
        XCTAssertEqual(DatagramPacker.bundleGroups(sizes: [], maxSize: 256), [])
    }
}
