/// A failure the user must read: printed on stderr as "jacktap: …", then exit with a sysexits code.
public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public let code: Int32

    public static let usage: Int32 = 64  // EX_USAGE
    public static let noSuchPort: Int32 = 65  // EX_DATAERR
    public static let badFile: Int32 = 66  // EX_NOINPUT
    public static let noServer: Int32 = 69  // EX_UNAVAILABLE
    public static let serverStopped: Int32 = 74  // EX_IOERR

    public init(description: String, code: Int32) {
        self.description = description
        self.code = code
    }
}
