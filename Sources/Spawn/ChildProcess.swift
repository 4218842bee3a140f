import Glibc

/// A child process started with posix_spawn and reaped with waitpid.
///
/// jacktap starts `jack/private-server`, whose jackd outlives the script; Foundation's Process on Linux was
/// seen to hang in waitUntilExit there, so jacktap and its tests spawn and wait through libc directly.
public final class ChildProcess {
    /// Why a process could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The program and the reason.
        public let description: String
    }

    /// The child's process id.
    public let pid: pid_t
    var status: Int32?
    let outputPipe: Int32?

    /// Starts `program` (a path, or a name looked up on PATH) with `arguments`. Its stdout goes to a pipe read
    /// by `readOutput()` when `captureOutput`, else to `stdoutPath` (or /dev/null); stderr goes to `stderrPath`
    /// (or /dev/null); stdin is /dev/null. `environment` replaces the whole environment when given.
    public init(_ program: String, _ arguments: [String], environment: [String: String]? = nil,
                captureOutput: Bool = false, stdoutPath: String? = nil, stderrPath: String? = nil) throws(SpawnError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var fds: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)

        // The child starts with no signal blocked and default dispositions: jacktap blocks SIGINT/SIGTERM in
        // its own threads (it takes them with sigtimedwait), and a child must not inherit that, or a jackd it
        // starts would ignore the SIGTERM that stops it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var envStrings: [UnsafeMutablePointer<CChar>?]? = environment.map { env in
            env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { envStrings?.forEach { free($0) } }
        var pid = pid_t()
        let result: Int32 = argv.withUnsafeBufferPointer { args in
            if var envStrings {
                return envStrings.withUnsafeMutableBufferPointer { envp in
                    posix_spawnp(&pid, program, &actions, &attributes, args.baseAddress!, envp.baseAddress!)
                }
            }
            return posix_spawnp(&pid, program, &actions, &attributes, args.baseAddress!, environ)
        }
        envStrings = nil
        if captureOutput { close(fds[1]) }
        guard result == 0 else {
            if captureOutput { close(fds[0]) }
            throw SpawnError(description: "cannot start \(program): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        outputPipe = captureOutput ? fds[0] : nil
    }

    deinit { if let outputPipe { close(outputPipe) } }

    /// Everything the child writes to stdout, until it closes it (with `captureOutput`).
    public func readOutput() -> String {
        guard let fd = outputPipe else { return "" }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { bytes += buffer[0..<n] } else if n < 0, errno == EINTR { continue } else { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits for the child to end; returns its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        return record(raw)
    }

    /// Waits up to `timeout` seconds; returns the exit status, or nil if the child is still running.
    public func wait(timeout: Double) -> Int32? {
        var waited = 0.0
        while isRunning {
            if waited >= timeout { return nil }
            usleep(10_000)
            waited += 0.01
        }
        return status
    }

    /// Whether the child is still running (reaps it when it has ended).
    public var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        if r == pid { record(raw); return false }
        return r == 0
    }

    /// Sends `signal` (SIGTERM by default) to the child.
    public func signal(_ signal: Int32 = SIGTERM) {
        if status == nil { kill(pid, signal) }
    }

    @discardableResult
    func record(_ raw: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signalled = raw & 0x7f
        let value = signalled == 0 ? (raw >> 8) & 0xff : 128 + signalled
        status = value
        return value
    }

    /// Runs `program` to completion; returns its exit status and stdout.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil,
                           stderrPath: String? = nil) throws(SpawnError) -> (status: Int32, output: String) {
        let child = try ChildProcess(program, arguments, environment: environment, captureOutput: true,
                                     stderrPath: stderrPath)
        let output = child.readOutput()
        return (child.wait(), output)
    }
}
