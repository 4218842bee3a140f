/// One argument of an OSC message, limited to the four core types of OSC 1.0.
///
/// Only `i f s b` are offered because they are the only tags every OSC 1.0 implementation must
/// understand; lighting consoles break on the optional ones (QLC+ 4.12 stops at unknown tags, python-osc
/// mis-reads the arguments after `S`, `c` or `I`).
public enum OSCArgument: Sendable, Equatable {
    /// A 32-bit big-endian two's complement integer (type tag `i`).
    case int32(Int32)
    /// A 32-bit big-endian IEEE 754 float (type tag `f`).
    case float32(Float)
    /// An OSC-string (type tag `s`): the bytes, a NUL, then NULs to a multiple of 4.
    case string(String)
    /// An OSC-blob (type tag `b`): an int32 byte count, the bytes, then NULs to a multiple of 4.
    case blob([UInt8])

    /// The ASCII type tag character that announces this argument in the message's type tag string.
    public var typeTag: UInt8 {
        switch self {
        case .int32: UInt8(ascii: "i")
        case .float32: UInt8(ascii: "f")
        case .string: UInt8(ascii: "s")
        case .blob: UInt8(ascii: "b")
        }
    }

    /// Appends the argument's data (not its tag) in OSC 1.0 binary form.
    func encode(into buffer: inout [UInt8]) {
        switch self {
        case .int32(let value): buffer.appendBigEndian(UInt32(bitPattern: value))
        case .float32(let value): buffer.appendBigEndian(value.bitPattern)
        case .string(let value): buffer.appendOSCString(value)
        case .blob(let bytes): buffer.appendOSCBlob(bytes)
        }
    }
}
