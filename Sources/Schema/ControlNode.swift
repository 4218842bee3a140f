/// One command of the control input (`--listen`), as OSCQuery shows it: a writable node at `<prefix>/<verb>`.
/// Control/ControlCommand parses them; a test holds this list against the parser.
public struct ControlNode: Sendable, Equatable {
    /// The address below the prefix (`reset`).
    public let verb: String
    /// The OSC type tags of its full form (optional arguments included).
    public let typeTags: String
    /// What each argument is, in order.
    public let arguments: [String]
    /// One line for the reference.
    public let summary: String

    /// Every command the control input takes.
    public static let all = [
        ControlNode(verb: "reset", typeTags: "", arguments: [],
                    summary: "restart the integrated loudness, range and maxima, the peak holds and the clip counts"),
        ControlNode(verb: "subscribe", typeTags: "sis", arguments: ["host", "port", "address pattern(s), optional"],
                    summary: "send OSC to host:port, only the addresses matching the pattern (| between several)"),
        ControlNode(verb: "unsubscribe", typeTags: "si", arguments: ["host", "port"],
                    summary: "stop sending to a subscribed destination"),
        ControlNode(verb: "connect", typeTags: "ss", arguments: ["source port", "input, optional"],
                    summary: "connect a JACK output port to an input of jacktap (the one named, else the first free)"),
        ControlNode(verb: "disconnect", typeTags: "s", arguments: ["source port"],
                    summary: "disconnect a JACK output port from every input of jacktap"),
        ControlNode(verb: "loudness/pause", typeTags: "s", arguments: ["programme, optional (every programme)"],
                    summary: "pause the integrated loudness, range and maxima (momentary and short-term keep showing "
                        + "the audio)"),
        ControlNode(verb: "loudness/resume", typeTags: "s", arguments: ["programme, optional (every programme)"],
                    summary: "resume a paused programme"),
        ControlNode(verb: "loudness/reset", typeTags: "s", arguments: ["programme, optional (every programme)"],
                    summary: "start a programme's integrated loudness, range and maxima again (its log writes a report)"),
        ControlNode(verb: "query", typeTags: "", arguments: [],
                    summary: "reply with the configuration, the inputs, the destinations and the counts"),
    ]
}
