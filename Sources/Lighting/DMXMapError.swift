/// A DMX mapping that cannot work, with the file and line it is on: jacktap refuses to start (exit 64).
public struct DMXMapError: Error, CustomStringConvertible, Equatable {
    public let file: String
    /// 1-based; 0 when the error is about the file as a whole.
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "'\(file)', line \(line): \(message)" : "'\(file)': \(message)"
    }
}
