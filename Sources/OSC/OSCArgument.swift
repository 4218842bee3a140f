/// One argument of an OSC message: the four core types of OSC 1.0 (`i f s b`) and its optional ones
/// (`h t d S c r m T F N I [ ]`).
///
/// Send only the core types to lighting consoles: QLC+ 4.12 stops at unknown tags and python-osc
/// mis-reads the arguments after `S`, `c` or `I`. The optional types are here so that control input can
/// decode whatever a sender uses.
public enum OSCArgument: Sendable, Equatable {
    /// A 32-bit big-endian two's complement integer (type tag `i`).
    case int32(Int32)
    /// A 32-bit big-endian IEEE 754 float (type tag `f`).
    case float32(Float)
    /// An OSC-string (type tag `s`): the bytes, a NUL, then NULs to a multiple of 4.
    case string(String)
    /// An OSC-blob (type tag `b`): an int32 byte count, the bytes, then NULs to a multiple of 4.
    case blob([UInt8])
    /// A 64-bit big-endian two's complement integer (type tag `h`).
    case int64(Int64)
    /// An OSC time tag as an argument (type tag `t`), 8 bytes as in a bundle header.
    case timetag(OSCTimetag)
    /// A 64-bit big-endian IEEE 754 double (type tag `d`).
    case double(Double)
    /// An alternate string, for systems that tell symbols from strings (type tag `S`); sent as an
    /// OSC-string.
    case symbol(String)
    /// An ASCII character sent as 32 bits (type tag `c`); like liblo, the character is the last
    /// (least significant) byte. Decoding keeps only that byte.
    case character(UInt8)
    /// A 32-bit RGBA colour, red in the most significant byte (type tag `r`).
    case rgba(UInt32)
    /// A 4-byte MIDI message (type tag `m`): port id, status byte, data 1, data 2.
    case midi(OSCMIDIMessage)
    /// True (`T`) or false (`F`); neither takes any argument data.
    case bool(Bool)
    /// Nil (type tag `N`), no argument data.
    case `nil`
    /// Impulse, called "Infinitum" in OSC 1.0 (type tag `I`), no argument data.
    case impulse
    /// An array (type tags `[` … `]`): the elements' tags sit between the brackets, their data is
    /// inline; arrays may nest.
    indirect case array([OSCArgument])

    /// The ASCII type tag character that announces this argument in the message's type tag string; for
    /// an array this is only its opening `[` (see ``appendTypeTags(into:)`` for the whole run).
    public var typeTag: UInt8 {
        switch self {
        case .int32: UInt8(ascii: "i")
        case .float32: UInt8(ascii: "f")
        case .string: UInt8(ascii: "s")
        case .blob: UInt8(ascii: "b")
        case .int64: UInt8(ascii: "h")
        case .timetag: UInt8(ascii: "t")
        case .double: UInt8(ascii: "d")
        case .symbol: UInt8(ascii: "S")
        case .character: UInt8(ascii: "c")
        case .rgba: UInt8(ascii: "r")
        case .midi: UInt8(ascii: "m")
        case .bool(let value): value ? UInt8(ascii: "T") : UInt8(ascii: "F")
        case .nil: UInt8(ascii: "N")
        case .impulse: UInt8(ascii: "I")
        case .array: UInt8(ascii: "[")
        }
    }

    /// Appends this argument's type tags: one character, or for an array `[`, the elements' tags and `]`.
    public func appendTypeTags(into buffer: inout [UInt8]) {
        guard case .array(let elements) = self else {
            buffer.append(typeTag)
            return
        }
        buffer.append(UInt8(ascii: "["))
        for element in elements {
            element.appendTypeTags(into: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Appends the argument's data (not its tag) in OSC 1.0 binary form.
    func encode(into buffer: inout [UInt8]) {
        switch self {
        case .int32(let value): buffer.appendBigEndian(UInt32(bitPattern: value))
        case .float32(let value): buffer.appendBigEndian(value.bitPattern)
        case .string(let value), .symbol(let value): buffer.appendOSCString(value)
        case .blob(let bytes): buffer.appendOSCBlob(bytes)
        case .int64(let value): buffer.appendBigEndian(UInt64(bitPattern: value))
        case .timetag(let value): buffer.appendBigEndian(value.rawValue)
        case .double(let value): buffer.appendBigEndian(value.bitPattern)
        case .character(let value): buffer.appendBigEndian(UInt32(value))
        case .rgba(let value): buffer.appendBigEndian(value)
        case .midi(let value): buffer.append(contentsOf: [value.port, value.status, value.data1, value.data2])
        case .bool, .nil, .impulse: break
        case .array(let elements):
            for element in elements {
                element.encode(into: &buffer)
            }
        }
    }
}
