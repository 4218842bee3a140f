import DSP
import Foundation

/// Which musical analyses run on which port (`--music`): a 64-channel session meters every channel and
/// tracks pitch and rhythm only on the buses that need them.
///
/// Written as comma-separated items. A bare analysis (`pitch`, `rhythm`, `all`, `none`) sets what every port
/// gets unless a rule names it; a rule `PORTS=WHAT` sets it for the ports PORTS names: one port (`in_1`), a
/// shell glob (`in_*`, `bus_[12]`) or a numbered range (`in_2..in_64`, or `in_2..64`). WHAT is `all`, `none`,
/// `pitch`, `rhythm` or `pitch+rhythm`. A later rule wins over an earlier one for the ports both name. With
/// no bare item every port not named by a rule gets everything, as without `--music`.
public struct MusicSelection: Sendable, Equatable {
    /// The trackers one port runs.
    public struct Analyses: Sendable, Equatable {
        public var pitch: Bool
        public var rhythm: Bool

        public init(pitch: Bool, rhythm: Bool) {
            self.pitch = pitch
            self.rhythm = rhythm
        }

        public static let all = Analyses(pitch: true, rhythm: true)
        public static let none = Analyses(pitch: false, rhythm: false)
    }

    /// The ports a rule names.
    enum Ports: Sendable, Equatable {
        case glob(String)
        /// `prefix` followed by a whole number in `range`.
        case numbered(prefix: String, range: ClosedRange<Int>)

        func contains(_ port: String) -> Bool {
            switch self {
            case .glob(let pattern):
                return Glob.matches(pattern, port)
            case .numbered(let prefix, let range):
                guard port.hasPrefix(prefix), let n = Int(port.dropFirst(prefix.count)), port.count > prefix.count,
                      port.dropFirst(prefix.count).allSatisfy(\.isASCII) else { return false }
                return range.contains(n)
            }
        }
    }

    /// What a port not named by any rule runs.
    public var everyPort: Analyses
    var rules: [(ports: Ports, analyses: Analyses)]

    /// Every analysis on every port.
    public init(everyPort: Analyses = .all) {
        self.everyPort = everyPort
        rules = []
    }

    /// Parses the items of one or several `--music` options (each comma-separated).
    public init(parsing specs: [String]) throws(MusicSelectionError) {
        var bare: Analyses?
        rules = []
        for item in specs.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let item = item.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { throw MusicSelectionError("an empty item") }
            if let equals = item.firstIndex(of: "=") {
                let ports = try Self.ports(String(item[..<equals]))
                let analyses = try Self.analyses(String(item[item.index(after: equals)...]), in: item)
                rules.append((ports, analyses))
            } else {
                let analyses = try Self.analyses(item, in: item)
                bare = Analyses(pitch: (bare?.pitch ?? false) || analyses.pitch,
                                rhythm: (bare?.rhythm ?? false) || analyses.rhythm)
            }
        }
        everyPort = bare ?? .all
    }

    /// What `port` runs: the last rule that names it, else `everyPort`.
    public func analyses(forPort port: String) -> Analyses {
        rules.last { $0.ports.contains(port) }?.analyses ?? everyPort
    }

    public static func == (a: MusicSelection, b: MusicSelection) -> Bool {
        a.everyPort == b.everyPort && a.rules.count == b.rules.count
            && zip(a.rules, b.rules).allSatisfy { $0.ports == $1.ports && $0.analyses == $1.analyses }
    }

    static func analyses(_ text: String, in item: String) throws(MusicSelectionError) -> Analyses {
        var chosen = Analyses.none
        for name in text.split(separator: "+", omittingEmptySubsequences: false) {
            switch name.trimmingCharacters(in: .whitespaces).lowercased() {
            case "all": chosen = .all
            case "none": continue
            case "pitch": chosen.pitch = true
            case "rhythm": chosen.rhythm = true
            default:
                throw MusicSelectionError("unknown analysis '\(name)' in '\(item)' (pitch, rhythm, all or none)")
            }
        }
        return chosen
    }

    static func ports(_ text: String) throws(MusicSelectionError) -> Ports {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw MusicSelectionError("a rule without ports before '='") }
        guard let dots = text.range(of: "..") else { return .glob(text) }
        let first = text[..<dots.lowerBound], last = text[dots.upperBound...]
        let digits = first.reversed().prefix { $0.isASCII && $0.isNumber }.count
        let prefix = String(first.dropLast(digits))
        guard digits > 0, let low = Int(first.suffix(digits)) else {
            throw MusicSelectionError("'\(text)': a range needs a numbered first port, such as in_2..in_64")
        }
        let lastNumber = last.hasPrefix(prefix) && !prefix.isEmpty ? last.dropFirst(prefix.count) : last
        guard let high = Int(lastNumber), high >= low else {
            throw MusicSelectionError("'\(text)': the range must end at a number not below \(low), such as \(prefix)\(low)..\(prefix)\(low + 1)")
        }
        return .numbered(prefix: prefix, range: low...high)
    }
}

/// A `--music` value that cannot be read.
public struct MusicSelectionError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
