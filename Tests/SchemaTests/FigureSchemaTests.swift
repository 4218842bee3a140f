import Foundation
import Schema
import XCTest

/// The schema itself: one declaration per address, only the tags every console takes, addresses found with or
/// without a prefix, and the reference in docs/ exactly what the schema writes.
final class FigureSchemaTests: XCTestCase {
    func testEveryAddressIsDeclaredOnce() {
        let addresses = FigureSchema.all.map { $0.pattern() }
        XCTAssertEqual(Set(addresses).count, addresses.count, "\(addresses)")
    }

    func testOnlyTheTagsIFSAreDeclaredEachWithWhatItCarries() {
        for figure in FigureSchema.all {
            let tags = figure.typeTags.filter { $0 != "*" }
            XCTAssertTrue(tags.allSatisfy { "ifs".contains($0) }, "\(figure.path): \(figure.typeTags)")
            XCTAssertEqual(figure.arguments.count, figure.typeTags.hasSuffix("*") ? tags.count : figure.typeTags.count,
                           "\(figure.path): one description per argument")
            XCTAssertFalse(figure.summary.isEmpty, figure.path)
        }
    }

    func testAnAddressFindsItsFigureWithOrWithoutAPrefix() {
        XCTAssertEqual(FigureSchema.figure(at: "/in_1/peak"), FigureSchema.peak)
        XCTAssertEqual(FigureSchema.figure(at: "/jacktap/in_1/peak"), FigureSchema.peak)
        XCTAssertEqual(FigureSchema.figure(at: "/stage/left/main/loudness/momentary"), FigureSchema.momentary)
        XCTAssertEqual(FigureSchema.figure(at: "/main/loudness/range"), FigureSchema.loudnessRange)
        XCTAssertEqual(FigureSchema.figure(at: "/status"), FigureSchema.status)
        XCTAssertEqual(FigureSchema.figure(at: "/jacktap/status"), FigureSchema.status)
        // A port's figure needs the port's part: `/peak` alone is no address jacktap sends.
        XCTAssertNil(FigureSchema.figure(at: "/peak"))
        XCTAssertNil(FigureSchema.figure(at: "/in_1/loudness"))
        XCTAssertNil(FigureSchema.figure(at: "/in_1/volume"))
    }

    func testTypeTagsAreCheckedAgainstTheDeclaration() {
        XCTAssertTrue(FigureSchema.declares(address: "/in_1/bands", typeTags: String(repeating: "f", count: 48)))
        XCTAssertTrue(FigureSchema.declares(address: "/in_1/bands", typeTags: ""), "no band at all is f* too")
        XCTAssertFalse(FigureSchema.declares(address: "/in_1/bands", typeTags: "ffi"))
        XCTAssertTrue(FigureSchema.declares(address: "/in_1/note", typeTags: "sif"))
        XCTAssertFalse(FigureSchema.declares(address: "/in_1/note", typeTags: "sf"))
        XCTAssertFalse(FigureSchema.declares(address: "/in_1/beat", typeTags: "ff"))
        XCTAssertFalse(FigureSchema.declares(address: "/in_1/volume", typeTags: "f"))
    }

    func testScalingFollowsWhatIsMeasured() {
        // dB and LUFS are mapped from a destination's floor..ceiling; the loudness range (LU, a difference of
        // levels) and the meters' own scales (VU, PPM, K) are not dBFS and go as they are.
        XCTAssertEqual(FigureSchema.peak.kind.scaling, .decibels)
        XCTAssertEqual(FigureSchema.maxShortTerm.kind.scaling, .decibels)
        XCTAssertEqual(FigureSchema.loudnessRange.kind.scaling, .asIs)
        XCTAssertEqual(FigureSchema.vu.kind.scaling, .asIs)
        XCTAssertEqual(FigureSchema.bands7.kind.scaling, .unit)
        XCTAssertEqual(FigureSchema.phase.kind.scaling, .cyclicUnit)
        XCTAssertEqual(FigureSchema.onset.kind.scaling, .asIs)
    }

    func testTheReferenceInDocsIsWhatTheSchemaWrites() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("docs/osc-reference.md").path
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(committed == FigureReference.markdown(),
                      "docs/osc-reference.md differs from the schema: regenerate it with `jacktap figures > \(path)`")
        for figure in FigureSchema.all {
            XCTAssertTrue(committed.contains("`" + figure.pattern() + "`"), figure.path)
        }
    }
}
