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
    var floats: [Double] { args.compactMap { ($0 as? NSNumber)?.doubleValue ?? Double("\($0)") } }
}

/// A receiver no one here wrote, listening while jacktap runs.
final class Receiver {
    enum Kind { case oscdump, pythonOSC }
    let kind: Kind
    let port = Tool.freeUDPPort()
    let process: ChildProcess
    let outputPath: String

    init(_ kind: Kind, seconds: Double) throws {
        self.kind = kind
        outputPath = Tool.temporaryPath("receiver-\(port).txt")
        unlink(outputPath)
        switch kind {
        case .oscdump:
            // -L: line-buffered, so nothing is lost when it is stopped (ecosystem.md).
            process = try Tool.start("oscdump", ["-L", String(port)], stdoutPath: outputPath)
        case .pythonOSC:
            process = try Tool.start("python3", [Tool.repositoryPath("Tests/tools/osc_capture.py"), String(port),
                                                 String(seconds)], stdoutPath: outputPath)
        }
        try Receiver.waitUntilBound(port: port)
    }

    /// Waits until a UDP socket is bound to `port` (listed in /proc/net/udp or udp6), so that nothing sent to it
    /// is lost while the receiver is still starting (python-osc takes a second to import on a loaded machine).
    static func waitUntilBound(port: UInt16, timeout: Double = 15) throws {
        let hex = String(format: ":%04X ", port)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for table in ["/proc/net/udp", "/proc/net/udp6"] {
                let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
                // Column 2 is local_address "IP:PORT".
                if text.split(separator: "\n").dropFirst().contains(where: { line in
                    line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map { ($0 + " ").hasSuffix(hex) } ?? false
                }) { return }
            }
            usleep(20_000)
        }
        throw Tool.Failed(description: "no receiver bound UDP port \(port) within \(timeout) s")
    }

    /// Stops the receiver and returns every message it decoded.
    func messages() -> [ReceivedMessage] {
        if kind == .oscdump { process.signal() }
        process.wait()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        unlink(outputPath)
        return text.split(separator: "\n").compactMap { line in
            switch kind {
            case .pythonOSC:
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let address = object["address"] as? String, let args = object["args"] as? [Any] else { return nil }
                return ReceivedMessage(address: address, args: args, received: object["received"] as? Double,
                                       timetag: object["timetag"] as? Double)
            case .oscdump:
                // "<ntp-hex>.<frac-hex> <path> <tags> <args…>", strings in double quotes.
                let parts = Receiver.splitOscdump(String(line))
                guard parts.count >= 3 else { return nil }
                return ReceivedMessage(address: parts[1], args: Array(parts.dropFirst(3)))
            }
        }
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

/// A jacktap process (or any tool) running in the background with the private server's environment.
func startBackground(_ tool: String, _ arguments: [String], server: PrivateJackServer) throws -> ChildProcess {
    try Tool.start(tool, arguments, environment: server.environment)
}

/// Waits until `port` exists on the server.
func waitForPort(_ port: String, server: PrivateJackServer, timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let ports = try Tool.run("jack_lsp", [], environment: server.environment, allowFailure: true)
        if ports.split(separator: "\n").contains(Substring(port)) { return }
        usleep(100_000)
    }
    XCTFail("port \(port) did not appear")
}

/// Waits until a port whose name starts with `prefix` exists on the server (a player's port) and returns it.
func waitForAnyPort(prefix: String, server: PrivateJackServer) throws -> String {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        let ports = try Tool.run("jack_lsp", [], environment: server.environment, allowFailure: true)
        if let port = ports.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(port) }
        usleep(100_000)
    }
    throw Tool.Failed(description: "no port of \(prefix) appeared")
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
