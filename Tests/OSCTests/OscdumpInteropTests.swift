import Foundation
import Testing

@testable import OSC

/// liblo's `oscdump` (a decoder no one here wrote) must read what we send. Fails, not skips, when
/// oscdump is missing: it is part of the test environment.
@Suite(.serialized) struct OscdumpInteropTests {
    /// Runs `oscdump -L port` writing to a file (-L: line-buffered, or lines are lost on kill), waits until
    /// it answers a probe, lets `body` send, then waits for a closing probe and returns the lines between.
    private func dump(_ body: (UDPSender) -> Void) throws -> [String] {
        let executable = try #require(ExternalTool.path(of: "oscdump"), "oscdump (liblo-tools) is not installed")
        let port = LoopbackReceiver.closedPort()
        let outputPath = ExternalTool.temporaryPath("oscdump.out")
        let errorPath = ExternalTool.temporaryPath("oscdump.err")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-L", String(port)]
        let outputHandle = try #require(FileHandle(forWritingAtPath: outputPath))
        let errorHandle = try #require(FileHandle(forWritingAtPath: errorPath))
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try process.run()
        // oscdump holds its own copies; ours would only leak.
        try outputHandle.close()
        try errorHandle.close()
        defer { ExternalTool.kill(process) }
        let sender = try UDPSender(destinations: [try OSCDestination(parsing: "127.0.0.1:\(port)")])
        // oscdump prints nothing when ready, so probe until it echoes.
        let ready = ExternalTool.wait(timeout: 10) {
            sender.send(OSCMessage("/probe/start").encoded)
            return ExternalTool.contents(of: outputPath).contains("/probe/start")
        }
        try #require(ready, "oscdump did not start: \(ExternalTool.contents(of: errorPath))")
        body(sender)
        sender.send(OSCMessage("/probe/end").encoded)
        let finished = ExternalTool.wait(timeout: 10) { ExternalTool.contents(of: outputPath).contains("/probe/end") }
        try #require(finished, "oscdump did not print the end probe: \(ExternalTool.contents(of: errorPath))")
        let lines = ExternalTool.contents(of: outputPath).split(separator: "\n").map(String.init)
        let start = try #require(lines.lastIndex { $0.contains("/probe/start") })
        let end = try #require(lines.firstIndex { $0.contains("/probe/end") })
        #expect(ExternalTool.contents(of: errorPath).isEmpty)
        return Array(lines[(start + 1)..<end])
    }

    /// The part of an oscdump line after `<ntp-hex>.<frac-hex> `.
    private func withoutTimetag(_ line: String) -> String {
        String(line.drop { $0 != " " }.dropFirst())
    }

    @Test func oscdumpDecodesMessageWithIntFloatString() throws {
        let lines = try dump { sender in
            sender.send(OSCMessage("/jacktap/test", [.int32(1), .float32(2.5), .string("x")]).encoded)
        }
        try #require(lines.count == 1)
        #expect(withoutTimetag(lines[0]) == "/jacktap/test ifs 1 2.500000 \"x\"")
        // A message outside a bundle is stamped with its arrival time: <8 hex>.<8 hex>.
        #expect(lines[0].prefix(17).allSatisfy { $0.isHexDigit || $0 == "." } && lines[0].dropFirst(17).hasPrefix(" /"))
    }

    @Test func oscdumpDecodesBundleWithItsTimetagAndNestedBundle() throws {
        // Unix 1,700,000,000.25 s is NTP 0xE8FE6F80 s + 0x40000000 / 2^32 s. It is in the past, so liblo
        // delivers at once (it holds bundles with a future time tag).
        let inner = OSCBundle(
            timetag: OSCTimetag(unixSeconds: 1_700_000_001.5), [.message(OSCMessage("/inner", [.string("deep")]))])
        let bundle = OSCBundle(
            timetag: OSCTimetag(unixSeconds: 1_700_000_000.25),
            [
                .message(OSCMessage("/b1", [.int32(-7)])),
                .message(OSCMessage("/b2", [.float32(0.5), .string("y")])),
                .bundle(inner),
            ])
        let lines = try dump { sender in sender.send(.bundle(bundle)) }
        #expect(
            lines == [
                "e8fe6f80.40000000 /b1 i -7",
                "e8fe6f80.40000000 /b2 fs 0.500000 \"y\"",
                "e8fe6f81.80000000 /inner s \"deep\"",
            ])
    }

    @Test func oscdumpDecodesEveryOptionalTagItKnows() throws {
        // liblo 0.31 reads h t d S c m T F N I b; it rejects r and arrays ("Invalid message received").
        let message = OSCMessage(
            "/jacktap/optional",
            [
                .int64(-5_000_000_000), .double(4.25), .symbol("sym"), .character(UInt8(ascii: "x")),
                .midi(OSCMIDIMessage(port: 1, status: 0x90, data1: 0x3C, data2: 0x64)), .bool(true), .bool(false), .nil,
                .impulse, .timetag(OSCTimetag(rawValue: 0xE8FE_6F80_4000_0000)), .blob([0x61, 0x62, 0x63]), .int32(5),
            ])
        let lines = try dump { sender in sender.send(message.encoded) }
        try #require(lines.count == 1)
        #expect(
            withoutTimetag(lines[0])
                == "/jacktap/optional hdScmTFNItbi -5000000000 4.250000 'sym 'x' MIDI [0x01 0x90 0x3c 0x64] #T #F Nil Infinitum e8fe6f80.40000000 [3b 0x61 0x62 0x63] 5"
        )
    }
}
