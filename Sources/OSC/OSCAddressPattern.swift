/// An OSC address pattern, parsed once and then matched against many addresses (OSC 1.0, "OSC Message
/// Dispatching and Pattern Matching").
///
/// Each "/"-separated part of the pattern matches one part of the address:
/// - `?` one character; `*` any run of characters, including none;
/// - `[abc]`, `[a-z]` one listed character, `[!a-z]` one character not listed ("-" first or last and
///   "!" anywhere but first are literal; a reversed range such as `[z-a]` means the same as `[a-z]`);
/// - `{foo,bar}` one of the comma-separated strings (taken literally; empty alternatives allowed);
/// - every other character itself.
/// None of them crosses a "/". As in OSC 1.1, an empty part ("//") matches any number of address parts,
/// including none: `//level` matches `/level` and `/jacktap/in_1/level`.
///
/// Characters are Unicode scalars. Matching is polynomial in the lengths (no backtracking), so a
/// hostile pattern from the network cannot stall a receiver.
public struct OSCAddressPattern: Sendable, Equatable {
    /// The pattern as given.
    public let pattern: String
    /// Whether the pattern has no wildcards, so it matches only the identical address.
    public let isLiteral: Bool
    /// The parsed parts, in order.
    private let parts: [Part]

    /// One "/"-separated part of the pattern.
    enum Part: Sendable, Equatable {
        /// An empty part ("//"): zero or more address parts.
        case descendants
        /// A part matched character by character.
        case tokens([Token])
    }

    /// One element of a part.
    enum Token: Sendable, Equatable {
        case scalar(Unicode.Scalar)
        case anyOne
        case anyRun
        case set(negated: Bool, ranges: [ClosedRange<UInt32>])
        case alternatives([[Unicode.Scalar]])
    }

    /// Parses `pattern`; throws if it does not start with "/", ends with "/", or has unbalanced
    /// brackets or braces.
    public init(_ pattern: String) throws(OSCAddressPatternError) {
        let scalars = Array(pattern.unicodeScalars)
        guard scalars.first == "/" else { throw .notStartingWithSlash(pattern: pattern) }
        var parts: [Part] = []
        var tokens: [Token] = []
        var isLiteral = true
        var index = 1
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "/":
                parts.append(tokens.isEmpty ? .descendants : .tokens(tokens))
                if tokens.isEmpty { isLiteral = false }
                tokens = []
                index += 1
            case "?":
                tokens.append(.anyOne)
                isLiteral = false
                index += 1
            case "*":
                // "**" means the same as "*".
                if tokens.last != .anyRun { tokens.append(.anyRun) }
                isLiteral = false
                index += 1
            case "[":
                let close = try Self.closing("]", in: scalars, after: index, pattern: pattern)
                tokens.append(try Self.characterSet(scalars[(index + 1)..<close], at: index, pattern: pattern))
                isLiteral = false
                index = close + 1
            case "{":
                let close = try Self.closing("}", in: scalars, after: index, pattern: pattern)
                let alternatives = scalars[(index + 1)..<close].split(separator: ",", omittingEmptySubsequences: false)
                tokens.append(.alternatives(alternatives.map(Array.init)))
                isLiteral = false
                index = close + 1
            case "]", "}":
                throw .unexpectedClosing(pattern: pattern, offset: index)
            default:
                tokens.append(.scalar(scalar))
                index += 1
            }
        }
        guard !tokens.isEmpty else { throw .emptyLastPart(pattern: pattern) }
        parts.append(.tokens(tokens))
        self.pattern = pattern
        self.parts = parts
        self.isLiteral = isLiteral
    }

    /// Whether `address` is one of the addresses this pattern names.
    public func matches(_ address: String) -> Bool {
        if isLiteral { return address == pattern }
        let scalars = Array(address.unicodeScalars)
        guard scalars.first == "/" else { return false }
        let addressParts = scalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        // reachable[j]: the pattern parts so far can consume exactly the first j address parts.
        var reachable = [Bool](repeating: false, count: addressParts.count + 1)
        reachable[0] = true
        for part in parts {
            var next = [Bool](repeating: false, count: reachable.count)
            switch part {
            case .descendants:
                if let first = reachable.firstIndex(of: true) {
                    for j in first..<next.count { next[j] = true }
                }
            case .tokens(let tokens):
                for j in 0..<addressParts.count where reachable[j] {
                    next[j + 1] = Self.part(tokens, matches: addressParts[j])
                }
            }
            guard next.contains(true) else { return false }
            reachable = next
        }
        return reachable[addressParts.count]
    }

    /// Whether one pattern part matches one address part: the set of positions in `text` reachable after
    /// each token is carried forward, which takes at most tokens × characters² steps.
    static func part(_ tokens: [Token], matches text: ArraySlice<Unicode.Scalar>) -> Bool {
        let text = Array(text)
        var reachable = [Bool](repeating: false, count: text.count + 1)
        reachable[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: reachable.count)
            if token == .anyRun {
                if let first = reachable.firstIndex(of: true) {
                    for position in first..<next.count { next[position] = true }
                }
            } else {
                for position in 0..<reachable.count where reachable[position] {
                    switch token {
                    case .scalar(let scalar):
                        if position < text.count, text[position] == scalar { next[position + 1] = true }
                    case .anyOne:
                        if position < text.count { next[position + 1] = true }
                    case .set(let negated, let ranges):
                        if position < text.count, ranges.contains(where: { $0.contains(text[position].value) }) != negated {
                            next[position + 1] = true
                        }
                    case .alternatives(let alternatives):
                        for alternative in alternatives
                        where text.count - position >= alternative.count
                            && text[position..<(position + alternative.count)].elementsEqual(alternative)
                        {
                            next[position + alternative.count] = true
                        }
                    case .anyRun:
                        break
                    }
                }
            }
            guard next.contains(true) else { return false }
            reachable = next
        }
        return reachable[text.count]
    }

    /// The index of the `closer` that ends the bracket or brace at `opening`, within the same part.
    private static func closing(
        _ closer: Unicode.Scalar, in scalars: [Unicode.Scalar], after opening: Int, pattern: String
    ) throws(OSCAddressPatternError) -> Int {
        var index = opening + 1
        while index < scalars.count, scalars[index] != "/" {
            if scalars[index] == closer { return index }
            if closer == "}", scalars[index] == "{" { throw .nestedBrace(pattern: pattern, offset: index) }
            index += 1
        }
        throw closer == "]" ? .unclosedBracket(pattern: pattern, offset: opening) : .unclosedBrace(pattern: pattern, offset: opening)
    }

    /// Parses the inside of `[...]`: an optional leading "!", then characters and "a-z" ranges.
    private static func characterSet(
        _ body: ArraySlice<Unicode.Scalar>, at offset: Int, pattern: String
    ) throws(OSCAddressPatternError) -> Token {
        let negated = body.first == "!"
        let members = Array(negated ? body.dropFirst() : body)
        guard !members.isEmpty else { throw .emptyCharacterClass(pattern: pattern, offset: offset) }
        var ranges: [ClosedRange<UInt32>] = []
        var index = 0
        while index < members.count {
            if index + 2 < members.count, members[index + 1] == "-" {
                let low = members[index].value
                let high = members[index + 2].value
                ranges.append(min(low, high)...max(low, high))
                index += 3
            } else {
                ranges.append(members[index].value...members[index].value)
                index += 1
            }
        }
        return .set(negated: negated, ranges: ranges)
    }
}
