import Control
import OSC
import Schema
import XCTest

/// The commands OSCQuery shows as writable nodes are the ones the control input parses, with the arguments it takes.
final class ControlNodeTests: XCTestCase {
    func testEveryDeclaredCommandParsesInItsFullForm() throws {
        let examples: [Character: OSCArgument] = ["s": .string("127.0.0.1"), "i": .int32(9000)]
        for node in ControlNode.all {
            var arguments = node.typeTags.map { examples[$0]! }
            if node.verb == "subscribe" { arguments[2] = .string("/jacktap/*/level") }
            if node.verb.hasSuffix("connect") { arguments = arguments.map { _ in .string("system:capture_1") } }
            XCTAssertNoThrow(try ControlCommand(OSCMessage("/jacktap/" + node.verb, arguments), prefix: "/jacktap"),
                             node.verb)
            XCTAssertEqual(node.arguments.count, node.typeTags.count, node.verb)
        }
    }
}
