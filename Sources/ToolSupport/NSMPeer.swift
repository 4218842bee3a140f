import Foundation
import Glibc

/// Tests/tools/nsm_peer.py, an NSM server written in Python from the API document, run as a child process:
/// commands go to its stdin, and each message it received comes back as a JSON line on its stdout.
///
/// `@unchecked Sendable`: the lines are appended by the reader thread and read by the test, both under `condition`.
public final class NSMPeer: @unchecked Sendable {
    /// One message the peer received.
    public struct Message: Equatable {
        public var address: String
        public var arguments: [Value]
        /// `HOST:PORT` the datagram came from.
        public var from: String
    }

    /// An argument as the peer printed it.
    public enum Value: Equatable {
        case int(Int)
        case float(Double)
        case string(String)
    }

    /// The `osc.udp://127.0.0.1:PORT/` the peer printed; empty until it has.
    public private(set) var url = ""
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    /// How many of `lines` the test has consumed.
    private var consumed = 0

    /// Starts the peer and waits for its `NSM_URL=` line.
    public init(timeout: Double = 10) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Tool.repositoryPath("Tests/tools/nsm_peer.py")]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reader = Thread { [self] in readLines() }
        reader.name = "nsm-peer-stdout"
        reader.start()
        guard let first = nextLine(timeout: timeout), first.hasPrefix("NSM_URL=") else {
            stop()
            throw NSError(domain: "NSMPeer", code: 1, userInfo: [NSLocalizedDescriptionKey: "nsm_peer.py did not print NSM_URL"])
        }
        url = String(first.dropFirst("NSM_URL=".count))
    }

    /// Sends one command line (`open P D C`, `save`, `loaded`, `raw ADDRESS JSON`, `quit`).
    public func command(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Asks the peer to quit, then kills it if it has not within two seconds. SIGKILL, not SIGTERM: children
    /// started from the test runner's threads may inherit a mask that blocks SIGTERM (see OSCTests' ExternalTool).
    public func stop() {
        guard process.isRunning else { return }
        command("quit")
        try? input.fileHandleForWriting.close()
        let deadline = Date(timeIntervalSinceNow: 2)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The next stdout line not yet consumed, waiting up to `timeout` seconds; nil if none came.
    public func nextLine(timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while consumed == lines.count, !ended, condition.wait(until: deadline) {}
        guard consumed < lines.count else { return nil }
        consumed += 1
        return lines[consumed - 1]
    }

    /// The next received message, skipping nothing: nil when the next line is not a message or none came.
    public func nextMessage(timeout: Double = 10) -> Message? {
        guard let line = nextLine(timeout: timeout),
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let address = object["address"] as? String, let arguments = object["args"] as? [Any],
              let from = object["from"] as? String
        else { return nil }
        return Message(address: address, arguments: arguments.map(Self.value), from: from)
    }

    private static func value(_ any: Any) -> Value {
        if let text = any as? String { return .string(text) }
        // Python writes a float as 1.0, which parses to a double-typed NSNumber that `as? Int` would also take.
        guard let number = any as? NSNumber else { return .string("\(any)") }
        let type = String(cString: number.objCType)
        return type == "d" || type == "f" ? .float(number.doubleValue) : .int(number.intValue)
    }

    private func readLines() {
        let handle = output.fileHandleForReading
        var pending = Data()
        while true {
            let chunk = handle.availableData
            condition.lock()
            if chunk.isEmpty {
                ended = true
                condition.broadcast()
                condition.unlock()
                return
            }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}
