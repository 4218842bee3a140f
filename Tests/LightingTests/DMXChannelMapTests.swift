import Foundation
import Testing
@testable import Lighting

/// Scaling, curves, smoothing and 16-bit slots of one channel.
struct DMXChannelMapTests {
    func map(from: Double = 0, to: Double = 1, curve: DMXCurve = .linear, bits: Int = 8, attack: Double = 0,
             release: Double = 0) -> DMXChannelMap {
        DMXChannelMap(line: 1, first: 3, bits: bits, count: 2, source: .figure(address: "/in_1/level", argument: 0, repeated: false),
                      from: from, to: to, curve: curve, attack: attack, release: release, on: 1, off: 0)
    }

    @Test func linearClampsAndMayRunDownward() {
        let dB = map(from: -40, to: 0)
        #expect(dB.level(-20) == 0.5)
        #expect(dB.level(-50) == 0 && dB.level(6) == 1)
        #expect(map(from: 1, to: 0).level(0.25) == 0.75)
        #expect(dB.level(.nan) == 0)
    }

    @Test func logGivesEqualStepsForEqualRatios() {
        let hz = map(from: 60, to: 240, curve: .log)
        #expect(abs(hz.level(120) - 0.5) < 1e-12)
        #expect(hz.level(0) == 0 && hz.level(-3) == 0)
    }

    @Test func gammaRaisesTheLinearFraction() {
        #expect(abs(map(curve: .gamma(2.2)).level(0.5) - pow(0.5, 2.2)) < 1e-12)
    }

    @Test func attackAndReleaseAreTimeConstants() {
        let smoothing = map(attack: 0.1, release: 1)
        #expect(abs(smoothing.smoothed(0, toward: 1, over: 0.1) - (1 - exp(-1))) < 1e-12)
        #expect(abs(smoothing.smoothed(1, toward: 0, over: 1) - exp(-1)) < 1e-12)
        #expect(map().smoothed(0.2, toward: 0.7, over: 0.01) == 0.7)
    }

    @Test func sixteenBitsAreCoarseThenFine() {
        var slots = [UInt8](repeating: 0, count: 512)
        let wide = map(bits: 16)
        wide.write(0.5, index: 1, into: &slots)  // value 1 of the channel: slots 5 and 6 (1-based)
        #expect(slots[4] == 0x80 && slots[5] == 0x00)
        wide.write(1, index: 0, into: &slots)
        #expect(slots[2] == 0xFF && slots[3] == 0xFF)
        map().write(0.5, index: 0, into: &slots)
        #expect(slots[2] == 128)
    }
}
