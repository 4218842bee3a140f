#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Analysis
import OSC

/// One request to the control input, parsed and checked from an OSC message whose address is
/// `<prefix>/<verb>` (prefix from `--prefix`, "/jacktap" by default).
///
/// Addresses are matched literally, not as OSC patterns, so that one wildcard message cannot run several
/// commands. Strings may be sent as `s` or `S`, numbers as `i`, `h`, or a whole `f`/`d` (Pure Data's
/// `oscformat` sends floats).
public enum ControlCommand: Sendable, Equatable {
    /// `reset`: restart the integrated loudness, range and maxima, the peak holds and the clip counts.
    case reset
    /// `subscribe s:host i:port [s:pattern]`: send OSC to host:port, only the addresses matching one of
    /// `filters` ("|"-separated in the pattern argument); all addresses when empty.
    case subscribe(host: String, port: UInt16, filters: [OSCAddressPattern])
    /// `unsubscribe s:host i:port`: stop sending to a subscribed destination.
    case unsubscribe(host: String, port: UInt16)
    /// `connect s:source [s:input]`: connect a JACK output port to an input of jacktap (the one named, else
    /// the first without a connection).
    case connect(source: String, input: String?)
    /// `disconnect s:source`: disconnect a JACK output port from every input of jacktap.
    case disconnect(source: String)
    /// `query`: reply with the configuration, the inputs and their connections, the destinations, the counts.
    case query
    /// `/loudness/pause`, `/loudness/resume`, `/loudness/reset` with a programme's name, or none for every
    /// programme (EBU Tech 3341's pause and reset of the integration).
    case loudness(LoudnessCommand, programme: String?)

    /// Longest subscription pattern text, bytes, and most alternatives in it: a packet cannot make the
    /// router hold unbounded patterns.
    public static let maximumPatternLength = 512
    public static let maximumPatternCount = 8
    /// Longest JACK port name (jackd2's `jack_port_name_size()`: client 64 + port 256).
    public static let maximumPortNameLength = 320

    /// The command `message` asks for. Throws ``ControlCommandError/unknownAddress(_:)`` when the address is
    /// not `prefix` + "/" + a verb, and ``ControlCommandError/badArguments(address:expected:)`` when the
    /// arguments do not fit the verb.
    public init(_ message: OSCMessage, prefix: String) throws(ControlCommandError) {
        let address = message.address
        guard address.hasPrefix(prefix + "/") else { throw .unknownAddress(address) }
        let verb = address.dropFirst(prefix.count + 1)
        let arguments = message.arguments
        func bad(_ expected: String) -> ControlCommandError { .badArguments(address: address, expected: expected) }
        switch verb {
        case "reset", "query":
            guard arguments.isEmpty else { throw bad("no arguments") }
            self = verb == "reset" ? .reset : .query
        case "subscribe", "unsubscribe":
            let usage = verb == "subscribe" ? "s:host i:port [s:pattern]" : "s:host i:port"
            let most = verb == "subscribe" ? 3 : 2
            guard (2...most).contains(arguments.count), let host = Self.text(arguments[0]),
                  let number = Self.integer(arguments[1]) else { throw bad(usage) }
            guard Self.isNumericHost(host) else {
                throw bad("a numeric IPv4 or IPv6 host or localhost (no name lookups), then i:port")
            }
            guard (1...65535).contains(number) else { throw bad("a port from 1 to 65535") }
            if verb == "unsubscribe" {
                self = .unsubscribe(host: host, port: UInt16(number))
                return
            }
            var filters = [OSCAddressPattern]()
            if arguments.count == 3 {
                guard let text = Self.text(arguments[2]) else { throw bad(usage) }
                filters = try Self.patterns(text, bad: bad)
            }
            self = .subscribe(host: host, port: UInt16(number), filters: filters)
        case "connect":
            guard (1...2).contains(arguments.count), let source = Self.text(arguments[0]),
                  Self.isPortName(source) else { throw bad("s:source-port [s:input]") }
            var input: String?
            if arguments.count == 2 {
                guard let name = Self.text(arguments[1]), Self.isPortName(name) else { throw bad("s:source-port [s:input]") }
                input = name
            }
            self = .connect(source: source, input: input)
        case "loudness/pause", "loudness/resume", "loudness/reset":
            let command = LoudnessCommand(rawValue: String(verb.dropFirst("loudness/".count)))!
            guard arguments.count <= 1 else { throw bad("[s:programme]") }
            var programme: String?
            if let argument = arguments.first {
                guard let name = Self.text(argument), !name.isEmpty, name.utf8.count <= 256 else {
                    throw bad("[s:programme]")
                }
                programme = name
            }
            self = .loudness(command, programme: programme)
        case "disconnect":
            guard arguments.count == 1, let source = Self.text(arguments[0]), Self.isPortName(source) else {
                throw bad("s:source-port")
            }
            self = .disconnect(source: source)
        default:
            throw .unknownAddress(address)
        }
    }

    /// The address of this command under `prefix`.
    public func address(prefix: String) -> String {
        switch self {
        case .reset: prefix + "/reset"
        case .subscribe: prefix + "/subscribe"
        case .unsubscribe: prefix + "/unsubscribe"
        case .connect: prefix + "/connect"
        case .disconnect: prefix + "/disconnect"
        case .query: prefix + "/query"
        case .loudness(let command, _): prefix + "/loudness/" + command.rawValue
        }
    }

    static func text(_ argument: OSCArgument) -> String? {
        switch argument {
        case .string(let text), .symbol(let text): text
        default: nil
        }
    }

    static func integer(_ argument: OSCArgument) -> Int? {
        switch argument {
        case .int32(let value): Int(value)
        case .int64(let value): Int(exactly: value)
        case .float32(let value): Int(exactly: value)
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// A numeric address or "localhost": resolving a name could stall the control thread on DNS for as
    /// long as a sender likes.
    static func isNumericHost(_ host: String) -> Bool {
        if host == "localhost" { return true }
        guard !host.isEmpty, host.utf8.count <= 64 else { return false }
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Non-empty, no longer than JACK allows, no control characters.
    static func isPortName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumPortNameLength && !name.unicodeScalars.contains { $0.value < 0x20 }
    }

    static func patterns(_ text: String, bad: (String) -> ControlCommandError) throws(ControlCommandError)
        -> [OSCAddressPattern]
    {
        guard text.utf8.count <= maximumPatternLength else { throw bad("a pattern of at most \(maximumPatternLength) bytes") }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count <= maximumPatternCount else { throw bad("at most \(maximumPatternCount) patterns joined by |") }
        var result = [OSCAddressPattern]()
        for part in parts {
            do { result.append(try OSCAddressPattern(String(part))) } catch {
                throw bad("an OSC address pattern such as /jacktap/*/level (\(error))")
            }
        }
        return result
    }
}
