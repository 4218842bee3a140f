import Foundation

/// The exact true peak of a file: the maximum of the band-limited signal its samples stand for (numpy's FFT
/// interpolation, 32x, through Tests/tools/band_limited_peak.py), with silence before and after it. A
/// reference for true-peak meters where a 4x meter's own under-read (up to 0.7 dB at 20 kHz, BS.1770-4
/// Annex 2) would hide whether a reading is right.
public enum BandLimitedPeak {
    struct Figures: Decodable {
        var true_peak_dbtp: [Double]
    }

    /// The true peak of each channel of `path`, in dBTP.
    public static func measure(_ path: String) throws -> [Double] {
        let output = try Tool.run("python3", [Tool.repositoryPath("Tests/tools/band_limited_peak.py"), path])
        return try JSONDecoder().decode(Figures.self, from: Data(output.utf8)).true_peak_dbtp
    }
}
