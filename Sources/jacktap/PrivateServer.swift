import Foundation
import JackHost
import Live
import Spawn

/// The private dummy-backend JACK server of `jack/private-server`, for `demo` when no server is reachable.
enum PrivateServer {
    /// The script: $JACKTAP_PRIVATE_SERVER, or jack/private-server in a folder above the executable (the
    /// source tree the quick start builds in), or an installed copy.
    static func script() -> String? {
        if let path = ProcessInfo.processInfo.environment["JACKTAP_PRIVATE_SERVER"] { return path }
        var dir = URL(fileURLWithPath: CommandLine.executablePath).deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("jack/private-server").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        for installed in ["/usr/local/share/jacktap/jack/private-server", "/usr/share/jacktap/jack/private-server"]
        where FileManager.default.isExecutableFile(atPath: installed) {
            return installed
        }
        return nil
    }

    /// Runs the script with `arguments`; throws with its output when it fails.
    static func run(_ arguments: [String]) throws(Failure) {
        guard let script = script() else {
            throw Failure(description: """
                no JACK server is running and jack/private-server was not found to start one \
                (set JACKTAP_PRIVATE_SERVER to its path)
                """, code: Failure.noServer)
        }
        let errPath = NSTemporaryDirectory() + "jacktap-private-server-\(getpid()).err"
        defer { unlink(errPath) }
        let result: (status: Int32, output: String)
        do { result = try ChildProcess.run(script, arguments, stderrPath: errPath) } catch {
            throw Failure(description: error.description, code: Failure.noServer)
        }
        guard result.status == 0 else {
            let reason = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\(script) \(arguments.joined(separator: " ")) failed: \(reason)",
                          code: Failure.noServer)
        }
    }

    /// Whether a JACK server answers (the one JACK_DEFAULT_SERVER names, or the default).
    static func reachable() -> Bool {
        (try? JackClient(name: "jacktap-probe")).map { $0.close(); return true } ?? false
    }
}

extension CommandLine {
    /// The running executable's path (/proc/self/exe), for finding files beside it.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments[0]
    }
}
