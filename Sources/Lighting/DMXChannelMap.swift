import Foundation

/// How a figure's value becomes a level: linear between `from` and `to`, logarithmic (for Hz and BPM, whose
/// steps are ratios), or linear raised to a power (a dimmer's perceived brightness follows about the square).
public enum DMXCurve: Sendable, Equatable {
    case linear
    case log
    case gamma(Double)
}

/// One entry of a universe's `channels`: which slots, what drives them and how.
public struct DMXChannelMap: Sendable, Equatable {
    /// What drives the slots.
    public enum Source: Sendable, Equatable {
        /// A figure's value (the newest message at `address`, below the prefix: `/in_1/level`), from its
        /// `argument`; with several values, the arguments from `argument` on, or the one value repeated when the
        /// figure has one.
        case figure(address: String, argument: Int, repeated: Bool)
        /// An event at `address` (`/in_1/beat`): a flash of `hold` seconds from the instant it describes, or a
        /// toggle between on and off at each.
        case event(address: String, toggle: Bool, hold: Double)
    }

    /// The line of the configuration it came from, for errors.
    public var line: Int
    /// Its first slot, 1…512.
    public var first: Int
    /// 8 or 16 bits a value: a 16-bit value takes two slots, coarse then fine.
    public var bits: Int
    /// How many values, one after another from `first`.
    public var count: Int
    public var source: Source
    /// The figure's values that give 0 and full (`to` may be below `from`: the scale runs downward).
    public var from: Double
    public var to: Double
    public var curve: DMXCurve
    /// Seconds to rise and to fall by 1 − 1/e of a step (0: at once).
    public var attack: Double
    public var release: Double
    /// An event's levels, 0…1: during a flash (or toggled on), and otherwise.
    public var on: Double
    public var off: Double

    /// The slots it covers.
    public var slots: ClosedRange<Int> { first...(first + count * bits / 8 - 1) }

    /// A figure's value as a level 0…1, by the curve, clamped.
    public func level(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        let fraction: Double
        switch curve {
        case .linear, .gamma:
            fraction = (value - from) / (to - from)
        case .log:
            guard value > 0 else { return 0 }
            fraction = Foundation.log(value / from) / Foundation.log(to / from)
        }
        let clamped = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        if case .gamma(let exponent) = curve { return pow(clamped, exponent) }
        return clamped
    }

    /// One step of the attack/release smoothing: `current` moved toward `target` over `seconds`.
    public func smoothed(_ current: Double, toward target: Double, over seconds: Double) -> Double {
        let constant = target > current ? attack : release
        guard constant > 0, seconds >= 0 else { return target }
        return current + (target - current) * (1 - exp(-seconds / constant))
    }

    /// Writes `level` (0…1) as value `index` into `slots` (0-based, 512): one byte, or coarse and fine.
    public func write(_ level: Double, index: Int, into slots: inout [UInt8]) {
        let offset = first - 1 + index * bits / 8
        if bits == 16 {
            let value = UInt16((min(max(level, 0), 1) * 65535).rounded())
            slots[offset] = UInt8(value >> 8)
            slots[offset + 1] = UInt8(value & 0xFF)
        } else {
            slots[offset] = UInt8((min(max(level, 0), 1) * 255).rounded())
        }
    }
}
