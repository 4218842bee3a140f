@testable import OSC
import Testing
import ToolSupport

/// The decoder must survive anything a network can deliver: it either throws an ``OSCDecodeError`` or
/// returns a packet whose encoding decodes again to the same bytes. A crash (trap, overflow, huge
/// allocation) fails the whole test run.
@Suite struct OSCDecoderFuzzTests {
    /// How one fuzz input was made.
    enum Source: CaseIterable { case randomBytes, bitFlips, truncation, insertion, sizeFieldCorruption, tagReplacement, bundleWrapping }

    /// Values that break size fields in interesting ways: zero, negative, huge, off by a few.
    static let hostileWords: [UInt32] = [0, 1, 3, 4, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFC, 0x0001_0000]

    /// Makes one input from `valid` (an encoding of a random well-formed packet) or from scratch.
    static func input(_ source: Source, valid: [UInt8], random: inout SplitMix) -> [UInt8] {
        var bytes = valid
        switch source {
        case .randomBytes:
            var count = random.below(1501)
            if random.below(2) == 0 { count &= ~3 }
            bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Half start like a message or a bundle, so the decoder gets past the first byte.
            if count >= 8, random.below(2) == 0 {
                bytes.replaceSubrange(0..<8, with: random.below(2) == 0 ? Array("#bundle".utf8) + [0] : Array("/a\0\0,".utf8) + [0x69, 0, 0])
            }
        case .bitFlips:
            guard !bytes.isEmpty else { break }
            for _ in 0...random.below(3) { bytes[random.below(bytes.count)] ^= UInt8(1) << random.below(8) }
        case .truncation:
            bytes.removeLast(random.below(bytes.count + 1))
        case .insertion:
            let count = random.below(2) == 0 ? 4 * (1 + random.below(3)) : 1 + random.below(7)
            let insert = (0..<count).map { _ in random.below(3) == 0 ? 0 : UInt8(truncatingIfNeeded: random.next()) }
            bytes.insert(contentsOf: insert, at: random.below(bytes.count + 1))
        case .sizeFieldCorruption:
            // Any aligned word may be a blob or element size; overwrite one with a hostile or nearby value.
            guard bytes.count >= 4 else { break }
            let position = 4 * random.below(bytes.count / 4)
            let old = UInt32(bytes[position]) << 24 | UInt32(bytes[position + 1]) << 16 | UInt32(bytes[position + 2]) << 8 | UInt32(bytes[position + 3])
            let word = random.below(2) == 0 ? hostileWords[random.below(hostileWords.count)] : old &+ UInt32(bitPattern: Int32(random.below(17) - 8))
            bytes.replaceSubrange(position..<(position + 4), with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) })
        case .tagReplacement:
            // Swap one byte of the first type tag string for another tag or bracket.
            guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")), comma + 1 < bytes.count else { break }
            let tags = Array("ifsbhtdScrmTFNI[]xX\0".utf8)
            bytes[comma + 1 + random.below(min(12, bytes.count - comma - 1))] = tags[random.below(tags.count)]
        case .bundleWrapping:
            // One or two more levels of bundle around the packet (past the nesting limit for the deepest).
            for _ in 0...random.below(2) {
                let size = UInt32(truncatingIfNeeded: bytes.count)
                bytes = Array("#bundle".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + bytes
            }
        }
        return bytes
    }

    @Test func hundredThousandRandomAndMutatedPacketsNeverCrashAndAcceptedOnesReencode() throws {
        var random = SplitMix(seed: 0x0F_0220)
        var generator = RandomOSCPackets(seed: 0xB0D1E5)
        var deepArray = OSCArgument.array([.int32(1)])
        var deepBundle = OSCPacket.message(OSCMessage("/d", [.string("x")]))
        for _ in 1..<OSCPacket.maximumNestingDepth { deepArray = .array([deepArray, .bool(true)]) }
        for _ in 0..<OSCPacket.maximumNestingDepth { deepBundle = .bundle(OSCBundle([deepBundle])) }
        // Packets at the nesting limit, so that one more "[" or a shifted size crosses it.
        let valid = (0..<500).map { _ in generator.packet().encoded }
            + Array(repeating: OSCMessage("/d", [deepArray]).encoded, count: 20) + Array(repeating: deepBundle.encoded, count: 20)
        var accepted: [Source: Int] = [:]
        var rejected: [Source: Int] = [:]
        var errorKinds: Set<String> = []
        var decoding = Duration.zero
        let total = 120_000
        let start = ContinuousClock.now
        for iteration in 0..<total {
            let source = Source.allCases[iteration % Source.allCases.count]
            let input = Self.input(source, valid: valid[random.below(valid.count)], random: &random)
            let decodeStart = ContinuousClock.now
            let result = Result { () throws(OSCDecodeError) in try OSCPacket(decoding: input) }
            decoding += ContinuousClock.now - decodeStart
            switch result {
            case .success(let packet):
                accepted[source, default: 0] += 1
                let reencoded = packet.encoded
                do {
                    #expect(try OSCPacket(decoding: reencoded).encoded == reencoded, "accepted \(input) does not round-trip")
                } catch {
                    Issue.record("accepted \(input), but its re-encoding \(reencoded) fails: \(error)")
                }
            case .failure(let error):
                rejected[source, default: 0] += 1
                errorKinds.insert(Self.kind(of: error))
            }
        }
        let elapsed = ContinuousClock.now - start
        let acceptedTotal = accepted.values.reduce(0, +)
        let rejectedTotal = rejected.values.reduce(0, +)
        print("OSC fuzz: \(total) packets in \(elapsed) (decoding \(decoding)): \(acceptedTotal) accepted, \(rejectedTotal) rejected")
        print("OSC fuzz: accepted by source \(accepted), rejected by source \(rejected)")
        print("OSC fuzz: error kinds \(errorKinds.sorted())")
        #expect(acceptedTotal + rejectedTotal == total)
        // Both outcomes must be common, or the decoder accepts nothing (or everything) and the test is idle.
        #expect(acceptedTotal > total / 10)
        #expect(rejectedTotal > total / 10)
        // Every mutation must reach the rejecting paths, and every kind of malformation must occur.
        for source in Source.allCases { #expect(rejected[source, default: 0] > 100, "\(source)") }
        // Random bytes and insertions are rarely well-formed; the other mutations often leave a valid packet.
        for source in [Source.bitFlips, .truncation, .sizeFieldCorruption, .tagReplacement, .bundleWrapping] {
            #expect(accepted[source, default: 0] > 100, "\(source)")
        }
        #expect(errorKinds.count == 14, "\(errorKinds.sorted())")
    }

    /// The case name of `error`, without its payload.
    static func kind(of error: OSCDecodeError) -> String {
        switch error {
        case .empty: "empty"
        case .lengthNotMultipleOfFour: "lengthNotMultipleOfFour"
        case .notAMessageOrBundle: "notAMessageOrBundle"
        case .truncated: "truncated"
        case .unterminatedString: "unterminatedString"
        case .nonZeroPadding: "nonZeroPadding"
        case .invalidUTF8: "invalidUTF8"
        case .missingTypeTagString: "missingTypeTagString"
        case .unknownTypeTag: "unknownTypeTag"
        case .unbalancedArray: "unbalancedArray"
        case .nestingTooDeep: "nestingTooDeep"
        case .bundleElementSizeOutOfRange: "bundleElementSizeOutOfRange"
        case .blobSizeOutOfRange: "blobSizeOutOfRange"
        case .trailingBytes: "trailingBytes"
        }
    }
}
