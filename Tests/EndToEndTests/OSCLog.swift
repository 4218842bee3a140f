import Foundation
import ToolSupport
import XCTest

/// oscdump (liblo) listening on a free port for the whole of a test, its lines read while it runs, so a test
/// can wait for a message (a status, a restart, the first correct note) instead of for a time.
final class OSCLog {
    private(set) var port: UInt16 = 0
    private var process: ChildProcess!
    private var path = ""
    private var errorPath = ""

    /// Starts oscdump and waits until its port is bound.
    init() throws {
        port = Tool.freeUDPPort()
        path = Tool.temporaryPath("osclog-\(port).txt")
        errorPath = path + ".err"
        unlink(path)
        unlink(errorPath)
        // -L: line-buffered, so every message is in the file as soon as it arrives (liblo's oscdump: "line
        // buffering even if stdout is a pipe or file").
        process = try Tool.start("oscdump", ["-L", String(port)], stdoutPath: path, stderrPath: errorPath)
        do { try Receiver.waitUntilBound(port: port, timeout: 60) } catch {
            let said = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            stop()
            throw Tool.Failed(description: "\(error) (oscdump \(process.isRunning ? "running" : "exited"): \(said))")
        }
    }

    deinit {
        stop()
        unlink(path)
        unlink(errorPath)
    }

    /// Stops oscdump (idempotent); the lines stay readable.
    func stop() {
        process.signal(SIGKILL)
        process.wait()
    }

    /// Every message so far, in arrival order.
    var messages: [ReceivedMessage] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = Receiver.splitOscdump(String(line))
            guard parts.count >= 3 else { return nil }
            return ReceivedMessage(address: parts[1], args: Array(parts.dropFirst(3)))
        }
    }

    /// Waits until a message after the first `after` ones satisfies `condition`; returns its index. Fails
    /// the test when none came within `timeout` seconds (an upper bound for a loaded machine, not a pause).
    @discardableResult
    func waitFor(after: Int = 0, timeout: Double = 60, _ what: String,
                 file: StaticString = #filePath, line: UInt = #line,
                 _ condition: (ReceivedMessage) -> Bool) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let all = messages
            if all.count > after, let index = all[after...].firstIndex(where: condition) { return index }
            usleep(50_000)
        } while Date() < deadline
        let tail = messages.suffix(5).map { "\($0.address) \($0.args)" }.joined(separator: "; ")
        throw Tool.Failed(description: "no message: \(what) within \(timeout) s (last: \(tail))")
    }
}

/// A jacktap (or generator) in the background whose stderr the test can read while it runs.
final class BackgroundJacktap {
    let process: ChildProcess
    let stderrPath: String

    init(_ arguments: [String], environment: [String: String]) throws {
        stderrPath = Tool.temporaryPath("stderr-\(UInt32.random(in: 0...UInt32.max)).txt")
        process = try Tool.start(Tool.jacktap, arguments, environment: environment, stderrPath: stderrPath)
    }

    deinit {
        stop()
        unlink(stderrPath)
    }

    /// What it wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until stderr contains `text`.
    func waitForStderr(_ text: String, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderr.contains(text) { return }
            if !process.isRunning { break }
            usleep(50_000)
        }
        throw Tool.Failed(description: "stderr never said '\(text)': \(stderr)")
    }

    /// SIGTERM, then waits for the exit status (SIGKILL after `timeout` seconds).
    @discardableResult
    func stop(timeout: Double = 30) -> Int32 {
        process.signal()
        if let status = process.wait(timeout: timeout) { return status }
        process.signal(SIGKILL)
        return process.wait()
    }
}
