/// The client capabilities sent in `/nsm/server/announce` ("Available Client Capabilities"), as the
/// colon-separated text the API specifies (`:dirty:message:`).
public struct NSMCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `switch`: answers further `open` messages without restarting.
    public static let `switch` = NSMCapabilities(rawValue: 1 << 0)
    /// `dirty`: sends `/nsm/client/is_dirty` and `/nsm/client/is_clean`.
    public static let dirty = NSMCapabilities(rawValue: 1 << 1)
    /// `progress`: sends `/nsm/client/progress` during long operations.
    public static let progress = NSMCapabilities(rawValue: 1 << 2)
    /// `message`: sends `/nsm/client/message` status lines.
    public static let message = NSMCapabilities(rawValue: 1 << 3)
    /// `optional-gui`: has a GUI the server may show and hide.
    public static let optionalGUI = NSMCapabilities(rawValue: 1 << 4)

    private static let names: [(NSMCapabilities, String)] = [
        (.switch, "switch"), (.dirty, "dirty"), (.progress, "progress"), (.message, "message"),
        (.optionalGUI, "optional-gui"),
    ]

    /// The announce argument: `:name:name:`, or an empty string for none.
    public var text: String {
        let present = Self.names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "" : ":" + present.joined(separator: ":") + ":"
    }
}
