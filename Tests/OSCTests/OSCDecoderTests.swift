import Testing
@testable import OSC

/// Decoding datagrams (OSC 1.0): what well-formed bytes give, and the precise error for each malformation.
@Suite struct OSCDecoderTests {
    @Test func specificationExamplesDecodeToTheirMessages() throws {
        // OSC 1.0 spec, "Examples".
        let oscillator = bytes(
            """
            2f 6f 73 63  69 6c 6c 61  74 6f 72 2f  34 2f 66 72
            65 71 75 65  6e 63 79 00  2c 66 00 00  43 dc 00 00
            """)
        #expect(try OSCPacket(decoding: oscillator) == .message(OSCMessage("/oscillator/4/frequency", [.float32(440)])))
        let foo = bytes(
            """
            2f 66 6f 6f  00 00 00 00  2c 69 69 73  66 66 00 00
            00 00 03 e8  ff ff ff ff  68 65 6c 6c  6f 00 00 00
            3f 9d f3 b6  40 b5 b2 2d
            """)
        #expect(
            try OSCPacket(decoding: foo)
                == .message(OSCMessage("/foo", [.int32(1000), .int32(-1), .string("hello"), .float32(1.234), .float32(5.678)])))
    }

    @Test func nestedBundlesKeepTheirTimetagsAndOrder() throws {
        let innermost = OSCBundle(timetag: OSCTimetag(rawValue: 3), [.message(OSCMessage("/c", [.double(0.125)]))])
        let inner = OSCBundle(
            timetag: OSCTimetag(unixSeconds: 1_700_000_001.5), [.message(OSCMessage("/b", [.int64(-5)])), .bundle(innermost)])
        let outer = OSCBundle(
            timetag: OSCTimetag(unixSeconds: 1_700_000_000.25),
            [.message(OSCMessage("/a", [.array([.int32(1), .symbol("s")])])), .bundle(inner), .bundle(OSCBundle())])
        let decoded = try OSCPacket(decoding: OSCPacket.bundle(outer).encoded)
        #expect(decoded == .bundle(outer))
        let timed = decoded.messages()
        #expect(timed.map(\.message.address) == ["/a", "/b", "/c"])
        #expect(timed.map(\.timetag.rawValue) == [0xE8FE_6F80_4000_0000, 0xE8FE_6F81_8000_0000, 3])
    }

    @Test func randomPacketsWithEveryTagRoundTripExactly() throws {
        var generator = RandomOSCPackets(seed: 0x05C0_DEC)
        for _ in 0..<3000 {
            let packet = generator.packet()
            let encoded = packet.encoded
            #expect(try OSCPacket(decoding: encoded) == packet)
            #expect(try OSCPacket(decoding: encoded[...]) == packet)
            #expect(try encoded.withUnsafeBytes { raw throws(OSCDecodeError) in try OSCPacket(decoding: raw) } == packet)
        }
    }

    @Test func messageWithoutTypeTagStringHasNoArguments() throws {
        // OSC 1.0: receivers "should be robust in the case of a missing OSC Type Tag String".
        #expect(try OSCPacket(decoding: bytes("2f 61 62 63  00 00 00 00")) == .message(OSCMessage("/abc")))
    }

    @Test func arraysNestToTheLimitAndNoDeeper() throws {
        var argument = OSCArgument.int32(7)
        for _ in 0..<OSCPacket.maximumNestingDepth { argument = .array([argument]) }
        let deepest = OSCMessage("/a", [argument])
        #expect(try OSCPacket(decoding: deepest.encoded) == .message(deepest))
        #expect(throws: OSCDecodeError.nestingTooDeep(limit: 8)) {
            try OSCPacket(decoding: OSCMessage("/a", [.array([argument])]).encoded)
        }
    }

    @Test func bundlesNestToTheLimitAndNoDeeper() throws {
        var packet = OSCPacket.message(OSCMessage("/a"))
        for _ in 0..<OSCPacket.maximumNestingDepth { packet = .bundle(OSCBundle([packet])) }
        #expect(try OSCPacket(decoding: packet.encoded) == packet)
        #expect(throws: OSCDecodeError.nestingTooDeep(limit: 8)) {
            try OSCPacket(decoding: OSCPacket.bundle(OSCBundle([packet])).encoded)
        }
    }

    /// "#bundle\0" and the immediate time tag.
    static let bundleHead = "23 62 75 6e 64 6c 65 00  00 00 00 00 00 00 00 01"

    /// Hex bytes and the error they must give.
    static let malformed: [(String, OSCDecodeError)] = [
        ("", .empty),
        ("2f 61 00", .lengthNotMultipleOfFour(length: 3)),
        ("78 79 7a 00", .notAMessageOrBundle(offset: 0)),
        ("23 62 75 6e", .notAMessageOrBundle(offset: 0)),
        ("23 62 75 6e  64 6c 65 21  00 00 00 00  00 00 00 01", .notAMessageOrBundle(offset: 0)),
        ("2f 61 62 63", .unterminatedString(offset: 0)),
        ("2f 61 00 78", .nonZeroPadding(offset: 3)),
        ("2f ff 00 00", .invalidUTF8(offset: 0)),
        ("2f 61 00 00  2c 73 00 00  c3 28 00 00", .invalidUTF8(offset: 8)),
        ("2f 61 00 00  78 69 00 00", .missingTypeTagString(offset: 4)),
        ("2f 61 00 00  2c 69 00 00", .truncated(offset: 8, needed: 4)),
        ("2f 61 00 00  2c 68 00 00  00 00 00 00", .truncated(offset: 8, needed: 4)),
        ("2f 61 00 00  2c 74 00 00", .truncated(offset: 8, needed: 8)),
        ("2f 61 00 00  2c 7a 00 00", .unknownTypeTag(tag: UInt8(ascii: "z"), offset: 5)),
        ("2f 61 00 00  2c 5d 00 00", .unbalancedArray(offset: 5)),
        ("2f 61 00 00  2c 5b 69 00  00 00 00 01", .unbalancedArray(offset: 5)),
        ("2f 61 00 00  2c 69 00 00  00 00 00 01  00 00 00 02", .trailingBytes(offset: 12)),
        ("2f 61 00 00  2c 62 00 00  ff ff ff ff", .blobSizeOutOfRange(size: -1, offset: 8)),
        ("2f 61 00 00  2c 62 00 00  00 00 00 05  01 02 03 04", .blobSizeOutOfRange(size: 5, offset: 8)),
        ("2f 61 00 00  2c 62 00 00  00 00 00 01  01 02 00 00", .nonZeroPadding(offset: 13)),
        ("2f 61 00 00  2c 73 00 00  61 62 63 64", .unterminatedString(offset: 8)),
        (bundleHead + "00 00 00 00", .bundleElementSizeOutOfRange(size: 0, offset: 16, remaining: 0)),
        (bundleHead + "ff ff ff fc  2f 61 00 00", .bundleElementSizeOutOfRange(size: -4, offset: 16, remaining: 4)),
        (bundleHead + "00 00 00 06  2f 61 00 00  2c 00 00 00", .bundleElementSizeOutOfRange(size: 6, offset: 16, remaining: 8)),
        (bundleHead + "7f ff ff fc  2f 61 00 00", .bundleElementSizeOutOfRange(size: 0x7FFF_FFFC, offset: 16, remaining: 4)),
        (bundleHead + "00 00 00 04", .bundleElementSizeOutOfRange(size: 4, offset: 16, remaining: 0)),
        (bundleHead + "00 00 00 04  2f 61 62 63  00 00 00 00", .unterminatedString(offset: 20)),
        (bundleHead + "00 00 00 04  00 00 00 00", .notAMessageOrBundle(offset: 20)),
        ("23 62 75 6e  64 6c 65 00  00 00 00 00", .truncated(offset: 8, needed: 4)),
    ]

    @Test(arguments: malformed)
    func malformedBytesThrowTheReason(hex: String, expected: OSCDecodeError) {
        #expect(throws: expected) { try OSCPacket(decoding: bytes(hex)) }
    }

    @Test func errorDescriptionsNameTheOffsetAndTheProblem() {
        #expect(OSCDecodeError.unknownTypeTag(tag: UInt8(ascii: "z"), offset: 5).description == "at byte 5: unknown type tag 'z'")
        #expect(OSCDecodeError.unknownTypeTag(tag: 0x01, offset: 5).description == "at byte 5: unknown type tag 0x1")
        #expect(OSCDecodeError.lengthNotMultipleOfFour(length: 3).description == "length 3 is not a multiple of 4")
    }
}
