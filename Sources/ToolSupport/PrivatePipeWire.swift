import Foundation

/// A private PipeWire daemon (Dummy-Driver, no sound card, no session manager), started by the project's own
/// `jack/private-pipewire` for one test and stopped after it, so jacktap is tested against PipeWire's JACK as
/// it meets it on a desktop. Its name and runtime directory are unique, so a test never touches a daemon it
/// did not start.
///
/// Only child processes can use it: this process has jackd2's libjack loaded already, and PipeWire's libjack
/// is chosen when a process starts (LD_LIBRARY_PATH), so there is no `select()` as on `PrivateJackServer`.
public final class PrivatePipeWire {
    /// The name the script knows the daemon by.
    public let name: String

    /// The daemon's private runtime directory (its socket is `pipewire-0` in it); clients find the daemon
    /// through XDG_RUNTIME_DIR set to this.
    public let runtimeDirectory: String

    /// Where pw-jack puts PipeWire's libjack. `${LIB}` is left for the dynamic loader to expand (to
    /// lib/x86_64-linux-gnu on Debian), exactly as /usr/bin/pw-jack writes it.
    public static let libjackDirectory = "/usr/${LIB}/pipewire-0.3/jack"

    private static var script: String { Tool.repositoryPath("jack/private-pipewire") }

    /// Starts `pipewire` in a fresh runtime directory and waits until a JACK client can connect to it
    /// (measured: 10-30 ms after the start).
    public init() throws {
        name = "jacktap-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let output = try Tool.run(Self.script, ["start", name])
        let directory = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !directory.isEmpty else {
            _ = try? Tool.run(Self.script, ["stop", name])
            throw Tool.Failed(description: "jack/private-pipewire start \(name) printed no runtime directory")
        }
        runtimeDirectory = directory
    }

    /// The environment for a child process that should use the daemon through PipeWire's libjack, as
    /// `pw-jack` would set it, so that Tool.jacktap, jack_lsp and the like start directly, without the wrapper.
    /// PIPEWIRE_RUNTIME_DIR and PIPEWIRE_REMOTE would win over XDG_RUNTIME_DIR and point the child at another
    /// daemon; JACK_DEFAULT_SERVER names a jackd, not this daemon. All three are removed.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        if let path = env["LD_LIBRARY_PATH"] {
            env["LD_LIBRARY_PATH"] = Self.libjackDirectory + ":" + path
        } else {
            env["LD_LIBRARY_PATH"] = Self.libjackDirectory
        }
        env["PIPEWIRE_RUNTIME_DIR"] = nil
        env["PIPEWIRE_REMOTE"] = nil
        env["JACK_DEFAULT_SERVER"] = nil
        return env
    }

    /// Forces the graph's sample rate (clock.force-rate) and returns once an active JACK client runs at it;
    /// 0 returns to the default rate and releases the force. Running clients get their sample-rate callback
    /// before their first period at the new rate (measured); jackd2 cannot do this at all.
    public func setRate(_ hertz: Int) throws {
        try Tool.run(Self.script, ["rate", name, String(hertz)])
    }

    /// Forces the period (clock.force-quantum) and returns once an active JACK client runs with it; 0 returns
    /// to the default quantum and releases the force. Running clients get their buffer-size callback before
    /// their first period with the new size (measured).
    public func setQuantum(_ frames: Int) throws {
        try Tool.run(Self.script, ["quantum", name, String(frames)])
    }

    /// Stops the daemon with SIGTERM and starts it again in the same runtime directory, for "PipeWire restarted
    /// under jacktap": the clients of the old daemon lose it (PipeWire 0.3.65's libjack reports that through
    /// jack_on_shutdown only, not jack_on_info_shutdown) and can open again once this returns.
    public func restart() throws {
        try Tool.run(Self.script, ["restart", name])
    }

    /// Stops the daemon and removes its runtime directory (idempotent).
    public func stop() {
        _ = try? Tool.run(Self.script, ["stop", name])
    }

    /// Whether a JACK client can connect to the daemon now.
    public var isRunning: Bool {
        (try? Tool.capture("jack_lsp", [], environment: environment).status) == 0
    }

    deinit { stop() }
}
