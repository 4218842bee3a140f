import Foundation

/// A private JACK server with the dummy backend, started by the project's own `jack/private-server` for one
/// test and stopped after it. Its name is unique, so a test never touches a server it did not start.
public final class PrivateJackServer {
    /// The server name; clients reach it with JACK_DEFAULT_SERVER set to this.
    public let name: String

    /// Starts `jackd -n <unique> --no-realtime -d dummy -r rate -p period` and waits until it answers;
    /// `speed` > 1 runs the dummy driver that many times faster than real time (its `-w` wait per period).
    public init(rate: Int = 48_000, period: Int = 256, speed: Double = 1) throws {
        name = "jacktap-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var arguments = ["start", name, String(rate), String(period)]
        if speed != 1 { arguments.append(String(Int(Double(period) / Double(rate) * 1e6 / speed))) }
        try Tool.run(Tool.repositoryPath("jack/private-server"), arguments)
    }

    /// Makes this process's own JACK clients use the server.
    public func select() { setenv("JACK_DEFAULT_SERVER", name, 1) }

    /// The environment for a child process that should use the server.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["JACK_DEFAULT_SERVER"] = name
        return env
    }

    /// Stops the server (idempotent).
    public func stop() {
        _ = try? Tool.run(Tool.repositoryPath("jack/private-server"), ["stop", name])
    }

    /// Whether the server still answers.
    public var isRunning: Bool {
        (try? Tool.run("jack_wait", ["-s", name, "-c"]).trimmingCharacters(in: .whitespacesAndNewlines)) == "running"
    }

    deinit { stop() }
}
