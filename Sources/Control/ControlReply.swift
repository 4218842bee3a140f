import OSC

/// Replies to control messages, sent back to the sender's address and port, in the form liblo and
/// python-osc servers use: `/reply s:<the command's address> …`.
///
/// - success: `/reply s:address s:"ok" [details…]`
/// - failure: `/reply s:address s:"error" s:reason`
/// - query: one message per item, `/reply s:address s:key values…`, the last one `s:"end" i:items`.
public enum ControlReply {
    /// The address every reply is sent to.
    public static let address = "/reply"

    /// A success reply to the command at `commandAddress`, with `details` after "ok".
    public static func ok(_ commandAddress: String, _ details: [OSCArgument] = []) -> OSCMessage {
        OSCMessage(address, [.string(commandAddress), .string("ok")] + details)
    }

    /// A failure reply: the command did nothing, `reason` says why.
    public static func error(_ commandAddress: String, _ reason: String) -> OSCMessage {
        OSCMessage(address, [.string(commandAddress), .string("error"), .string(reason)])
    }

    /// One item of a query's answer.
    public static func item(_ commandAddress: String, _ key: String, _ values: [OSCArgument]) -> OSCMessage {
        OSCMessage(address, [.string(commandAddress), .string(key)] + values)
    }
}
