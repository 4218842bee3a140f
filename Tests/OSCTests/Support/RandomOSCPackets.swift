@testable import OSC
import ToolSupport

/// Random well-formed packets using every OSC 1.0 type tag, nested arrays and nested bundles: the valid
/// half of the decoder's round-trip and fuzz tests. No NaN floats, so packets compare equal after a
/// round trip.
struct RandomOSCPackets {
    var random: SplitMix

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    /// Characters for addresses (legal in address parts) and strings; the last two are multi-byte UTF-8.
    static let partCharacters = Array("abcdefghijklmnopqrstuvwxyz0123456789_-.:")
    static let stringCharacters = Array("abcXYZ 019 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~éλ♪")

    mutating func packet(bundleDepth: Int = 0) -> OSCPacket {
        guard bundleDepth < 3, random.below(4) == 0 else { return .message(message()) }
        let elements = (0..<random.below(4)).map { _ in packet(bundleDepth: bundleDepth + 1) }
        return .bundle(OSCBundle(timetag: OSCTimetag(rawValue: random.next()), elements))
    }

    mutating func message() -> OSCMessage {
        var address = ""
        for _ in 0...random.below(3) {
            address += "/" + String((0...random.below(8)).map { _ in Self.partCharacters[random.below(Self.partCharacters.count)] })
        }
        return OSCMessage(address, (0..<random.below(7)).map { _ in argument(arrayDepth: 0) })
    }

    mutating func text() -> String {
        String((0..<random.below(10)).map { _ in Self.stringCharacters[random.below(Self.stringCharacters.count)] })
    }

    mutating func argument(arrayDepth: Int) -> OSCArgument {
        switch random.below(arrayDepth < 2 ? 16 : 15) {
        case 0: return .int32(Int32(truncatingIfNeeded: random.next()))
        case 1:
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            return .float32(value.isNaN ? 0.5 : value)
        case 2: return .string(text())
        case 3: return .blob((0..<random.below(9)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 4: return .int64(Int64(bitPattern: random.next()))
        case 5: return .timetag(OSCTimetag(rawValue: random.next()))
        case 6:
            let value = Double(bitPattern: random.next())
            return .double(value.isNaN ? -2.25 : value)
        case 7: return .symbol(text())
        case 8: return .character(UInt8(truncatingIfNeeded: random.next()))
        case 9: return .rgba(UInt32(truncatingIfNeeded: random.next()))
        case 10:
            let word = random.next()
            return .midi(
                OSCMIDIMessage(
                    port: UInt8(truncatingIfNeeded: word), status: UInt8(truncatingIfNeeded: word >> 8),
                    data1: UInt8(truncatingIfNeeded: word >> 16), data2: UInt8(truncatingIfNeeded: word >> 24)))
        case 11: return .bool(random.below(2) == 0)
        case 12: return .nil
        case 13: return .impulse
        case 14: return .int32(Int32(random.below(100)))
        default: return .array((0..<random.below(4)).map { _ in argument(arrayDepth: arrayDepth + 1) })
        }
    }
}
