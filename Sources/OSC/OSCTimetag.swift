/// An OSC time tag: a 64-bit NTP timestamp, 32 bits of seconds since 1900-01-01 00:00 UTC and 32 bits of
/// fraction of a second (OSC 1.0, "Time tags", which takes the format from NTP, RFC 5905).
public struct OSCTimetag: Sendable, Equatable, Hashable {
    /// The timestamp as sent: seconds in the high 32 bits, fraction in the low 32 bits.
    public var rawValue: UInt64

    /// The special value 1 (63 zero bits, then a one), which OSC 1.0 defines as "immediately".
    public static let immediately = OSCTimetag(rawValue: 1)

    /// Seconds from the NTP epoch (1900) to the Unix epoch (1970): 70 years including 17 leap days
    /// (RFC 5905, figure 4).
    static let unixEpochInNTPSeconds: UInt64 = 2_208_988_800

    /// Creates a time tag from its raw 64-bit NTP form.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Creates the time tag for a Unix time (seconds since 1970-01-01 00:00 UTC, as from
    /// `clock_gettime(CLOCK_REALTIME)`).
    ///
    /// Seconds wrap modulo 2³² as NTP era numbers do (era 1 starts on 2036-02-07); times before 1900 and
    /// non-finite values give 0.
    public init(unixSeconds: Double) {
        guard unixSeconds.isFinite else {
            self.rawValue = 0
            return
        }
        let ntpSeconds = unixSeconds.rounded(.down) + Double(Self.unixEpochInNTPSeconds)
        guard ntpSeconds >= 0, ntpSeconds < 0x1p63 else {
            self.rawValue = 0
            return
        }
        var seconds = UInt64(ntpSeconds)
        // The fraction counts units of 2^-32 s (about 233 ps); rounding can reach a whole second.
        var fraction = ((unixSeconds - unixSeconds.rounded(.down)) * 0x1p32).rounded()
        if fraction >= 0x1p32 {
            fraction = 0
            seconds += 1
        }
        self.rawValue = (seconds & 0xFFFF_FFFF) << 32 | UInt64(fraction)
    }

    /// Whole seconds since 1900 (within the NTP era), the high 32 bits.
    public var seconds: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }

    /// The fraction of a second in units of 2⁻³² s, the low 32 bits.
    public var fraction: UInt32 { UInt32(truncatingIfNeeded: rawValue) }
}
