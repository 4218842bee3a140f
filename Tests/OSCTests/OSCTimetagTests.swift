import Testing

@testable import OSC

/// NTP time tags (OSC 1.0 "Time tags"; epoch offsets from RFC 5905, figure 4).
@Suite struct OSCTimetagTests {
    @Test func immediatelyIsOne() {
        #expect(OSCTimetag.immediately.rawValue == 1)
    }

    @Test(arguments: [
        // RFC 5905 figure 4: 1 Jan 1970 is NTP second 2,208,988,800; 1 Jan 1972 is 2,272,060,800;
        // 31 Dec 1999 is 3,155,587,200.
        (0.0, UInt32(2_208_988_800)),
        (63_072_000.0, UInt32(2_272_060_800)),
        (946_598_400.0, UInt32(3_155_587_200)),
    ])
    func unixTimeOfRFC5905DatesGivesTheirNTPSeconds(unix: Double, ntpSeconds: UInt32) {
        let tag = OSCTimetag(unixSeconds: unix)
        #expect(tag.seconds == ntpSeconds)
        #expect(tag.fraction == 0)
    }

    @Test func unixEpochIsHex83AA7E80() {
        #expect(OSCTimetag(unixSeconds: 0).rawValue == 0x83AA_7E80_0000_0000)
    }

    @Test func fractionCountsUnitsOfTwoToTheMinus32Seconds() {
        #expect(OSCTimetag(unixSeconds: 1_700_000_000.25).rawValue == 0xE8FE_6F80_4000_0000)
        #expect(OSCTimetag(unixSeconds: 1.5).rawValue == 0x83AA_7E81_8000_0000)
    }

    @Test func fractionThatRoundsToAWholeSecondCarries() {
        #expect(OSCTimetag(unixSeconds: 1 - 1e-11).rawValue == 0x83AA_7E81_0000_0000)
    }

    @Test func secondsWrapIntoNTPEraOneOn2036February7() {
        // 2036-02-07 06:28:16 UTC is Unix 2,085,978,496 and NTP 2^32: era 1 starts again at 0.
        #expect(OSCTimetag(unixSeconds: 2_085_978_496).rawValue == 0)
        #expect(OSCTimetag(unixSeconds: 2_085_978_497.5).rawValue == 0x0000_0001_8000_0000)
    }

    @Test func timesBefore1900AndNonFiniteGiveZero() {
        #expect(OSCTimetag(unixSeconds: -2_208_988_801).rawValue == 0)
        #expect(OSCTimetag(unixSeconds: .nan).rawValue == 0)
        #expect(OSCTimetag(unixSeconds: .infinity).rawValue == 0)
    }
}
