import Foundation
@_exported import Spawn

/// Runs programs no one here wrote (sox, oscdump, python3, jackd's tools) and the built jacktap binary.
public enum Tool {
    /// Why a tool failed.
    public struct Failed: Error, CustomStringConvertible {
        /// Command, exit status and output.
        public let description: String
        /// A failure with `description`.
        public init(description: String) { self.description = description }
    }

    /// The repository root (this file is Sources/ToolSupport/Tool.swift).
    public static func repositoryPath(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(relative).path
    }

    /// The jacktap executable: $JACKTAP_BIN (`make test` points it at the release build, which the long
    /// compliance runs need), or the one built beside the running test bundle.
    public static var jacktap: String {
        if let bin = ProcessInfo.processInfo.environment["JACKTAP_BIN"], !bin.isEmpty { return bin }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("jacktap").path
    }

    /// Runs `tool` (a path, or a name looked up on PATH) to completion; returns stdout. Throws on a non-zero
    /// exit unless `allowFailure`.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
                           allowFailure: Bool = false) throws -> String {
        let result = try capture(tool, arguments, environment: environment)
        guard result.status == 0 || allowFailure else {
            throw Failed(description: "\(tool) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stdout)\(result.stderr)")
        }
        return result.stdout
    }

    /// Runs one of jackd2's command-line clients (jack_lsp, jack_wait, …) as `run` does, killed after 20 s:
    /// jackd2's libjack can hang one in jack_client_close for good (seen: jack_lsp waiting on a mutex of its
    /// own while the server sat idle, in the middle of `make test`), and a test that polls it must get another
    /// try rather than wait for ever. A killed run counts as a failure.
    @discardableResult
    public static func runJackClient(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
                                     allowFailure: Bool = false) throws -> String {
        try run("timeout", ["-s", "KILL", "20", tool] + arguments, environment: environment, allowFailure: allowFailure)
    }

    /// Runs `tool` to completion and returns its exit status, stdout and stderr.
    public static func capture(_ tool: String, _ arguments: [String], environment: [String: String]? = nil)
        throws -> (status: Int32, stdout: String, stderr: String) {
        // stderr goes to a file, so neither stream can fill a pipe and stall the child.
        let errPath = temporaryPath("stderr-\(UInt32.random(in: 0...UInt32.max))")
        defer { unlink(errPath) }
        let result = try ChildProcess.run(tool, arguments, environment: environment, stderrPath: errPath)
        let errText = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (result.status, result.output, errText)
    }

    /// Starts `tool` in the background, stdout and stderr to the given files (or /dev/null).
    public static func start(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
                             stdoutPath: String? = nil, stderrPath: String? = nil) throws -> ChildProcess {
        try ChildProcess(tool, arguments, environment: environment, stdoutPath: stdoutPath, stderrPath: stderrPath)
    }

    /// A free UDP port on 127.0.0.1 (bound, read, closed).
    public static func freeUDPPort() -> UInt16 { freePort(type: SOCK_DGRAM) }

    /// A free TCP port on 127.0.0.1 (bound, read, closed): nothing listens there, so a connection is refused.
    public static func freeTCPPort() -> UInt16 { freePort(type: SOCK_STREAM) }

    private static func freePort(type: __socket_type) -> UInt16 {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(fd, $0, length)
                _ = getsockname(fd, $0, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// A path in the temporary folder, unique to this process.
    public static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "jacktap-\(getpid())-\(name)"
    }
}
