/// What an ``NSMClient`` has received and sent so far, for a status line or a test.
public struct NSMCounts: Sendable, Equatable {
    /// Datagrams received.
    public var packets = 0
    /// Datagrams that were not OSC, or did not fit the receive buffer.
    public var malformed = 0
    /// Messages at addresses the client does not handle.
    public var unknown = 0
    /// Messages at a known address with the wrong arguments.
    public var rejected = 0
    /// Events queued for the owner.
    public var events = 0
    /// Events dropped because the owner had not taken ``NSMClient/maximumPendingEvents`` earlier ones.
    public var dropped = 0
    /// Messages the client sent that the kernel did not take (no route, full send buffer). A server that
    /// has quit is not among them: an unconnected UDP socket hears no ICMP "port unreachable" on Linux.
    public var sendFailures = 0

    public init() {}

    /// `packets 3, malformed 0, …` for a log line.
    public var summary: String {
        "packets \(packets), malformed \(malformed), unknown \(unknown), rejected \(rejected), events \(events), "
            + "dropped \(dropped), send failures \(sendFailures)"
    }
}
