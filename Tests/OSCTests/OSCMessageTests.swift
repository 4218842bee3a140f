import Testing

@testable import OSC

/// Message encoding against the OSC 1.0 specification ("OSC Message" examples and data type rules).
@Suite struct OSCMessageTests {
    @Test func oscillatorFrequencyMatchesSpecificationExample() {
        // OSC 1.0 spec, "Examples": /oscillator/4/frequency ,f 440.0
        let expected = bytes(
            """
            2f 6f 73 63  69 6c 6c 61  74 6f 72 2f  34 2f 66 72
            65 71 75 65  6e 63 79 00  2c 66 00 00  43 dc 00 00
            """)
        #expect(OSCMessage("/oscillator/4/frequency", [.float32(440.0)]).encoded == expected)
    }

    @Test func fooWithFiveArgumentsMatchesSpecificationExample() {
        // OSC 1.0 spec, "Examples": /foo ,iisff 1000 -1 "hello" 1.234 5.678
        let expected = bytes(
            """
            2f 66 6f 6f  00 00 00 00  2c 69 69 73  66 66 00 00
            00 00 03 e8  ff ff ff ff  68 65 6c 6c  6f 00 00 00
            3f 9d f3 b6  40 b5 b2 2d
            """)
        let message = OSCMessage(
            "/foo", [.int32(1000), .int32(-1), .string("hello"), .float32(1.234), .float32(5.678)])
        #expect(message.encoded == expected)
    }

    @Test func stringOfFourBytesGetsFourNULs() {
        // "/abc" plus its NUL is 5 bytes, padded to 8; the type tag string ",\0\0\0" follows.
        #expect(OSCMessage("/abc").encoded == bytes("2f 61 62 63 00 00 00 00  2c 00 00 00"))
    }

    @Test func stringOfThreeBytesFitsInFour() {
        #expect(OSCMessage("/ab").encoded == bytes("2f 61 62 00  2c 00 00 00"))
    }

    @Test func messageWithoutArgumentsStillHasTypeTagString() {
        #expect(OSCMessage("/x").encoded == bytes("2f 78 00 00  2c 00 00 00"))
    }

    @Test(arguments: [
        ([UInt8](), "00 00 00 00"),
        ([0x01], "00 00 00 01  01 00 00 00"),
        ([0x01, 0x02, 0x03], "00 00 00 03  01 02 03 00"),
        ([0x01, 0x02, 0x03, 0x04], "00 00 00 04  01 02 03 04"),
        ([0x01, 0x02, 0x03, 0x04, 0x05], "00 00 00 05  01 02 03 04  05 00 00 00"),
    ])
    func blobCountsDataBytesAndPadsToFour(data: [UInt8], encodedBlob: String) {
        let message = OSCMessage("/b", [.blob(data)])
        #expect(message.encoded == bytes("2f 62 00 00  2c 62 00 00") + bytes(encodedBlob))
    }

    @Test func typeTagsAreTheCoreOSCCharacters() {
        let tags = [OSCArgument.int32(0), .float32(0), .string(""), .blob([])].map(\.typeTag)
        #expect(tags == Array("ifsb".utf8))
    }

    @Test func emptyStringArgumentIsFourNULs() {
        #expect(OSCMessage("/s", [.string("")]).encoded == bytes("2f 73 00 00  2c 73 00 00  00 00 00 00"))
    }

    @Test func embeddedNULEndsTheStringSoLaterArgumentsStayAligned() {
        let message = OSCMessage("/s", [.string("ab\u{0}cd"), .int32(7)])
        #expect(message.encoded == bytes("2f 73 00 00  2c 73 69 00  61 62 00 00  00 00 00 07"))
    }

    @Test func encodeAppendsToExistingBytes() {
        var buffer: [UInt8] = [0xAA]
        OSCMessage("/x").encode(into: &buffer)
        #expect(buffer == [0xAA] + bytes("2f 78 00 00  2c 00 00 00"))
    }

    @Test func everyEncodingIsAMultipleOfFourBytes() {
        for length in 0..<12 {
            let text = String(repeating: "a", count: length)
            let message = OSCMessage("/" + text, [.string(text), .blob(Array(repeating: 1, count: length))])
            #expect(message.encoded.count % 4 == 0)
        }
    }
}
