/// Why bytes are not an OSC 1.0 packet. Offsets count bytes from the start of the datagram.
///
/// A receiver counts these and drops the datagram; none of them can crash or stall the decoder.
public enum OSCDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The datagram has no bytes.
    case empty
    /// The datagram's length is not a multiple of 4; OSC 1.0 makes every item a multiple of 32 bits.
    case lengthNotMultipleOfFour(length: Int)
    /// The packet (or bundle element) at `offset` starts with neither "/" (a message's address) nor the
    /// OSC-string "#bundle".
    case notAMessageOrBundle(offset: Int)
    /// An item at `offset` needs `needed` bytes but the packet or bundle element ends first.
    case truncated(offset: Int, needed: Int)
    /// The OSC-string at `offset` has no NUL before the end of the packet or bundle element.
    case unterminatedString(offset: Int)
    /// A padding byte at `offset` (after a string's NUL or a blob's data) is not NUL.
    case nonZeroPadding(offset: Int)
    /// The OSC-string at `offset` is not valid UTF-8 (so it could not be sent back byte for byte).
    case invalidUTF8(offset: Int)
    /// After the address, at `offset`, come bytes that are not a type tag string (which starts with ",").
    case missingTypeTagString(offset: Int)
    /// The type tag string holds a tag OSC 1.0 does not define; the arguments' layout is unknown.
    case unknownTypeTag(tag: UInt8, offset: Int)
    /// A "]" with no "[" before it, or a "[" never closed, in the type tag string at `offset`.
    case unbalancedArray(offset: Int)
    /// Bundles or arrays nest deeper than `limit` levels.
    case nestingTooDeep(limit: Int)
    /// A bundle element's int32 size at `offset` is negative, zero, not a multiple of 4, or larger than
    /// the `remaining` bytes of the enclosing bundle.
    case bundleElementSizeOutOfRange(size: Int32, offset: Int, remaining: Int)
    /// A blob's int32 size at `offset` is negative or larger than the rest of the packet.
    case blobSizeOutOfRange(size: Int32, offset: Int)
    /// A message's arguments end at `offset` but its packet or bundle element goes on.
    case trailingBytes(offset: Int)

    public var description: String {
        switch self {
        case .empty: "empty datagram"
        case .lengthNotMultipleOfFour(let length): "length \(length) is not a multiple of 4"
        case .notAMessageOrBundle(let offset): "at byte \(offset): neither an address ('/') nor '#bundle'"
        case .truncated(let offset, let needed): "at byte \(offset): truncated, \(needed) more bytes needed"
        case .unterminatedString(let offset): "at byte \(offset): string without a terminating NUL"
        case .nonZeroPadding(let offset): "at byte \(offset): padding byte is not NUL"
        case .invalidUTF8(let offset): "at byte \(offset): string is not valid UTF-8"
        case .missingTypeTagString(let offset): "at byte \(offset): type tag string does not start with ','"
        case .unknownTypeTag(let tag, let offset):
            "at byte \(offset): unknown type tag \(tag >= 0x20 && tag < 0x7F ? "'\(Character(Unicode.Scalar(tag)))'" : "0x\(String(tag, radix: 16))")"
        case .unbalancedArray(let offset): "at byte \(offset): unbalanced '[' ']' in type tags"
        case .nestingTooDeep(let limit): "bundles or arrays nest deeper than \(limit) levels"
        case .bundleElementSizeOutOfRange(let size, let offset, let remaining):
            "at byte \(offset): bundle element size \(size) is not a positive multiple of 4 within the \(remaining) bytes left"
        case .blobSizeOutOfRange(let size, let offset): "at byte \(offset): blob size \(size) exceeds the packet"
        case .trailingBytes(let offset): "at byte \(offset): bytes after the last argument"
        }
    }
}
