import OSC

/// Which standard a universe is sent by.
public enum DMXProtocol: String, Sendable, CaseIterable {
    /// ANSI E1.31, streaming DMX over ACN, UDP port 5568.
    case sacn
    /// Art-Net 4 ArtDmx, UDP port 6454.
    case artnet

    /// The universes it numbers: sACN 1–63999, Art-Net's 15-bit port-address 0–32767.
    public var universes: ClosedRange<Int> { self == .sacn ? SACNPacket.universes : ArtNetPacket.portAddresses }
    public var port: UInt16 { self == .sacn ? SACNPacket.port : ArtNetPacket.port }
    public var label: String { self == .sacn ? "sACN" : "Art-Net" }
}

/// One entry of `dmx:`: a universe, where it goes, how often, and its channels.
public struct DMXUniverseMap: Sendable, Equatable {
    public static let maxRate = 44.0
    public static let defaultRate = 30.0

    /// The line of the configuration it came from.
    public var line: Int
    public var `protocol`: DMXProtocol
    public var universe: Int
    /// A unicast receiver, a subnet's broadcast, or by default sACN's multicast group for the universe or
    /// Art-Net's limited broadcast.
    public var destination: OSCDestination
    /// sACN's priority, 0–200 (E1.31: 100 by default; a receiver takes the highest source).
    public var priority: Int
    /// Frames a second, at most 44 (DMX512's refresh at 512 slots).
    public var rate: Double
    public var channels: [DMXChannelMap]

    /// What it is, for the user: `sACN universe 1 to 239.255.0.1:5568`.
    public var description: String { "\(`protocol`.label) universe \(universe) to \(destination)" }
}
