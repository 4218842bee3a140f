import OSC

/// One OSC destination and how it wants its data: `HOST:PORT[,key=value…]` on the command line and in the
/// configuration file (see ``init(parsing:defaultPrefix:defaultBundles:)`` for the keys).
public struct DestinationSettings: Sendable, Equatable {
    /// Where to send.
    public var destination: OSCDestination
    /// Address patterns a message's address (as sent, prefix included) must match one of; empty sends all.
    public var filters: [OSCAddressPattern] = []
    /// The address prefix ("/jacktap" unless the destination or `--prefix` says otherwise; "" for none).
    public var prefix: String
    /// Ticks per second of audio sent to this destination; nil sends every tick. Events are never limited.
    public var rate: Double?
    /// One bundle per tick (split to fit ``maxSize``) or one plain message per datagram.
    public var bundles: Bool
    /// How values are mapped (see ``ValueScale``).
    public var scale: ValueScale = .db
    /// The dB that maps to 0 on the unit, byte and percent scales.
    public var floorDB: Double = -60
    /// The dB that maps to 1 (255, 100).
    public var ceilingDB: Double = 0
    /// Time constant (seconds) of the one-pole smoothing of rising values; 0 follows them at once.
    public var attack: Double = 0
    /// Time constant (seconds) of falling values; 0 follows them at once.
    public var release: Double = 0
    /// Whether the user named this a broadcast destination (then refusing SO_BROADCAST is an error).
    public var broadcast = false
    /// Multicast hop limit.
    public var ttl: UInt8 = 1
    /// IPv4 address of the interface multicast leaves by; nil lets the routing table choose.
    public var interface: String?
    /// Addresses renamed for this destination (as sent, prefix included → the receiver's own address), for
    /// consoles that only take their own address space: `map=/jacktap/in_1/level>/Page1/Fader201` (grandMA3),
    /// `map=/jacktap/in_1/level>/eos/chan/1/intens` (Eos).
    public var addressMap: [String: String] = [:]
    /// Largest datagram, bytes: 1400 fits an Ethernet MTU with room for tunnels; ETC Eos wants 512.
    public var maxSize = 1400
    /// OSC over TCP (`transport=tcp`, `framing=size|slip`): how each packet is framed on the stream; nil sends UDP.
    public var framing: OSCStreamFraming?

    /// The smallest datagram limit: a bundle header and one small message.
    public static let minimumMaxSize = 64

    /// Characters refused in a `prefix=` or `map=` address: those OSC 1.0 forbids in an address part (space,
    /// `#`, `,`, and the pattern characters `*?[]{}`), so that receivers see one literal address rather than a
    /// pattern. `/` is allowed: it separates the parts.
    static let forbiddenAddressCharacters = " #*,?[]{}"

    /// A destination with every setting at its default.
    public init(destination: OSCDestination, prefix: String = "/jacktap", bundles: Bool = true) {
        self.destination = destination
        self.prefix = Self.normalisedPrefix(prefix)
        self.bundles = bundles
    }

    /// Parses `HOST:PORT[,key=value…]`. Keys: `filter=PATTERN` (OSC address pattern; several joined by `|`
    /// or the key repeated), `prefix=/x`, `rate=HZ`, `bundles=yes|no` (or the words `bundles`, `plain`),
    /// `scale=db|unit|byte|percent`, `floor=DB`, `ceiling=DB`, `attack=MS`, `release=MS`, `broadcast`,
    /// `ttl=N`, `interface=IPV4`, `maxsize=BYTES`, `map=FROM>TO` (repeatable). Commas inside `{…}` or `[…]` belong to the pattern.
    /// `defaultPrefix` and `defaultBundles` (from `--prefix` and `--no-bundles`) apply unless set here.
    public init(parsing text: String, defaultPrefix: String = "/jacktap", defaultBundles: Bool = true)
        throws(DestinationSettingsError)
    {
        let fields = Self.splitFields(text)
        do {
            self.init(destination: try OSCDestination(parsing: fields[0]), prefix: defaultPrefix, bundles: defaultBundles)
        } catch {
            throw .address(error)
        }
        if destination.isLimitedBroadcast { broadcast = true }
        for field in fields.dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).lowercased()
            let value = parts.count == 2 ? String(parts[1]) : nil
            try apply(key: key, value: value, text: text)
        }
        guard ceilingDB > floorDB else {
            throw .badValue(text: text, key: "ceiling", value: "\(ceilingDB)", expected: "a ceiling above floor (\(floorDB) dB)")
        }
    }

    /// Sets one key.
    private mutating func apply(key: String, value: String?, text: String) throws(DestinationSettingsError) {
        func bad(_ expected: String) -> DestinationSettingsError {
            .badValue(text: text, key: key, value: value ?? "", expected: expected)
        }
        func number(_ range: ClosedRange<Double>, _ expected: String) throws(DestinationSettingsError) -> Double {
            guard let value, let number = Double(value), number.isFinite, range.contains(number) else { throw bad(expected) }
            return number
        }
        switch key {
        case "filter":
            guard let value, !value.isEmpty else { throw bad("an OSC address pattern such as /jacktap/*/level") }
            for pattern in value.split(separator: "|") {
                do { filters.append(try OSCAddressPattern(String(pattern))) } catch {
                    throw bad("an OSC address pattern such as /jacktap/*/level (\(error))")
                }
            }
        case "prefix":
            guard let value, !value.contains(where: { Self.forbiddenAddressCharacters.contains($0) }) else {
                throw bad("an address prefix without space # * , ? [ ] { } (e.g. /rig)")
            }
            prefix = Self.normalisedPrefix(value)
        case "rate":
            rate = try number(0.001...1000, "ticks per second above 0")
        case "bundles", "plain":
            switch value?.lowercased() {
            case nil: bundles = key == "bundles"
            case "yes", "true", "on", "1": bundles = key == "bundles"
            case "no", "false", "off", "0": bundles = key != "bundles"
            default: throw bad("yes or no")
            }
        case "scale":
            guard let value, let scale = ValueScale(rawValue: value.lowercased()) else {
                throw bad(ValueScale.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.scale = scale
        case "floor": floorDB = try number(-200...0, "dB from -200 to 0")
        case "ceiling": ceilingDB = try number(-200...40, "dB from -200 to 40")
        case "attack": attack = try number(0...60_000, "milliseconds from 0 to 60000") / 1000
        case "release": release = try number(0...60_000, "milliseconds from 0 to 60000") / 1000
        case "broadcast":
            guard value == nil || ["yes", "true", "on", "1"].contains(value!.lowercased()) else { throw bad("no value") }
            broadcast = true
        case "ttl": ttl = UInt8(try number(0...255, "a hop count from 0 to 255"))
        case "interface":
            guard let value, !value.isEmpty else { throw bad("the IPv4 address of a local interface") }
            interface = value
        case "map":
            let sides = value?.split(separator: ">", maxSplits: 1).map(String.init) ?? []
            guard sides.count == 2, sides.allSatisfy({ $0.hasPrefix("/") && !$0.contains(where: { Self.forbiddenAddressCharacters.contains($0) }) })
            else { throw bad("FROM>TO, two OSC addresses such as /jacktap/in_1/level>/Page1/Fader201") }
            addressMap[sides[0]] = sides[1]
        case "transport":
            switch value?.lowercased() {
            case "udp": framing = nil
            case "tcp": framing = framing ?? .size
            default: throw bad("udp or tcp")
            }
        case "framing":
            guard let value, let chosen = OSCStreamFraming(rawValue: value.lowercased()) else {
                throw bad("size (OSC 1.0: each packet after its int32 size) or slip (OSC 1.1)")
            }
            framing = chosen
        case "maxsize":
            maxSize = Int(try number(Double(Self.minimumMaxSize)...65_507, "bytes from \(Self.minimumMaxSize) to 65507"))
        default:
            throw .unknownKey(text: text, key: key)
        }
    }

    /// The text split at commas outside `{…}` and `[…]` (OSC pattern syntax).
    static func splitFields(_ text: String) -> [String] {
        var fields = [String]()
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "{", "[": depth += 1
            case "}", "]": depth = max(0, depth - 1)
            case "," where depth == 0:
                fields.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        fields.append(current)
        return fields
    }

    /// "/x", with one leading slash and no trailing one; "" stays "" (addresses start at the port name).
    /// Public so that ``OSCPublisher`` and the control session's addresses use the same rule as a destination.
    public static func normalisedPrefix(_ prefix: String) -> String {
        let trimmed = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        return trimmed.hasPrefix("/") || trimmed.isEmpty ? trimmed : "/" + trimmed
    }
}
