import Foundation
@testable import MeterBridge
import Schema
import XCTest

/// The page's labels and tooltips come from the schema of figures, in a data block nothing can break out of.
final class MeterBridgePageTests: XCTestCase {
    func testThePageCarriesEveryFiguresLabelAndSummary() throws {
        let html = MeterBridgePage.html(prefix: "/jacktap")
        let open = #"<script type="application/json" id="figures">"#
        let start = try XCTUnwrap(html.range(of: open)).upperBound
        let end = try XCTUnwrap(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        let block = String(html[start..<end])
        XCTAssertFalse(block.contains("<"), "a < could close the script element")
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: [String: String]])
        XCTAssertEqual(Set(entries.keys), Set(FigureSchema.all.map(\.path)))
        XCTAssertEqual(entries["truepeak"]?["label"], "true peak")
        XCTAssertEqual(entries["loudness/range"]?["label"], "LRA")
        XCTAssertEqual(entries["peak"]?["summary"], FigureSchema.peak.summary)
    }
}
