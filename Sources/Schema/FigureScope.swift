/// What the first part of a figure's address (below the prefix) names: an input port, a loudness programme, a
/// correlation pair, or nothing (the run itself).
public enum FigureScope: String, Sendable, CaseIterable {
    /// `<prefix>/<port>/…`: one per input port (`in_1`, or the name `--name` gave it).
    case port
    /// `<prefix>/<programme>/loudness/…`: one per loudness programme (`main`, or those `--programme` made).
    case programme
    /// `<prefix>/<pair>/…`: one per `--pair`.
    case pair
    /// `<prefix>/…`: the run itself (its JACK connection, its restarts).
    case session

    /// The placeholder the reference writes for the scope's part of the address, nil for the session.
    public var placeholder: String? {
        switch self {
        case .port: "<port>"
        case .programme: "<programme>"
        case .pair: "<pair>"
        case .session: nil
        }
    }
}
