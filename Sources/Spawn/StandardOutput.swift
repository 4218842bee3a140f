import Glibc

/// Unbuffered writes to stdout and stderr, retried until complete.
public enum StandardOutput {
    /// Writes `text` to stdout.
    public static func write(_ text: String) { write(text, to: 1) }
    /// Writes `text` to stderr.
    public static func error(_ text: String) { write(text, to: 2) }

    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}
