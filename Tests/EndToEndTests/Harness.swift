import Foundation
import ToolSupport
import XCTest

/// One OSC message as an external decoder printed it.
struct ReceivedMessage {
    let address: String
    let args: [Any]
    /// python-osc only: arrival wall-clock time and the bundle's timetag, Unix seconds (nil when immediate).
    var received: Double? = nil
    var timetag: Double? = nil
    /// python-osc only: whether the message came in a bundle.
    var bundle: Bool? = nil
    var floats: [Double] { args.compactMap { ($0 as? NSNumber)?.doubleValue ?? Double("\($0)") } }
}

/// A receiver no one here wrote, listening while jacktap runs, until `messages()` stops it; a receiver the test
/// never asked (it failed or threw first) is stopped when it is released, so none outlives its test.
final class Receiver {
    enum Kind { case oscdump, pythonOSC }
    /// The address of the message `messages()` sends last: once the receiver has printed it, it has printed
    /// everything sent before it (one socket, one sender host: loopback keeps the order).
    static let endAddress = "/jacktap-test/end"
    let kind: Kind
    /// SCHED_FIFO priority of oscdump: low among real-time threads, below a real-time private jackd's 10
    /// (`jack/private-server` with JACKTAP_SERVER_REALTIME=1; most tests run theirs without any).
    static let realTimePriority = 5
    let port = Tool.freeUDPPort()
    let process: ChildProcess
    let outputPath: String

    init(_ kind: Kind) throws {
        self.kind = kind
        outputPath = Tool.temporaryPath("receiver-\(port).txt")
        unlink(outputPath)
        switch kind {
        case .oscdump:
            // -L: line-buffered, so what it printed is in the file whenever it is stopped (liblo's oscdump).
            // oscdump keeps the kernel's default receive buffer (212 KB, some 300 datagrams), and `analyze`
            // sends a file's thousands of messages as fast as it reads them: on a loaded machine oscdump, waiting
            // for a core, let the kernel drop hundreds in every run. It reads at real-time priority (chrt), so
            // that it is the sender's pace it keeps, not the machine's load, and its buffer is enlarged below.
            process = try Tool.start("chrt", ["--fifo", String(Receiver.realTimePriority), "oscdump", "-L", String(port)],
                                     stdoutPath: outputPath)
        case .pythonOSC:
            process = try Tool.start("python3", [Tool.repositoryPath("Tests/tools/osc_capture.py"), String(port)],
                                     stdoutPath: outputPath)
        }
        do {
            try Receiver.waitUntilBound(port: port)
            if kind == .oscdump {
                // Even at real-time priority oscdump can be kept off its core (the host pausing that virtual CPU):
                // its own socket gets the 8 MB receive buffer python-osc's receivers give theirs, which holds a
                // whole `analyze` burst (measured: oscdump stopped throughout, 0 of 4,812 plain datagrams dropped,
                // 4,563 with the default buffer).
                try Tool.run("python3", [Tool.repositoryPath("Tests/tools/enlarge_receive_buffer.py"),
                                         String(process.pid), String(port), String(8 << 20)])
            }
        } catch {
            stopAndReap(process)
            throw error
        }
    }

    deinit {
        stopAndReap(process)
        unlink(outputPath)
    }

    /// Waits until a UDP socket is bound to `port` (listed in /proc/net/udp or udp6), so that nothing sent to it
    /// is lost while the receiver is still starting (python-osc takes a second to import on a quiet machine,
    /// many on a loaded one: the wait ends as soon as it is bound, the limit is only for a receiver that never is).
    /// The whole of a /proc file. Not String(contentsOfFile:): Foundation reads a /proc file (whose size is
    /// 0) only up to its first 4 KiB, about 30 sockets of /proc/net/udp, so a receiver bound while a busy
    /// machine had more sockets open was never seen (the "receiver not bound within 15 s" of loaded runs).
    static func wholeProcFile(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    static func waitUntilBound(port: UInt16, timeout: Double = eventTimeout) throws {
        let hex = String(format: ":%04X ", port)
        let bound = waitFor(timeout: timeout, every: 0.02) {
            ["/proc/net/udp", "/proc/net/udp6"].contains { table in
                let text = Receiver.wholeProcFile(table)
                // Column 2 is local_address "IP:PORT".
                return text.split(separator: "\n").dropFirst().contains { line in
                    line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                        .map { ($0 + " ").hasSuffix(hex) } ?? false
                }
            }
        }
        guard bound else { throw Tool.Failed(description: "no receiver bound UDP port \(port) within \(timeout) s") }
    }

    /// Sends the end message, waits until the receiver has printed it (so every message sent before it is in),
    /// stops the receiver and returns every message it decoded before the end message.
    func messages() throws -> [ReceivedMessage] {
        try sendEndMessage(to: port)
        let ended = waitFor(timeout: eventTimeout, every: 0.02) {
            ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").contains(Receiver.endAddress)
        }
        droppedByKernel = Receiver.kernelDrops(port: port)
        stopAndReap(process)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        unlink(outputPath)
        guard ended else { throw Tool.Failed(description: "the \(kind) receiver did not print the end message") }
        let decoded: [ReceivedMessage] = text.split(separator: "\n").compactMap { line in
            switch kind {
            case .pythonOSC:
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let address = object["address"] as? String, let args = object["args"] as? [Any] else { return nil }
                return ReceivedMessage(address: address, args: args, received: object["received"] as? Double,
                                       timetag: object["timetag"] as? Double, bundle: object["bundle"] as? Bool)
            case .oscdump:
                // "<ntp-hex>.<frac-hex> <path> <tags> <args…>", strings in double quotes.
                let parts = Receiver.splitOscdump(String(line))
                guard parts.count >= 3 else { return nil }
                return ReceivedMessage(address: parts[1], args: Array(parts.dropFirst(3)))
            }
        }
        return Array(decoded.prefix { $0.address != Receiver.endAddress })
    }

    /// Datagrams the kernel dropped for the receiver's socket because its receive buffer was full, as counted
    /// by `messages()` before it stopped the receiver: a loss the receiver's reading speed caused, not the sender.
    private(set) var droppedByKernel = 0

    /// The "drops" column (the last) of /proc/net/udp and udp6 for the sockets bound to `port`.
    static func kernelDrops(port: UInt16) -> Int {
        let hex = String(format: ":%04X", port)
        var drops = 0
        for table in ["/proc/net/udp", "/proc/net/udp6"] {
            for line in wholeProcFile(table).split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count > 2, columns[1].hasSuffix(hex), let count = Int(columns.last!) else { continue }
                drops += count
            }
        }
        return drops
    }

    static func splitOscdump(_ line: String) -> [String] {
        var parts = [String]()
        var current = ""
        var quoted = false
        for ch in line {
            if ch == "\"" { quoted.toggle(); continue }
            if ch == " " && !quoted {
                if !current.isEmpty { parts.append(current) }
                current = ""
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}

/// How long a test waits for an event (a port appearing, a receiver binding, a message arriving) before it
/// fails. Waits end as soon as the event happens, so this only bounds a test whose event never comes; it is
/// generous because on a loaded machine a process can take many seconds to get the CPU.
let eventTimeout = 60.0

/// Polls `condition` every `every` seconds until it holds (true) or `timeout` seconds pass (false).
func waitFor(timeout: Double = eventTimeout, every: Double = 0.1, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(useconds_t(every * 1e6))
    }
}

/// Stops `process` (SIGTERM, SIGKILL if it has not ended 30 s later) and reaps it; nothing if it has ended.
func stopAndReap(_ process: ChildProcess) {
    guard process.isRunning else { return }
    process.signal(SIGTERM)
    if process.wait(timeout: 30) == nil {
        process.signal(SIGKILL)
        process.wait()
    }
}

/// Sends one OSC message without arguments to 127.0.0.1:`port` (built here by hand, not with jacktap's encoder:
/// `/jacktap-test/end` padded to 20 bytes, then the type tags `,` padded to 4).
func sendEndMessage(to port: UInt16) throws {
    func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }
    let datagram = padded(Receiver.endAddress) + padded(",")
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            sendto(fd, datagram, datagram.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard sent == datagram.count else { throw Tool.Failed(description: "could not send the end message to port \(port)") }
}

extension XCTestCase {
    /// A private JACK server, stopped when the test ends (after every process the test started with
    /// `background`, since teardown blocks run last-in, first-out).
    func privateServer(rate: Int = 48_000, period: Int = 256, realTime: Bool = false) throws -> PrivateJackServer {
        let server = try PrivateJackServer(rate: rate, period: period, realTime: realTime)
        addTeardownBlock { server.stop() }
        return server
    }

    /// A 440 Hz tone peaking at -6.02 dBFS on e2e-tone:out_1 of `server` until the test ends (however long
    /// jacktap takes to start on a loaded machine, it never runs out).
    func playTone(on server: PrivateJackServer) throws {
        try backgroundGenerator(["--tone", "440", "--level", "-6.0206", "--name", "e2e-tone"], server: server)
    }

    /// A network namespace with only loopback, up, and multicast routed to it (Link finds its peers by
    /// multicast, which must not leave the machine), deleted when the test ends.
    func loopbackNamespace() throws -> String {
        let name = "jacktap-link-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        _ = try Tool.run("ip", ["netns", "add", name])
        addTeardownBlock { _ = try? Tool.run("ip", ["netns", "delete", name]) }
        _ = try Tool.run("ip", ["netns", "exec", name, "ip", "link", "set", "lo", "up"])
        _ = try Tool.run("ip", ["netns", "exec", name, "ip", "route", "add", "224.0.0.0/4", "dev", "lo"])
        return name
    }

    /// jack-play playing `path` on `server` until the test ends, connected to `input` when one is given; its port.
    @discardableResult
    func play(_ path: String, server: PrivateJackServer, into input: String? = nil) throws -> String {
        _ = try background("jack-play", [path], server: server)
        let player = try waitForAnyPort(prefix: "jack-play", server: server)
        if let input { _ = try Tool.runJackClient("jack_connect", [player, input], environment: server.environment) }
        return player
    }

    /// `path` played on `server` from its first frame once its port is connected (`jacktap generate --file
    /// --on-connect`), until the test ends; its port. The tapping jacktap then analyses the same audio however
    /// long it took to start, which on a loaded machine is seconds of the wall clock and of the server's audio.
    func playOnConnect(_ path: String, server: PrivateJackServer, name: String = "clip") throws -> String {
        try backgroundGenerator(["--file", path, "--name", name, "--on-connect"], server: server)
        return "\(name):out_1"
    }

    /// `jacktap generate` with `arguments` on `server` (`startGenerator`), stopped and reaped when the test ends.
    @discardableResult
    func backgroundGenerator(_ arguments: [String], server: PrivateJackServer) throws -> ChildProcess {
        let process = try startGenerator(arguments, server: server)
        addTeardownBlock { stopAndReap(process) }
        return process
    }

    /// Starts `tool` in the background (with `server`'s environment when given) and stops and reaps it when the
    /// test ends, whether it passed, failed or threw.
    func background(_ tool: String, _ arguments: [String], server: PrivateJackServer? = nil,
                    stdoutPath: String? = nil, stderrPath: String? = nil) throws -> ChildProcess {
        let process = try Tool.start(tool, arguments, environment: server?.environment, stdoutPath: stdoutPath,
                                     stderrPath: stderrPath)
        addTeardownBlock { stopAndReap(process) }
        return process
    }
}

/// The line `jacktap generate` writes once its ports are active.
let generatorPlaying = "jacktap: playing "

/// Starts `jacktap generate` with `arguments` on `server` and returns once it says that it plays (its ports
/// are active); the caller stops it. Not by polling the ports with `jack_lsp`: a client that closes while the
/// generator opens can leave the generator signalling a dead semaphore once a later client takes the closed
/// one's slot, and the graph stalls for good (jackaudio/jack2#721, docs/testing.md).
func startGenerator(_ arguments: [String], server: PrivateJackServer,
                    timeout: Double = eventTimeout) throws -> ChildProcess {
    let errorPath = Tool.temporaryPath("generate-\(UInt32.random(in: 0...UInt32.max)).err")
    let process = try Tool.start(Tool.jacktap, ["generate"] + arguments, environment: server.environment,
                                 stderrPath: errorPath)
    let said = { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
    _ = waitFor(timeout: timeout) { said().contains(generatorPlaying) || !process.isRunning }
    let text = said()
    unlink(errorPath)  // the generator keeps its descriptor; nothing reads the file after this
    guard text.contains(generatorPlaying) else {
        stopAndReap(process)
        throw Tool.Failed(description: "jacktap generate \(arguments.joined(separator: " ")) did not start: \(text)")
    }
    return process
}

/// The ports `jack_lsp` lists on the server.
func jackPorts(_ server: PrivateJackServer) throws -> [String] {
    try Tool.runJackClient("jack_lsp", [], environment: server.environment, allowFailure: true).split(separator: "\n").map(String.init)
}

/// Waits until `port` exists on the server.
func waitForPort(_ port: String, server: PrivateJackServer, timeout: Double = eventTimeout) throws {
    guard try waitFor(timeout: timeout, { try jackPorts(server).contains(port) }) else {
        throw Tool.Failed(description: "port \(port) did not appear within \(timeout) s")
    }
}

/// Waits until a port whose name starts with `prefix` exists on the server (a player's port) and returns it.
func waitForAnyPort(prefix: String, server: PrivateJackServer, timeout: Double = eventTimeout) throws -> String {
    var found: String?
    _ = try waitFor(timeout: timeout) {
        found = try jackPorts(server).first { $0.hasPrefix(prefix) }
        return found != nil
    }
    guard let found else { throw Tool.Failed(description: "no port of \(prefix) appeared within \(timeout) s") }
    return found
}

/// Waits until `source` is connected to `destination` (as `jack_lsp -c` lists it).
func waitForConnection(_ source: String, _ destination: String, server: PrivateJackServer) throws {
    let connected = try waitFor {
        let listing = try Tool.runJackClient("jack_lsp", ["-c", source], environment: server.environment, allowFailure: true)
        return listing.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == destination }
    }
    guard connected else { throw Tool.Failed(description: "\(source) was not connected to \(destination) within \(eventTimeout) s") }
}

/// Waits until the JSON lines jacktap writes to `path` contain one, after the first `after`, for which
/// `condition` holds; returns the lines up to and including it.
func waitForJSONLine(in path: String, after: Int = 0, timeout: Double = eventTimeout,
                     where condition: ([String: Any]) -> Bool) throws -> [[String: Any]] {
    var lines = [[String: Any]]()
    let seen = waitFor(timeout: timeout, every: 0.05) {
        lines = jsonLines((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
        return lines.dropFirst(after).contains(where: condition)
    }
    guard seen, let index = lines.dropFirst(after).firstIndex(where: condition) else {
        throw Tool.Failed(description: "no JSON line of the awaited kind within \(timeout) s (\(lines.count) lines, "
                          + "the last: \(lines.last.map { "\($0)" } ?? "none"))")
    }
    return Array(lines[...index])
}

/// The tick lines (not events, not a summary) of jacktap's `--json` output.
func tickLines(_ lines: [[String: Any]]) -> [[String: Any]] {
    lines.filter { $0["event"] == nil && $0["summary"] == nil }
}

/// The JSON lines jacktap printed, parsed.
func jsonLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}

/// Band edges of the OSC contract, computed here from its definition: 48 log-spaced bands 60 Hz–18 kHz.
func bandEdges(count: Int = 48) -> [Double] {
    (0...count).map { 60 * pow(300, Double($0) / Double(count)) }
}

/// The median of `values`.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// How far apart consecutive `values` are over the whole sequence: the median of the slopes between every two of
/// them, (values[j] - values[i]) / (j - i) (Theil and Sen's estimator). One late value moves it little, and a
/// spacing that alternates (beats on a tracker's frames: 487, 512, 487… ms) does not move it between the two.
func medianSpacing(_ values: [Double]) -> Double {
    var slopes = [Double]()
    for i in values.indices {
        for j in values.indices where j > i { slopes.append((values[j] - values[i]) / Double(j - i)) }
    }
    return median(slopes)
}
