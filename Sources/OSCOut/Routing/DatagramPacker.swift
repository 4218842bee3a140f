/// Groups a tick's messages into datagrams no larger than a destination's limit.
///
/// A bundle costs 16 bytes ("#bundle\0" and the 8-byte timetag) plus 4 per element (its size) on top of
/// the messages (OSC 1.0, "OSC Bundles"). Messages keep their order; each group is as long as fits.
public enum DatagramPacker {
    /// Bytes of a bundle before its first element.
    public static let bundleHeaderSize = 16
    /// Bytes before each element of a bundle.
    public static let elementHeaderSize = 4

    /// Consecutive ranges of `sizes` (encoded message sizes) such that each range's bundle is at most
    /// `maxSize` bytes. A message whose bundle alone exceeds `maxSize` gets a range of its own.
    public static func bundleGroups(sizes: [Int], maxSize: Int) -> [Range<Int>] {
        var groups = [Range<Int>]()
        var start = 0
        var total = bundleHeaderSize
        for (index, size) in sizes.enumerated() {
            let added = elementHeaderSize + size
            if index > start, total + added > maxSize {
                groups.append(start..<index)
                start = index
                total = bundleHeaderSize
            }
            total += added
        }
        if start < sizes.count { groups.append(start..<sizes.count) }
        return groups
    }

    /// The size of a bundle holding messages of `sizes`.
    public static func bundleSize(_ sizes: some Collection<Int>) -> Int {
        bundleHeaderSize + sizes.reduce(0) { $0 + elementHeaderSize + $1 }
    }
}
