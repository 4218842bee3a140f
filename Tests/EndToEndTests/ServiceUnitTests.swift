import Foundation
import ToolSupport
import XCTest

/// `jack/jacktap@.service` as systemd reads it: `systemd-analyze verify` on an instance of it, with ExecStart
/// pointing at the built jacktap (it runs nothing; these machines have no user session to start it in).
final class ServiceUnitTests: XCTestCase {
    func testTheUserUnitVerifiesAndRunsJacktapWithItsInstancesConfigAndRestartOnFailure() throws {
        let unit = try String(contentsOfFile: Tool.repositoryPath("jack/jacktap@.service"), encoding: .utf8)
        XCTAssertTrue(unit.contains("ExecStart=/usr/local/bin/jacktap --config %h/.config/jacktap/%i.yaml"), unit)
        XCTAssertTrue(unit.contains("Restart=on-failure"))
        XCTAssertTrue(unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        let directory = Tool.temporaryPath("unit-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let template = directory + "/jacktap@.service"
        try unit.replacingOccurrences(of: "/usr/local/bin/jacktap", with: Tool.jacktap)
            .write(toFile: template, atomically: true, encoding: .utf8)
        let instance = directory + "/jacktap@stage.service"
        try FileManager.default.createSymbolicLink(atPath: instance, withDestinationPath: template)
        let verify = try Tool.capture("systemd-analyze", ["verify", "--man=no", instance])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(verify.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "", "systemd found nothing to say")
    }

    func testTheDesktopFileSaysJacktapIsNSMCapable() throws {
        let entry = try String(contentsOfFile: Tool.repositoryPath("jack/jacktap.desktop"), encoding: .utf8)
        XCTAssertTrue(entry.split(separator: "\n").contains("X-NSM-Capable=true"), entry)
        XCTAssertTrue(entry.split(separator: "\n").contains("Exec=jacktap"), entry)
    }
}
