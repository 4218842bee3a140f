/// What the control input has received since it started.
public struct ControlCounts: Sendable, Equatable {
    /// Datagrams received.
    public var packets = 0
    /// Datagrams that were not OSC packets (undecodable, oversize); dropped without a reply.
    public var malformed = 0
    /// Messages whose address is no control address; dropped without a reply.
    public var unknown = 0
    /// Messages to a control address with arguments that do not fit; answered with an error.
    public var rejected = 0
    /// Commands carried out (successfully or with an error reply from the graph or the router).
    public var commands = 0

    /// Counts of zero.
    public init() {}

    /// "12 packets, 11 commands, 0 malformed, 1 unknown, 0 rejected".
    public var summary: String {
        "\(packets) packets, \(commands) commands, \(malformed) malformed, \(unknown) unknown, \(rejected) rejected"
    }
}
