import Testing
@testable import OSC

/// Byte layout of every OSC 1.0 type tag, worked by hand from the specification's "OSC Type Tags" table
/// (big-endian, 4-byte alignment) and cross-checked with liblo 0.31 (`oscsend - /a/b ihfdsScmTFNI …`).
@Suite struct OSCArgumentTests {
    /// Each argument, its type tags and its data bytes.
    static let layouts: [(OSCArgument, String, String)] = [
        (.int32(-2), "i", "ff ff ff fe"),
        (.float32(3.5), "f", "40 60 00 00"),
        (.string("hi"), "s", "68 69 00 00"),
        (.blob([0xAB]), "b", "00 00 00 01  ab 00 00 00"),
        // 0x8000_0000_0000_0000 is the most negative int64.
        (.int64(Int64.min), "h", "80 00 00 00  00 00 00 00"),
        (.int64(-2), "h", "ff ff ff ff  ff ff ff fe"),
        (.timetag(OSCTimetag(rawValue: 0xE8FE_6F80_4000_0000)), "t", "e8 fe 6f 80  40 00 00 00"),
        // 4.25 = 1.0001b × 2², biased exponent 1025 = 0x401.
        (.double(4.25), "d", "40 11 00 00  00 00 00 00"),
        (.symbol("sym"), "S", "73 79 6d 00"),
        (.character(UInt8(ascii: "x")), "c", "00 00 00 78"),
        (.rgba(0x1122_3344), "r", "11 22 33 44"),
        (.midi(OSCMIDIMessage(port: 1, status: 0x90, data1: 60, data2: 100)), "m", "01 90 3c 64"),
        (.bool(true), "T", ""),
        (.bool(false), "F", ""),
        (.nil, "N", ""),
        (.impulse, "I", ""),
        (.array([.int32(1), .bool(true), .string("a")]), "[iTs]", "00 00 00 01  61 00 00 00"),
        (.array([.array([]), .array([.int32(2)])]), "[[][i]]", "00 00 00 02"),
    ]

    @Test(arguments: layouts)
    func everyTypeTagEncodesAsTheSpecificationLaysItOut(argument: OSCArgument, tags: String, data: String) throws {
        var tagString = Array(("," + tags).utf8) + [0]
        while tagString.count % 4 != 0 { tagString.append(0) }
        let expected = bytes("2f 61 00 00") + tagString + bytes(data)
        let message = OSCMessage("/a", [argument])
        #expect(message.encoded == expected)
        #expect(try OSCPacket(decoding: expected) == .message(message))
    }

    @Test func typeTagOfEachCaseIsItsSpecificationCharacter() {
        let arguments: [OSCArgument] = [
            .int32(0), .float32(0), .string(""), .blob([]), .int64(0), .timetag(.immediately), .double(0), .symbol(""),
            .character(0), .rgba(0), .midi(OSCMIDIMessage(port: 0, status: 0, data1: 0, data2: 0)), .bool(true),
            .bool(false), .nil, .impulse, .array([]),
        ]
        #expect(arguments.map(\.typeTag) == Array("ifsbhtdScrmTFNI[".utf8))
    }

    @Test func messageFromLibloWithEveryTagItSendsMatchesOurEncoding() {
        // `oscsend - /a/b ihfdsScmTFNI 1 2 3.5 4.25 hi sym x 01020304` from liblo 0.31, byte for byte.
        let liblo = bytes(
            """
            2f 61 2f 62  00 00 00 00  2c 69 68 66  64 73 53 63
            6d 54 46 4e  49 00 00 00  00 00 00 01  00 00 00 00
            00 00 00 02  40 60 00 00  40 11 00 00  00 00 00 00
            68 69 00 00  73 79 6d 00  00 00 00 78  01 02 03 04
            """)
        let message = OSCMessage(
            "/a/b",
            [
                .int32(1), .int64(2), .float32(3.5), .double(4.25), .string("hi"), .symbol("sym"),
                .character(UInt8(ascii: "x")), .midi(OSCMIDIMessage(port: 1, status: 2, data1: 3, data2: 4)),
                .bool(true), .bool(false), .nil, .impulse,
            ])
        #expect(message.encoded == liblo)
    }
}
