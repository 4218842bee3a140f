@testable import ServiceDiscovery
import Foundation
import XCTest

/// DNS messages as python-zeroconf (a resolver no one here wrote) reads and writes them.
final class DNSMessageTests: XCTestCase {
    /// Runs python3 with zeroconf's DNS codec on `script`, `input` hex on stdin; its stdout.
    func zeroconf(_ script: String, input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: output, as: UTF8.self)
    }

    func testAQueryZeroconfWritesIsReadWithItsCompressedNames() throws {
        // Two questions: the second's name points into the first's (RFC 1035 4.1.4), and asks for unicast.
        let hex = try zeroconf("""
            from zeroconf import DNSOutgoing, DNSQuestion, const
            out = DNSOutgoing(const._FLAGS_QR_QUERY, multicast=True)
            out.add_question(DNSQuestion("_oscjson._tcp.local.", const._TYPE_PTR, const._CLASS_IN))
            q = DNSQuestion("jacktap._oscjson._tcp.local.", const._TYPE_SRV, const._CLASS_IN)
            q.unicast = True
            out.add_question(q)
            print(out.packets()[0].hex())
            """)
        let bytes = stride(from: 0, to: hex.count - 1, by: 2).compactMap { i -> UInt8? in
            let start = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        }
        XCTAssertEqual(DNSMessage.questions(bytes), [
            .init(name: "_oscjson._tcp.local", type: DNSMessage.typePTR, unicastResponse: false),
            .init(name: "jacktap._oscjson._tcp.local", type: DNSMessage.typeSRV, unicastResponse: true),
        ])
    }

    func testAResponseIsReadByZeroconfRecordByRecord() throws {
        let zone = MDNSResponder.zone(instance: "stage tap", host: "rack.local",
                                      services: [.init(type: "_oscjson._tcp", port: 8081, text: ["txtvers=1"])],
                                      addresses: [0x0100_007F])  // 127.0.0.1, network order
        let (answers, additionals) = zone.answer([.init(name: "_oscjson._tcp.local", type: DNSMessage.typePTR,
                                                        unicastResponse: false)])
        let hex = DNSMessage.response(answers: answers, additionals: additionals).map { String(format: "%02x", $0) }.joined()
        let read = try zeroconf("""
            import sys
            from zeroconf import DNSIncoming
            m = DNSIncoming(bytes.fromhex(sys.stdin.read().strip()))
            assert m.is_response() and m.valid
            for r in m.answers():
                print("|".join(str(v) for v in [type(r).__name__, r.name, r.ttl, getattr(r, 'alias', ''),
                      getattr(r, 'port', ''), getattr(r, 'server', ''), r.unique, getattr(r, 'text', b'').hex(),
                      getattr(r, 'address', b'').hex()]))
            """, input: hex)
        XCTAssertEqual(read.split(separator: "\n").map(String.init), [
            "DNSPointer|_oscjson._tcp.local.|4500|stage tap._oscjson._tcp.local.|||False||",
            "DNSService|stage tap._oscjson._tcp.local.|120||8081|rack.local.|True||",
            "DNSText|stage tap._oscjson._tcp.local.|4500||||True|09747874766572733d31|",
            "DNSAddress|rack.local.|120||||True||7f000001",
        ])
    }

    func testGarbageAndResponsesAreNoQuestions() {
        XCTAssertNil(DNSMessage.questions([1, 2, 3]))
        XCTAssertNil(DNSMessage.questions([0, 0, 0x84, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]), "a response")
        // A name whose pointer points at itself.
        XCTAssertNil(DNSMessage.questions([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 1, 0, 1]))
        // A label running past the end.
        XCTAssertNil(DNSMessage.questions([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 9, 0x61]))
    }
}

/// The names the responder makes up.
final class MDNSNameTests: XCTestCase {
    func testTheHostLabelIsAHostNameOfItsOwn() {
        XCTAssertEqual(MDNSResponder.label("foh tap-rack.example"), "foh-tap-rack-example")
        XCTAssertEqual(MDNSResponder.label(""), "jacktap")
        XCTAssertEqual(MDNSResponder.label(String(repeating: "a", count: 80)).count, 63)
    }

    func testAOneShotResolverGetsItsIdAndQuestionBack() throws {
        let question = DNSMessage.Question(name: "fohtap._oscjson._tcp.local", type: DNSMessage.typeSRV, unicastResponse: false)
        let response = DNSMessage.response(id: 0xBEEF, questions: [question], answers: [], additionals: [])
        XCTAssertEqual(Array(response[0..<6]), [0xBE, 0xEF, 0x84, 0, 0, 1])
        // The question section reads back (a response's questions are not taken as a query's).
        var asQuery = response
        asQuery[2] = 0
        XCTAssertEqual(DNSMessage.questions(asQuery), [question])
    }
}
