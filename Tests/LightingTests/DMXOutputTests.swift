import Foundation
import OSC
import Synchronization
import Testing
@testable import Lighting

/// The sending thread's timing against a clock the test moves: what a receiver on the loopback interface gets.
struct DMXOutputTests {
    /// Unix seconds as the test sets them.
    final class TestClock: Sendable {
        let seconds = Mutex(1_000.0)
        func read() -> Double { seconds.withLock { $0 } }
        func set(_ value: Double) { seconds.withLock { $0 = value } }
    }

    /// The value of slot 1 in each sACN frame received until `until` says stop or 5 s pass.
    func slotOne(from receiver: UDPEndpoint, until done: (UInt8) -> Bool) -> [UInt8] {
        var seen = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let received = buffer.withUnsafeMutableBytes { receiver.receive(into: $0) }
            // E1.31 table 4-1: the start code at offset 125, slot 1 at 126.
            guard case .datagram(let count, _) = received, count == 638 else { continue }
            seen.append(buffer[126])
            if done(buffer[126]) { break }
        }
        return seen
    }

    /// The machine was busy for the whole of a beat's flash (the thread ran before the flash and next after its
    /// hold had passed): the flash still goes out, in one frame, and the channel then falls back.
    @Test func aFlashWhoseHoldPassedUnseenIsStillSent() throws {
        let receiver = try UDPEndpoint(host: "127.0.0.1", port: 0, receiveTimeout: 0.1)
        let universes = try DMXMapParser.parse("""
            dmx:
              - universe: 1
                to: 127.0.0.1:\(receiver.localAddress.port)
                channels:
                  1: {event: /jacktap/in_1/beat, value: 255, hold: 0.1}
            """, file: "map.yaml")
        let clock = TestClock()
        let output = try DMXOutput(universes: universes, clientName: "test", say: { _ in }, clock: { clock.read() })
        output.start()
        defer { output.stop() }
        #expect(slotOne(from: receiver) { _ in true } == [0], "the first frame: the channel off")
        // Followers get the addresses without the client name (the map names them in full).
        output.follow(event: [OSCMessage("/in_1/beat")], instant: 1_000.2)
        clock.set(1_001)
        #expect(slotOne(from: receiver) { $0 == 255 }.last == 255, "the flash, late")
        clock.set(1_001.5)
        #expect(slotOne(from: receiver) { $0 == 0 }.last == 0, "then the channel off again")
    }
}
