import Foundation
import Testing

@testable import OSC

/// We must decode what liblo (a codec no one here wrote) sends: `oscsend` from liblo-tools 0.31 sends to
/// a loopback socket of ours. Fails, not skips, when oscsend is missing: it is part of the test environment.
@Suite struct LibloInteropTests {
    /// Runs `oscsend 127.0.0.1 PORT arguments…` and returns the datagram it sent.
    private func send(_ arguments: [String]) throws -> [UInt8] {
        let executable = try #require(ExternalTool.path(of: "oscsend"), "oscsend (liblo-tools) is not installed")
        let receiver = LoopbackReceiver()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["127.0.0.1", String(receiver.port)] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "oscsend failed: \(stderr)")
        return try #require(receiver.receive(timeout: 5), "nothing arrived from oscsend")
    }

    @Test func everyTagOscsendSendsDecodes() throws {
        let datagram = try send([
            "/jacktap/from/liblo", "ihfdsScmTFNI", "-7", "-5000000000", "-2.75", "0.1", "héllo wörld", "sym", "x",
            "0190 3c64".replacingOccurrences(of: " ", with: ""),
        ])
        let expected = OSCMessage(
            "/jacktap/from/liblo",
            [
                .int32(-7), .int64(-5_000_000_000), .float32(-2.75), .double(0.1), .string("héllo wörld"), .symbol("sym"),
                .character(UInt8(ascii: "x")), .midi(OSCMIDIMessage(port: 1, status: 0x90, data1: 0x3C, data2: 0x64)),
                .bool(true), .bool(false), .nil, .impulse,
            ])
        #expect(try OSCPacket(decoding: datagram) == .message(expected))
    }

    @Test func messageWithoutArgumentsDecodes() throws {
        #expect(try OSCPacket(decoding: try send(["/jacktap/ping"])) == .message(OSCMessage("/jacktap/ping")))
    }

    @Test func extremeIntegersAndFloatsDecodeExactly() throws {
        let datagram = try send(["/n", "iihhfd", "2147483647", "-2147483648", "9223372036854775807", "-9223372036854775808", "3.4028235e38", "-1e-300"])
        #expect(
            try OSCPacket(decoding: datagram)
                == .message(
                    OSCMessage(
                        "/n",
                        [.int32(.max), .int32(.min), .int64(.max), .int64(.min), .float32(.greatestFiniteMagnitude), .double(-1e-300)])))
    }
}
