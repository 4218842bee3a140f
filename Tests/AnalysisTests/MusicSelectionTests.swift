import Analysis
import XCTest

/// `--music` per port: bare items, rules by name, glob and range, the later rule winning, and the errors.
final class MusicSelectionTests: XCTestCase {
    func analyses(_ specs: [String], _ port: String) throws -> String {
        let a = try MusicSelection(parsing: specs).analyses(forPort: port)
        return a == .all ? "all" : a == .none ? "none" : a.pitch ? "pitch" : "rhythm"
    }

    func testWithoutItemsEveryPortRunsEverything() throws {
        XCTAssertEqual(try analyses([], "in_7"), "all")
        XCTAssertEqual(MusicSelection(), try MusicSelection(parsing: ["all"]))
    }

    func testBareItemsSetEveryPortAndCombine() throws {
        XCTAssertEqual(try analyses(["pitch"], "in_1"), "pitch")
        XCTAssertEqual(try analyses(["pitch,rhythm"], "in_1"), "all")
        XCTAssertEqual(try analyses(["none"], "in_1"), "none")
        XCTAssertEqual(try analyses(["pitch", "rhythm"], "in_1"), "all", "repeated --music options add up")
    }

    func testARangeNamesTheNumberedPortsBetweenItsEnds() throws {
        let specs = ["in_1=all,in_2..in_64=none"]
        XCTAssertEqual(try analyses(specs, "in_1"), "all")
        XCTAssertEqual(try analyses(specs, "in_2"), "none")
        XCTAssertEqual(try analyses(specs, "in_64"), "none")
        XCTAssertEqual(try analyses(specs, "in_65"), "all", "not named: the default")
        XCTAssertEqual(try analyses(specs, "in_"), "all")
        XCTAssertEqual(try analyses(specs, "bus_3"), "all")
        XCTAssertEqual(try analyses(["in_2..64=pitch"], "in_30"), "pitch", "the second end may omit the prefix")
        XCTAssertEqual(try analyses(["in_2..64=pitch"], "in_3x"), "all")
    }

    func testGlobsAndTheLaterRuleWins() throws {
        let specs = ["none,drum*=rhythm,*vox*=pitch", "drum_kick=pitch+rhythm"]
        XCTAssertEqual(try analyses(specs, "drum_snare"), "rhythm")
        XCTAssertEqual(try analyses(specs, "drum_kick"), "all")
        XCTAssertEqual(try analyses(specs, "lead_vox"), "pitch")
        XCTAssertEqual(try analyses(specs, "bass"), "none", "the bare item is the default")
        XCTAssertEqual(try analyses(["in_[12]=none"], "in_2"), "none")
        XCTAssertEqual(try analyses(["in_[12]=none"], "in_3"), "all")
    }

    func testUnreadableItemsAreErrorsThatQuoteThem() {
        for (spec, quoted) in [("in_1=tempo", "tempo"), ("in_5..in_2=all", "in_5..in_2"), ("=all", "without ports"),
                               ("all,,none", "empty"), ("x..in_4=all", "x..in_4"), ("in_2..y=all", "in_2..y"),
                               ("beats", "beats")] {
            XCTAssertThrowsError(try MusicSelection(parsing: [spec]), spec) { error in
                XCTAssertTrue("\(error)".contains(quoted), "\(spec): \(error)")
            }
        }
    }
}
