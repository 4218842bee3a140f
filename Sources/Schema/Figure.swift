/// One figure or event jacktap publishes, declared once: OSC, the scaling per destination, the timetags and the
/// reference in docs/ derive from it (``FigureSchema``).
public struct Figure: Sendable, Equatable {
    /// Whose it is: the first part of its address below the prefix.
    public let scope: FigureScope
    /// Its address below the scope's part, without a leading slash: `peak`, `loudness/momentary`, `status`.
    public let path: String
    /// The OSC type tags of its arguments, in order (`f`, `ff`, `sif`); a `*` after a tag repeats it (`f*`).
    public let typeTags: String
    /// What each argument is, in the order of ``typeTags``: its unit or meaning in a few words.
    public let arguments: [String]
    /// The unit of its values (`dBFS`, `LUFS`, `Hz`, `BPM`; empty for counts, names and states), as OSCQuery's
    /// UNIT gives it for each float argument.
    public let unit: String
    /// What it measures (and so how a destination may rescale it).
    public let kind: FigureKind
    /// The values it can take, where they are bounded.
    public let range: ClosedRange<Double>?
    /// Decimals in the `--json` lines (nil: a whole number, a string, or not in the tick line).
    public let decimals: Int?
    /// When it is sent.
    public let cadence: FigureCadence
    /// Which instant its bundle's timetag gives.
    public let instant: FigureInstant
    /// One line for the reference: what it is, with the standard or option behind it.
    public let summary: String
    /// A few characters for a meter's face (the page, the view): `true peak`, `M`, `LRA`; the leaf by default.
    public let label: String

    /// A figure with every attribute given.
    public init(_ scope: FigureScope, _ path: String, _ typeTags: String, arguments: [String], unit: String = "",
                kind: FigureKind,
                range: ClosedRange<Double>? = nil, decimals: Int? = nil, cadence: FigureCadence = .everyTick,
                instant: FigureInstant = .tick, label: String? = nil, summary: String) {
        self.scope = scope
        self.path = path
        suffix = "/" + path
        leaf = path.split(separator: "/").last.map(String.init) ?? path
        self.label = label ?? leaf
        self.typeTags = typeTags
        self.arguments = arguments
        self.unit = unit
        self.kind = kind
        self.range = range
        self.decimals = decimals
        self.cadence = cadence
        self.instant = instant
        self.summary = summary
    }

    /// `/` and the path: what follows the scope's part of the address (`/peak`, `/loudness/momentary`); kept,
    /// since the publisher appends it to every address of every tick.
    public let suffix: String

    /// The last part of the path: the key of its value in the `--json` lines (`momentary`).
    public let leaf: String

    /// The address under `prefix`, with the scope's placeholder (`/jacktap/<port>/peak`).
    public func pattern(prefix: String = "/jacktap") -> String {
        prefix + (scope.placeholder.map { "/" + $0 } ?? "") + suffix
    }

    /// Whether OSC arguments with these tags (`ff`, or `ffff` for `f*`) are what it declares.
    public func accepts(typeTags tags: String) -> Bool {
        guard typeTags.hasSuffix("*") else { return tags == typeTags }
        let fixed = typeTags.dropLast(2)
        let repeated = typeTags[typeTags.index(typeTags.endIndex, offsetBy: -2)]
        return tags.hasPrefix(fixed) && tags.dropFirst(fixed.count).allSatisfy { $0 == repeated }
    }
}
