import Testing

@testable import OSC

/// Address parts must avoid the characters OSC 1.0 reserves: space # * , / ? [ ] { }.
@Suite struct OSCAddressTests {
    @Test(arguments: [
        ("in_1", "in_1"),
        ("system:capture_1", "system:capture_1"),
        ("Main L", "Main_L"),
        ("a/b", "a_b"),
        ("#*,/?[]{}", "_________"),
        ("tab\there", "tab_here"),
        ("del\u{7F}", "del_"),
        ("é", "__"),
        ("", "_"),
        ("~!@$%^&()-+=;:'\"<>.|\\`", "~!@$%^&()-+=;:'\"<>.|\\`"),
    ])
    func sanitizedPartReplacesReservedAndNonPrintableBytes(name: String, expected: String) {
        #expect(OSCAddress.sanitizedPart(name) == expected)
    }

    @Test func sanitizedPartKeepsEveryOtherPrintableASCIICharacter() {
        let printable = (0x21...0x7E).map { UInt8($0) }.filter { !Array(" #*,/?[]{}".utf8).contains($0) }
        let text = String(decoding: printable, as: UTF8.self)
        #expect(OSCAddress.sanitizedPart(text) == text)
    }
}
