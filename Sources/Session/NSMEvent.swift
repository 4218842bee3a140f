import OSC

/// What the NSM server said, as the receive thread decoded it, in the order the datagrams arrived.
///
/// The client keeps no session state: an event arrives even when the API says it cannot at that moment
/// (a `save` before any `open`, a second `open` to a client without `:switch:`), and the owner, who knows
/// whether a project is open, answers it, e.g. with ``NSMErrorCode/notNow``.
public enum NSMEvent: Sendable, Equatable {
    /// `/reply "/nsm/server/announce" s:message s:name_of_session_manager s:capabilities`: the client is
    /// now under session management.
    case announceReply(message: String, serverName: String, capabilities: String)
    /// `/error "/nsm/server/announce" i:error_code s:error_message`: the server refused the client.
    /// `code` is the number as sent; ``NSMErrorCode/init(rawValue:)`` names the ones the API defines.
    case announceError(code: Int32, message: String)
    /// `/nsm/client/open s:path s:display_name s:client_id`: open or create the project at `path` (the
    /// client adds its own extension, or uses it as a directory) and use `clientID` as the JACK client name.
    /// Requires ``NSMClient/replyOK(to:message:)`` or ``NSMClient/replyError(to:code:message:)``.
    case open(path: String, displayName: String, clientID: String)
    /// `/nsm/client/save`: save the project opened last. Requires a reply, like `open`.
    case save
    /// `/nsm/client/session_is_loaded`: every client of the session has opened. No reply.
    case sessionIsLoaded
    /// `/nsm/client/show_optional_gui`, sent only to clients that announced `:optional-gui:`. No reply.
    case showOptionalGUI
    /// `/nsm/client/hide_optional_gui`, likewise.
    case hideOptionalGUI
}

extension NSMEvent {
    /// How one received message was understood.
    enum Decoded: Equatable {
        /// A message of the NSM API with the arguments it specifies.
        case event(NSMEvent)
        /// An address the client does not handle (including `/reply` and `/error` about other requests).
        case unknown
        /// A known address with arguments of the wrong number or types.
        case rejected
    }

    /// Decodes one message. Arguments must be exactly those the API lists, as liblo clients (nsm.h) match
    /// them by type string; extra or missing arguments make the message ``Decoded/rejected``.
    static func decode(_ message: OSCMessage) -> Decoded {
        let arguments = message.arguments
        switch message.address {
        case "/reply":
            guard case .string("/nsm/server/announce") = arguments.first else { return .unknown }
            guard let text = strings(arguments, count: 4) else { return .rejected }
            return .event(.announceReply(message: text[1], serverName: text[2], capabilities: text[3]))
        case "/error":
            guard case .string("/nsm/server/announce") = arguments.first else { return .unknown }
            guard arguments.count == 3, case .int32(let code) = arguments[1], case .string(let text) = arguments[2] else {
                return .rejected
            }
            return .event(.announceError(code: code, message: text))
        case NSMRequest.open.address:
            guard let text = strings(arguments, count: 3) else { return .rejected }
            return .event(.open(path: text[0], displayName: text[1], clientID: text[2]))
        case NSMRequest.save.address:
            return arguments.isEmpty ? .event(.save) : .rejected
        case "/nsm/client/session_is_loaded":
            return arguments.isEmpty ? .event(.sessionIsLoaded) : .rejected
        case "/nsm/client/show_optional_gui":
            return arguments.isEmpty ? .event(.showOptionalGUI) : .rejected
        case "/nsm/client/hide_optional_gui":
            return arguments.isEmpty ? .event(.hideOptionalGUI) : .rejected
        default:
            return .unknown
        }
    }

    /// The arguments as strings when there are exactly `count` of them and all are `s`.
    private static func strings(_ arguments: [OSCArgument], count: Int) -> [String]? {
        guard arguments.count == count else { return nil }
        var text = [String]()
        for argument in arguments {
            guard case .string(let value) = argument else { return nil }
            text.append(value)
        }
        return text
    }
}
