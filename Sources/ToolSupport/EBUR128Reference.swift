import Foundation

/// libebur128 (Debian's libebur128-dev) through the harness Benchmarks/c-reference/ebur128_reference.c,
/// built once per test process with gcc: the reference figures for loudness and true peak.
public enum EBUR128Reference {
    /// What the harness prints for one file.
    public struct Figures: Decodable {
        public var integrated: Double
        public var range: Double
        /// Tech 3342's range on short-term values every 100 ms (libebur128's own `range` takes one a second).
        public var range_10hz: Double
        public var max_momentary: Double
        public var max_shortterm: Double
        public var true_peak_dbtp: [Double]
        public var sample_peak_dbfs: [Double]
        /// CPU seconds spent in libebur128.
        public var seconds: Double
    }

    nonisolated(unsafe) static var built: String?

    /// The harness binary, compiled on first use.
    public static func harness() throws -> String {
        if let built { return built }
        let binary = Tool.temporaryPath("ebur128_reference")
        try Tool.run("gcc", ["-O2", Tool.repositoryPath("Benchmarks/c-reference/ebur128_reference.c"),
                             "-lebur128", "-lsndfile", "-lm", "-o", binary])
        built = binary
        return binary
    }

    /// libebur128's figures for `path`, evaluating momentary and short-term every `step` frames.
    public static func measure(_ path: String, step: Int) throws -> Figures {
        let output = try Tool.run(try harness(), [path, "--step", String(step)])
        return try JSONDecoder().decode(Figures.self, from: Data(output.utf8))
    }
}
