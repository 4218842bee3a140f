/// A server-to-client message that requires a reply (`/reply` or `/error` naming its address): the NSM API's
/// two "Server to Client Control Messages".
public enum NSMRequest: String, Sendable, Equatable, CaseIterable {
    /// `/nsm/client/open s:path s:display_name s:client_id`.
    case open = "/nsm/client/open"
    /// `/nsm/client/save`.
    case save = "/nsm/client/save"

    /// The OSC address, which the reply's first argument repeats.
    public var address: String { rawValue }
}
