import OSCOut

/// Where a live run's figures go, as the command line gave it: the OSC destinations with their settings, the
/// prefix and bundle mode of the control input's subscriptions, and whether `--json` lines go to stdout.
public struct LiveOutput: Sendable {
    public var destinations: [DestinationSettings]
    public var prefix: String
    public var bundles: Bool
    public var json: Bool

    public init(destinations: [DestinationSettings], prefix: String = "/jacktap", bundles: Bool = true, json: Bool = false) {
        self.destinations = destinations
        self.prefix = prefix
        self.bundles = bundles
        self.json = json
    }

    /// The router for the destinations, nil when there are none. A refused socket is a usage error.
    public func makeRouter(analysisRate: Double) throws(Failure) -> OSCRouter? {
        guard !destinations.isEmpty else { return nil }
        do { return try OSCRouter(destinations, analysisRate: analysisRate) } catch {
            throw Failure(description: "--osc \(error)", code: Failure.usage)
        }
    }
}
