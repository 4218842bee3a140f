/// Helpers for building OSC addresses out of names that come from elsewhere (port names, user labels).
public enum OSCAddress {
    /// The replacement for every character that may not appear in a path part.
    static let replacement = UInt8(ascii: "_")

    /// Makes `name` safe to use as one part of an OSC address (the text between two "/").
    ///
    /// OSC 1.0 allows "printable ASCII characters except" space, `#`, `*`, `,`, `/`, `?`, `[`, `]`, `{`, `}`
    /// in the parts of an address: `/` would split the part, and the others are pattern-matching syntax a
    /// receiver would try to expand. Each such byte, and each byte outside printable ASCII (controls,
    /// DEL and every byte of a multi-byte UTF-8 character), becomes "_"; an empty result becomes "_" so the
    /// address never gets an empty part ("//").
    public static func sanitizedPart(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            bytes.append(isAllowedInPart(byte) ? byte : replacement)
        }
        if bytes.isEmpty { bytes.append(replacement) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether OSC 1.0 lets `byte` appear literally inside an address part.
    static func isAllowedInPart(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: "/"), UInt8(ascii: "?"),
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            return false
        default:
            return true
        }
    }
}
