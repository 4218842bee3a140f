import Testing

@testable import OSC

/// Bundle layout from OSC 1.0, "OSC Bundles": "#bundle", time tag, then size-prefixed elements.
@Suite struct OSCBundleTests {
    @Test func immediateBundleOfTwoMessagesMatchesHandWorkedBytes() {
        let bundle = OSCBundle(
            timetag: .immediately,
            [.message(OSCMessage("/a", [.int32(1)])), .message(OSCMessage("/b", [.float32(0.5)]))])
        let expected = bytes(
            """
            23 62 75 6e  64 6c 65 00
            00 00 00 00  00 00 00 01
            00 00 00 0c  2f 61 00 00  2c 69 00 00  00 00 00 01
            00 00 00 0c  2f 62 00 00  2c 66 00 00  3f 00 00 00
            """)
        #expect(bundle.encoded == expected)
        #expect(OSCPacket.bundle(bundle).encoded == expected)
    }

    @Test func nestedBundleIsAnElementWithItsOwnSizeAndTimetag() {
        let inner = OSCBundle(timetag: OSCTimetag(rawValue: 0x0000_0001_8000_0000), [.message(OSCMessage("/b"))])
        let outer = OSCBundle(timetag: .immediately, [.message(OSCMessage("/a", [.int32(1)])), .bundle(inner)])
        let expected = bytes(
            """
            23 62 75 6e  64 6c 65 00  00 00 00 00  00 00 00 01
            00 00 00 0c  2f 61 00 00  2c 69 00 00  00 00 00 01
            00 00 00 1c  23 62 75 6e  64 6c 65 00  00 00 00 01  80 00 00 00
                         00 00 00 08  2f 62 00 00  2c 00 00 00
            """)
        #expect(outer.encoded == expected)
    }

    @Test func emptyBundleIsHeaderAndTimetagOnly() {
        let bundle = OSCBundle(timetag: OSCTimetag(rawValue: 0x0102_0304_0506_0708))
        #expect(bundle.encoded == bytes("23 62 75 6e 64 6c 65 00  01 02 03 04 05 06 07 08"))
    }

    @Test func messagePacketEncodesLikeTheMessage() {
        let message = OSCMessage("/m", [.string("hi")])
        #expect(OSCPacket.message(message).encoded == message.encoded)
    }

    @Test func bundleEncodeAppendsToExistingBytes() {
        var buffer: [UInt8] = [1, 2, 3, 4]
        OSCBundle().encode(into: &buffer)
        #expect(buffer == [1, 2, 3, 4] + bytes("23 62 75 6e 64 6c 65 00  00 00 00 00 00 00 00 01"))
    }
}
