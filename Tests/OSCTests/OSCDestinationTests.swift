import Testing

@testable import OSC

/// Parsing and resolving of user-given destinations: HOST:PORT, [IPv6]:PORT, bare PORT.
@Suite struct OSCDestinationTests {
    @Test(arguments: [
        ("127.0.0.1:9000", "127.0.0.1", UInt16(9000)),
        ("9000", "127.0.0.1", UInt16(9000)),
        ("7700", "127.0.0.1", UInt16(7700)),
        ("localhost:7000", "localhost", UInt16(7000)),
        ("[::1]:8000", "::1", UInt16(8000)),
        ("192.168.1.255:7700", "192.168.1.255", UInt16(7700)),
        ("127.0.0.1:1", "127.0.0.1", UInt16(1)),
        ("127.0.0.1:65535", "127.0.0.1", UInt16(65535)),
    ])
    func goodTextGivesHostAndPort(text: String, host: String, port: UInt16) throws {
        let destination = try OSCDestination(parsing: text)
        #expect(destination.host == host)
        #expect(destination.port == port)
    }

    @Test(arguments: [
        ("", OSCDestinationError.notHostPort(text: "")),
        ("foo", .notHostPort(text: "foo")),
        ("localhost:", .invalidPort(text: "localhost:", port: "")),
        ("localhost:0", .invalidPort(text: "localhost:0", port: "0")),
        ("localhost:70000", .invalidPort(text: "localhost:70000", port: "70000")),
        ("localhost:65536", .invalidPort(text: "localhost:65536", port: "65536")),
        ("localhost:abc", .invalidPort(text: "localhost:abc", port: "abc")),
        ("localhost:-1", .invalidPort(text: "localhost:-1", port: "-1")),
        ("localhost: 9000", .invalidPort(text: "localhost: 9000", port: " 9000")),
        ("0", .invalidPort(text: "0", port: "0")),
        ("70000", .invalidPort(text: "70000", port: "70000")),
        ("99999999999999999999999", .invalidPort(text: "99999999999999999999999", port: "99999999999999999999999")),
        (":9000", .emptyHost(text: ":9000")),
        ("[]:9000", .emptyHost(text: "[]:9000")),
        ("[::1]", .notHostPort(text: "[::1]")),
        ("[::1:9000", .notHostPort(text: "[::1:9000")),
        ("::1:9000", .unbracketedIPv6(text: "::1:9000")),
    ])
    func badTextIsRejectedWithTheReason(text: String, expected: OSCDestinationError) {
        #expect(throws: expected) { try OSCDestination(parsing: text) }
    }

    @Test func unresolvableHostIsAnErrorNamingTheHost() {
        do {
            _ = try OSCDestination(parsing: "no-such-host.invalid:9000")
            Issue.record("no-such-host.invalid resolved")
        } catch {
            guard case .unresolvable(let host, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(host == "no-such-host.invalid")
            #expect(!reason.isEmpty)
            #expect(error.description.hasPrefix("host 'no-such-host.invalid' does not resolve to an address: "))
        }
    }

    @Test func messagesNameTheTextAndTheExpectedForm() {
        #expect(
            OSCDestinationError.notHostPort(text: "foo").description
                == "'foo' is not HOST:PORT (example: 127.0.0.1:9000)")
        #expect(
            OSCDestinationError.invalidPort(text: "h:70000", port: "70000").description
                == "'h:70000' has port '70000', which is not a number from 1 to 65535 (example: 127.0.0.1:9000)")
        #expect(OSCDestinationError.invalidPort(text: "h:", port: "").description.contains("'h:' has no port"))
        #expect(OSCDestinationError.emptyHost(text: ":9000").description.contains("':9000' has no host"))
        #expect(OSCDestinationError.unbracketedIPv6(text: "::1:9000").description.contains("[::1]:9000"))
    }

    @Test func nameWithIPv4AndIPv6AddressesPrefersIPv4() throws {
        // "localhost" usually resolves to ::1 and 127.0.0.1; IPv4-only receivers listen on the latter.
        #expect(try OSCDestination(parsing: "localhost:9000").address.family == Syscalls.addressFamilyIPv4)
        #expect(try OSCDestination(parsing: "[::1]:9000").address.family == Syscalls.addressFamilyIPv6)
    }

    @Test(arguments: ["127.0.0.1:9000", "[::1]:8000", "localhost:7000"])
    func descriptionParsesBackToTheSameDestination(text: String) throws {
        let destination = try OSCDestination(parsing: text)
        #expect(destination.description == text)
        #expect(try OSCDestination(parsing: destination.description) == destination)
    }

    @Test func barePortDescribesAsLoopbackHostPort() throws {
        #expect(try OSCDestination(parsing: "9000").description == "127.0.0.1:9000")
    }

    @Test func hostAndPortInitializerRejectsPortZeroAndEmptyHost() {
        #expect(throws: OSCDestinationError.invalidPort(text: "127.0.0.1:0", port: "0")) {
            try OSCDestination(host: "127.0.0.1", port: 0)
        }
        #expect(throws: OSCDestinationError.emptyHost(text: ":9000")) { try OSCDestination(host: "", port: 9000) }
    }
}
