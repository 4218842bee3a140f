import Foundation
import ToolSupport
import XCTest

/// QLC+ (Q Light Controller Plus) run headless for one test: offscreen Qt platform, a throw-away HOME, the web
/// interface on a free TCP port, a workspace from Tests/EndToEndTests/Fixtures/qlcplus, operate mode.
final class QLCPlusConsole {
    /// The fixture folder: the workspace and the web socket reader.
    static let fixtures = Tool.repositoryPath("Tests/EndToEndTests/Fixtures/qlcplus")
    /// QLC+ listens for OSC on UDP 7700 + universe ID (plugins/osc/osccontroller.cpp in QLC+ 4.12.6).
    static let oscInputPort: UInt16 = 7700

    /// The qlcplus executable on PATH, or nil when QLC+ is not installed.
    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/qlcplus" }.first { access($0, X_OK) == 0 }
    }

    let process: ChildProcess
    let home: String
    let webPort: UInt16
    var logPath: String { home + "/qlcplus.log" }

    /// Starts QLC+ with `workspace` (a file name in the fixture folder) and waits until its web socket
    /// answers a widget query (QLC+ 4.12.6 needs about a second here; `timeout` allows for a busy machine).
    init(workspace: String, readyWidget: Int, timeout: Double = 30) throws {
        home = Tool.temporaryPath("qlcplus-home-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        webPort = QLCPlusConsole.freeTCPPort()
        var environment = ProcessInfo.processInfo.environment
        // Never the user's QLC+ settings or display: everything QLC+ writes goes under the temporary HOME.
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_RUNTIME_DIR"] = home
        environment["QT_QPA_PLATFORM"] = "offscreen"
        process = try Tool.start(QLCPlusConsole.executable ?? "qlcplus", [
            "-o", QLCPlusConsole.fixtures + "/" + workspace, "-w", "-wp", String(webPort), "-p",
        ], environment: environment, stdoutPath: home + "/qlcplus.log", stderrPath: home + "/qlcplus.log")
        do {
            _ = try widgetValues(readyWidget, wait: timeout)
        } catch {
            stop()
            throw error
        }
    }

    /// `count` readings of widget `id`, `interval` seconds apart, over QLC+'s web socket
    /// (`QLC+API|getWidgetStatus|<id>` → `QLC+API|getWidgetStatus|<value>`; a slider answers 0…255).
    func widgetValues(_ id: Int, count: Int = 1, interval: Double = 0.1, wait: Double = 5) throws -> [Int] {
        let run = try Tool.capture("python3", [
            QLCPlusConsole.fixtures + "/qlc_widget_status.py", String(id), "--port", String(webPort),
            "--count", String(count), "--interval", String(interval), "--wait", String(wait),
        ])
        let values = run.stdout.split(separator: "\n").compactMap { Int($0) }
        guard run.status == 0, values.count == count else {
            throw Tool.Failed(description: "QLC+ web socket on port \(webPort): status \(run.status), "
                + "\(run.stdout)\(run.stderr)\nQLC+ log:\n\(log)")
        }
        return values
    }

    /// Polls widget `id` until `done` holds for its latest readings (newest last), or `timeout` passes;
    /// returns the readings seen.
    func poll(_ id: Int, timeout: Double = 20, until done: ([Int]) -> Bool) throws -> [Int] {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = [Int]()
        repeat {
            seen += try widgetValues(id)
            if done(seen) { break }
            usleep(100_000)
        } while Date() < deadline
        return seen
    }

    /// The end of QLC+'s own output, for failure messages.
    var log: String {
        String(((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").suffix(2000))
    }

    /// Stops QLC+ (SIGTERM, then SIGKILL after 5 s) and removes its HOME (idempotent).
    func stop() {
        if process.isRunning {
            process.signal()
            if process.wait(timeout: 5) == nil {
                process.signal(SIGKILL)
                process.wait()
            }
        }
        try? FileManager.default.removeItem(atPath: home)
    }

    deinit { stop() }

    /// Whether nothing is bound to 127.0.0.1:`port` over UDP (QLC+ binds with SO_REUSEADDR, so a second
    /// listener would silently share, and steal, the datagrams).
    static func udpPortIsFree(_ port: UInt16) -> Bool {
        bindsLocally(type: Int32(SOCK_DGRAM.rawValue), port: port) != nil
    }

    /// A free TCP port on 127.0.0.1 (bound, read, closed).
    static func freeTCPPort() -> UInt16 {
        bindsLocally(type: Int32(SOCK_STREAM.rawValue), port: 0) ?? 9999
    }

    private static func bindsLocally(type: Int32, port: UInt16) -> UInt16? {
        let fd = socket(AF_INET, type, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                guard bind(fd, pointer, length) == 0 else { return false }
                return getsockname(fd, pointer, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }
}
