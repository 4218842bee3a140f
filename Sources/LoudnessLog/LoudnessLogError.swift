/// Why `--loudness-log DIR` cannot be used.
public enum LoudnessLogError: Error, CustomStringConvertible {
    case notADirectory(String)
    case notWritable(String, String)

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) is not a directory (make it first)"
        case .notWritable(let path, let reason): "\(path) cannot be written: \(reason)"
        }
    }
}
