import Testing
@testable import OSC

/// Address pattern matching as OSC 1.0 "OSC Message Dispatching and Pattern Matching" defines it, plus
/// the OSC 1.1 "//" path-traversing wildcard.
@Suite struct OSCAddressPatternTests {
    /// Pattern, address, whether the address is matched.
    static let table: [(String, String, Bool)] = [
        // Literal parts match only themselves, part by part.
        ("/jacktap/level", "/jacktap/level", true),
        ("/jacktap/level", "/jacktap/levels", false),
        ("/jacktap/level", "/jacktap", false),
        ("/jacktap/level", "jacktap/level", false),
        // "?" matches any single character, never "/" and never nothing.
        ("/a?c", "/abc", true),
        ("/a?c", "/ac", false),
        ("/a?c", "/a/c", false),
        ("/???", "/é♪x", true),
        // "*" matches any sequence of zero or more characters within one part.
        ("/*", "/anything", true),
        ("/*", "/", true),
        ("/*", "/a/b", false),
        ("/a*", "/a", true),
        ("/*/level", "/in_1/level", true),
        ("/*/level", "/in_1/x/level", false),
        ("/a*b*c", "/aXXbYYc", true),
        ("/a*b*c", "/aXXbYY", false),
        ("/*a*a*a*a*a*a*a*a*a*b", "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false),
        ("/*in*", "/main", true),
        // "[...]": one character from the list; "-" between two characters is a range, first or last it is
        // literal; "!" first negates.
        ("/in_[12]", "/in_1", true),
        ("/in_[12]", "/in_3", false),
        ("/in_[1-4]", "/in_3", true),
        ("/in_[1-4]", "/in_5", false),
        ("/in_[!1-4]", "/in_5", true),
        ("/in_[!1-4]", "/in_2", false),
        ("/x[a-]", "/x-", true),
        ("/x[-a]", "/x-", true),
        ("/x[a-]", "/xb", false),
        ("/x[a!]", "/x!", true),
        ("/x[z-a]", "/xm", true),
        ("/x[a-cx-z]", "/xy", true),
        ("/x[a-cx-z]", "/xm", false),
        ("/x[!a]", "/x", false),
        // "{foo,bar}": one of the comma-separated strings.
        ("/{peak,rms}", "/peak", true),
        ("/{peak,rms}", "/rms", true),
        ("/{peak,rms}", "/level", false),
        ("/{peak,rms}", "/peakrms", false),
        ("/a{,b}", "/a", true),
        ("/a{,b}", "/ab", true),
        ("/{a,ab}b", "/abb", true),
        ("/{a,ab}b", "/ab", true),
        ("/*/{peak,rms}/[0-9]", "/in_1/rms/7", true),
        // "//" (OSC 1.1) matches any number of whole parts, including none.
        ("//level", "/level", true),
        ("//level", "/jacktap/in_1/level", true),
        ("//level", "/jacktap/in_1/levels", false),
        ("/jacktap//level", "/jacktap/level", true),
        ("/jacktap//level", "/jacktap/a/b/c/level", true),
        ("/jacktap//level", "/other/a/level", false),
        ("//in_?//rms", "/x/in_1/y/z/rms", true),
    ]

    @Test(arguments: table)
    func patternMatchesTheAddressesTheSpecificationSays(pattern: String, address: String, matches: Bool) throws {
        #expect(try OSCAddressPattern(pattern).matches(address) == matches)
    }

    @Test func patternWithoutWildcardsIsLiteral() throws {
        #expect(try OSCAddressPattern("/jacktap/in_1/level").isLiteral)
        #expect(try !OSCAddressPattern("/jacktap/*/level").isLiteral)
        #expect(try !OSCAddressPattern("//level").isLiteral)
    }

    static let invalid: [(String, OSCAddressPatternError)] = [
        ("", .notStartingWithSlash(pattern: "")),
        ("level", .notStartingWithSlash(pattern: "level")),
        ("/", .emptyLastPart(pattern: "/")),
        ("/a/", .emptyLastPart(pattern: "/a/")),
        ("/a[bc", .unclosedBracket(pattern: "/a[bc", offset: 2)),
        ("/a[b/c]", .unclosedBracket(pattern: "/a[b/c]", offset: 2)),
        ("/a{b,c", .unclosedBrace(pattern: "/a{b,c", offset: 2)),
        ("/a{b/c}", .unclosedBrace(pattern: "/a{b/c}", offset: 2)),
        ("/a{b{c}}", .nestedBrace(pattern: "/a{b{c}}", offset: 4)),
        ("/a]", .unexpectedClosing(pattern: "/a]", offset: 2)),
        ("/a}", .unexpectedClosing(pattern: "/a}", offset: 2)),
        ("/a[]", .emptyCharacterClass(pattern: "/a[]", offset: 2)),
        ("/a[!]", .emptyCharacterClass(pattern: "/a[!]", offset: 2)),
    ]

    @Test(arguments: invalid)
    func malformedPatternThrowsTheReason(pattern: String, expected: OSCAddressPatternError) {
        #expect(throws: expected) { try OSCAddressPattern(pattern) }
    }

    @Test func errorDescriptionNamesThePatternAndPosition() {
        #expect(
            OSCAddressPatternError.unclosedBracket(pattern: "/a[bc", offset: 2).description
                == "'/a[bc': '[' at 2 is not closed by ']' in its part")
    }
}
