import Analysis
import Foundation
import Glibc
import LoudnessLog
import Synchronization
import XCTest

/// The log's files: appended line by line, made anew with their header when deleted, and a failure to write said
/// once and counted while everything else goes on.
/// What the writer said, from its thread.
final class Said: Sendable {
    let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func add(_ line: String) { lines.withLock { $0.append(line) } }
}

final class LoudnessLogWriterTests: XCTestCase {
    func directory() throws -> String {
        let path = NSTemporaryDirectory() + "jacktap-log-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func feed(_ dir: String, said: Said) throws -> LoudnessLogFeed {
        let writer = try LoudnessLogWriter(directory: dir) { said.add($0) }
        return LoudnessLogFeed(recorder: ProgrammeRecorder(client: "studio", target: .ebuR128), writer: writer)
    }

    func tick(_ time: Double) -> Snapshot {
        Snapshot(time: time, ports: [], overruns: 0, programmes: [
            ProgrammeReading(name: "main", momentary: -20, shortTerm: -21, integrated: -23, range: 3, maxMomentary: -18,
                             maxShortTerm: -19),
        ])
    }

    func testAFileDeletedWhileRunningIsMadeAnewWithItsHeader() throws {
        let dir = try directory()
        let said = Said()
        let log = try feed(dir, said: said)
        for i in 1...60 { log.record(tick(Double(i) / 30), wall: 100 + Double(i) / 30) }
        // Wait for the writer: the file holds its header and two rows.
        let path = dir + "/studio-main.csv"
        let deadline = Date().addingTimeInterval(10)
        while ((try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").count ?? 0) < 3,
              Date() < deadline { usleep(10_000) }
        unlink(path)
        for i in 61...120 { log.record(tick(Double(i) / 30), wall: 100 + Double(i) / 30) }
        log.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.first.map(String.init), ProgrammeRecorder.Row.csvHeader)
        XCTAssertEqual(lines.dropFirst().map { $0.split(separator: ",")[1] }, ["3", "4"], "the rows after the deletion")
        let reports = try String(contentsOfFile: dir + "/studio-main-reports.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(reports.count, 2, "header and the exit's report")
        let json = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(json.count, 1)
        XCTAssertEqual(said.all, [], "nothing went wrong")
    }

    func testAFileThatCannotBeWrittenIsSaidOnceCountedAndWrittenAgainLater() throws {
        let dir = try directory()
        // A directory where the log file should be: every open of it fails (EISDIR), even for root.
        try FileManager.default.createDirectory(atPath: dir + "/studio-main.csv", withIntermediateDirectories: false)
        let said = Said()
        let writer = try LoudnessLogWriter(directory: dir) { said.add($0) }
        let log = LoudnessLogFeed(recorder: ProgrammeRecorder(client: "studio", target: .ebuR128), writer: writer)
        for i in 1...90 { log.record(tick(Double(i) / 30), wall: Double(i) / 30) }
        let deadline = Date().addingTimeInterval(10)
        while writer.lost < 3, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(writer.lost, 3, "three rows could not be written")
        try FileManager.default.removeItem(atPath: dir + "/studio-main.csv")
        for i in 91...120 { log.record(tick(Double(i) / 30), wall: Double(i) / 30) }
        log.finish()
        let messages = said.all
        XCTAssertEqual(messages.count, 2, "\(messages)")
        XCTAssertTrue(messages.first?.contains("cannot write \(dir)/studio-main.csv: Is a directory") ?? false, "\(messages)")
        XCTAssertTrue(messages.last?.contains("writing \(dir)/studio-main.csv again (3 lines lost)") ?? false, "\(messages)")
        let lines = try String(contentsOfFile: dir + "/studio-main.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "header and second 4")
    }

    func testADirectoryThatIsNotThereIsRefusedAtTheStart() {
        XCTAssertThrowsError(try LoudnessLogWriter(directory: "/nonexistent/jacktap-log") { _ in }) { error in
            XCTAssertEqual("\(error)", "/nonexistent/jacktap-log is not a directory (make it first)")
        }
    }
}
