import DSP

/// Finding source ports by name: glob matching for `--connect`, and the nearest names for a typo.
public enum PortMatching {
    /// The ports among `ports` that the shell-style `glob` matches (fnmatch: * ? [..]).
    public static func matching(_ glob: String, in ports: [String]) -> [String] {
        ports.filter { Glob.matches(glob, $0) }
    }

    /// Up to `limit` names from `ports` closest to `name` by edit distance, closest first.
    public static func nearest(to name: String, in ports: [String], limit: Int = 4) -> [String] {
        let target = Array(name.lowercased().utf8)
        return ports
            .map { (name: $0, distance: editDistance(target, Array($0.lowercased().utf8))) }
            .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
            .prefix(limit)
            .map(\.name)
    }

    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...max(b.count, 1) where j <= b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
