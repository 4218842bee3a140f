/// Bytes from hex text as printed in a specification ("2f 6f 73 63 …"); spaces and newlines are ignored.
func bytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd number of hex digits")
    var result: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        result.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return result
}
