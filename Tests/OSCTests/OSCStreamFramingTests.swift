import OSC
import XCTest

/// OSC over TCP's two framings, byte for byte as their documents give them: OSC 1.0's int32 size before each
/// packet (big-endian), OSC 1.1's SLIP (RFC 1055: END 0xC0, ESC 0xDB, ESC_END 0xDC, ESC_ESC 0xDD) with an END
/// before and after each packet.
final class OSCStreamFramingTests: XCTestCase {
    func framed(_ framing: OSCStreamFraming, _ packet: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        packet.withUnsafeBytes { framing.frame($0, into: &out) }
        return out
    }

    func testOSC10PutsTheSizeBeforeThePacketBigEndian() {
        let packet = Array("/a\0\0,i\0\0".utf8) + [0, 0, 1, 44]
        XCTAssertEqual(framed(.size, packet), [0, 0, 0, 12] + packet)
        let big = [UInt8](repeating: 7, count: 70_000)
        XCTAssertEqual(Array(framed(.size, big).prefix(4)), [0x00, 0x01, 0x11, 0x70], "70000 = 0x00011170")
    }

    func testSLIPEscapesEndAndEscapeAndEndsBothSides() {
        XCTAssertEqual(framed(.slip, [0x01, 0xC0, 0x02, 0xDB, 0x03]),
                       [0xC0, 0x01, 0xDB, 0xDC, 0x02, 0xDB, 0xDD, 0x03, 0xC0])
        XCTAssertEqual(framed(.slip, []), [0xC0, 0xC0])
        let message = OSCMessage("/jacktap/in_1/peak", [.float32(-6.02)])
        var encoded = [UInt8]()
        message.encode(into: &encoded)
        let slip = framed(.slip, encoded)
        XCTAssertEqual(slip.filter { $0 == 0xC0 }.count, 2, "no END inside the frame")
    }
}
