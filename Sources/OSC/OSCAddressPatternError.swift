/// Why a string is not an OSC address pattern. Offsets count Unicode scalars from the pattern's start.
public enum OSCAddressPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Patterns, like addresses, start with "/".
    case notStartingWithSlash(pattern: String)
    /// The "[" at `offset` has no "]" before the end of its part.
    case unclosedBracket(pattern: String, offset: Int)
    /// The "{" at `offset` has no "}" before the end of its part.
    case unclosedBrace(pattern: String, offset: Int)
    /// A "]" or "}" at `offset` that closes nothing.
    case unexpectedClosing(pattern: String, offset: Int)
    /// "[]" or "[!]" at `offset`: a character class that lists no characters.
    case emptyCharacterClass(pattern: String, offset: Int)
    /// A "{" inside braces at `offset`; OSC 1.0 alternatives are plain strings.
    case nestedBrace(pattern: String, offset: Int)
    /// The pattern ends with "/", so its last part is empty (and "/" alone names no part).
    case emptyLastPart(pattern: String)

    public var description: String {
        switch self {
        case .notStartingWithSlash(let pattern): "'\(pattern)' does not start with '/'"
        case .unclosedBracket(let pattern, let offset): "'\(pattern)': '[' at \(offset) is not closed by ']' in its part"
        case .unclosedBrace(let pattern, let offset): "'\(pattern)': '{' at \(offset) is not closed by '}' in its part"
        case .unexpectedClosing(let pattern, let offset): "'\(pattern)': closing bracket at \(offset) closes nothing"
        case .emptyCharacterClass(let pattern, let offset): "'\(pattern)': character class at \(offset) is empty"
        case .nestedBrace(let pattern, let offset): "'\(pattern)': '{' at \(offset) is inside braces"
        case .emptyLastPart(let pattern): "'\(pattern)' ends with '/'"
        }
    }
}
