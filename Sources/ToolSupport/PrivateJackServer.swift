import Foundation

/// A private JACK server with the dummy backend, started by the project's own `jack/private-server` for one
/// test and stopped after it. Its name is unique, so a test never touches a server it did not start.
public final class PrivateJackServer {
    /// The server name; clients reach it with JACK_DEFAULT_SERVER set to this.
    public let name: String

    /// Starts `jackd -n <unique> --no-realtime -d dummy -r rate -p period` and waits until it answers;
    /// `speed` > 1 runs the dummy driver that many times faster than real time (its `-w` wait per period).
    /// `realTime` runs the server and its clients' process threads at real-time priority instead, so that its
    /// clock keeps time on a loaded machine (`jack/private-server`'s JACKTAP_SERVER_REALTIME).
    public init(rate: Int = 48_000, period: Int = 256, speed: Double = 1, realTime: Bool = false) throws {
        name = "jacktap-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var arguments = ["start", name, String(rate), String(period)]
        if speed != 1 { arguments.append(String(Int(Double(period) / Double(rate) * 1e6 / speed))) }
        var environment = ProcessInfo.processInfo.environment
        environment["JACKTAP_SERVER_REALTIME"] = realTime ? "1" : nil
        try Tool.run(Tool.repositoryPath("jack/private-server"), arguments, environment: environment)
    }

    /// A server named `name`, started (again) at `rate` and `period`: after `crash()`, the same name comes
    /// back, as a user restarting jackd from qjackctl would bring it.
    public init(name: String, rate: Int, period: Int) throws {
        self.name = name
        try Tool.run(Tool.repositoryPath("jack/private-server"), ["start", name, String(rate), String(period)])
    }

    /// Kills the server with SIGKILL, as a crash would; start it again under the same name (`init(name:…)`)
    /// or its shared-memory slot stays taken (one of jackd2's 8: MAX_SERVERS in common/shm.h).
    public func crash() {
        stopped = true
        _ = try? Tool.run(Tool.repositoryPath("jack/private-server"), ["kill", name])
    }

    /// Makes this process's own JACK clients use the server.
    public func select() { setenv("JACK_DEFAULT_SERVER", name, 1) }

    /// The environment for a child process that should use the server.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["JACK_DEFAULT_SERVER"] = name
        return env
    }

    /// Stops the server (idempotent; after `crash`, nothing: a server started again under the name belongs
    /// to the instance that started it).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? Tool.run(Tool.repositoryPath("jack/private-server"), ["stop", name])
    }

    private var stopped = false

    /// Whether the server still answers.
    public var isRunning: Bool {
        (try? Tool.runJackClient("jack_wait", ["-s", name, "-c"]).trimmingCharacters(in: .whitespacesAndNewlines)) == "running"
    }

    deinit { stop() }
}
