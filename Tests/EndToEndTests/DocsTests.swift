import Foundation
import ToolSupport
import XCTest

/// The docs that jacktap itself knows are what it says: docs/options.md is every subcommand's `--help` and
/// docs/osc-reference.md what `jacktap figures` writes from the schema, as scripts/write-docs writes them.
final class DocsTests: XCTestCase {
    func testTheOptionsAndOSCReferencesAreWhatJacktapPrints() throws {
        let directory = Tool.temporaryPath("docs")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Tool.run(Tool.repositoryPath("scripts/write-docs"), [Tool.jacktap, directory])
        for name in ["options.md", "osc-reference.md"] {
            let written = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            let committed = try String(contentsOfFile: Tool.repositoryPath("docs/" + name), encoding: .utf8)
            XCTAssertTrue(written == committed, "docs/\(name) differs from what jacktap prints: run scripts/write-docs")
            XCTAssertGreaterThan(written.count, 1_000, name)
        }
        // Every option a subcommand takes is in the file (a subcommand left out of the script would miss them).
        let options = try String(contentsOfFile: Tool.repositoryPath("docs/options.md"), encoding: .utf8)
        for option in ["--osc", "--http", "--midi-clock", "--link", "--os2l", "--period", "--on-connect", "--prefix"] {
            XCTAssertTrue(options.contains(option), option)
        }
    }
}
