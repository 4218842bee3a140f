import Foundation
import Glibc
import Testing

/// Finds and runs the real decoders the interoperability tests compare against.
enum ExternalTool {
    /// The full path of `name` on `PATH` (then /usr/bin, /usr/local/bin), or nil.
    static func path(of name: String) -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = searchPath.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for directory in directories {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A fresh temporary file path (not created).
    static func temporaryPath(_ suffix: String) -> String {
        NSTemporaryDirectory() + "osctests-\(UUID().uuidString)-\(suffix)"
    }

    /// Polls `condition` every 20 ms for up to `timeout` seconds.
    static func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Ends `process` with SIGKILL and reaps it. Not SIGTERM: children started from the test runner's
    /// threads inherit a signal mask that blocks SIGTERM, so `Process.terminate()` left oscdump running
    /// and `waitUntilExit()` waiting forever.
    static func kill(_ process: Process) {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The whole text of a file, empty if it cannot be read.
    static func contents(of path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
