import DSP
import XCTest

/// The queue between the analysis thread and the callback's MIDI outputs: messages come out in order with
/// their bytes, a full queue refuses rather than overwrites, and a message whose frame has passed is counted
/// late when it goes.
final class MidiEventQueueTests: XCTestCase {
    func testMessagesComeOutInOrderWithTheirBytes() throws {
        let queue = MidiEventQueue.allocate(capacity: 8)
        defer { queue.deallocate() }
        XCTAssertNil(queue.peek())
        XCTAssertTrue(queue.push(frame: 10, [0xFA]))
        XCTAssertTrue(queue.push(frame: 10, [0xF8]))
        XCTAssertTrue(queue.push(frame: 300, [0x90, 60, 100]))
        var out = [(Int, [UInt8])]()
        while let message = queue.peek() {
            out.append((message.frame, Array(UnsafeBufferPointer(start: message.bytes, count: message.size))))
            queue.pop(late: false)
        }
        XCTAssertEqual(out.map(\.0), [10, 10, 300])
        XCTAssertEqual(out.map(\.1), [[0xFA], [0xF8], [0x90, 60, 100]])
        XCTAssertEqual(queue.pending, 0)
    }

    func testAFullQueueRefusesAndKeepsWhatItHolds() {
        let queue = MidiEventQueue.allocate(capacity: 4)
        defer { queue.deallocate() }
        for frame in 0..<4 { XCTAssertTrue(queue.push(frame: frame, [0xF8])) }
        XCTAssertFalse(queue.push(frame: 4, [0xF8]))
        XCTAssertEqual(queue.peek()?.frame, 0)
        queue.pop(late: false)
        XCTAssertTrue(queue.push(frame: 4, [0xF8]), "a slot freed is used again")
        var frames = [Int]()
        while let message = queue.peek() { frames.append(message.frame); queue.pop(late: true) }
        XCTAssertEqual(frames, [1, 2, 3, 4])
        XCTAssertEqual(queue.lateCount, 4)
    }
}
