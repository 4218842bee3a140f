import ArgumentParser
import Output

/// A failure the user must read: printed on stderr as "jacktap: …", then exit with a sysexits code.
struct Failure: Error, CustomStringConvertible {
    let description: String
    let code: Int32

    static let usage: Int32 = 64  // EX_USAGE
    static let noSuchPort: Int32 = 65  // EX_DATAERR
    static let badFile: Int32 = 66  // EX_NOINPUT
    static let noServer: Int32 = 69  // EX_UNAVAILABLE
    static let serverStopped: Int32 = 74  // EX_IOERR

    /// Prints the message and exits.
    func exit() -> Never {
        StandardOutput.error("jacktap: \(description)\n")
        Jacktap.exit(withError: ExitCode(code))
    }
}
