/// A `--beat-tuning` item that is not `key=value` with a known key and a non-negative number.
public struct BeatModelSettingsError: Error, CustomStringConvertible {
    public let item: String
    public var description: String {
        "bad beat model setting '\(item)' (beatfraction, beatframes, neutral, floor, power, lambda, penalty, slope, barcost, prior, priorbpm, prioroctaves: a number ≥ 0; steps, centre, barrelatives: on or off)"
    }
}
