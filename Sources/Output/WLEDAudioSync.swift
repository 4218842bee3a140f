import Analysis
import Foundation
import OSC

/// `--wled`: WLED's audio-reactive "V2" sync packet from jacktap's own analysis of one input, so every WLED
/// controller that receives audio sync follows jacktap's audio. The layout is the audio-reactive usermod's
/// `audioSyncPacket` (44 bytes, little-endian, packed as the ESP32 compiler lays it out):
///
/// | offset | bytes | field |
/// |---:|---:|---|
/// | 0 | 6 | header `00002` and a NUL |
/// | 6 | 2 | (gap) |
/// | 8 | 4 | sampleRaw, float, 0…255: the level without gain control |
/// | 12 | 4 | sampleSmth, float, 0…255: the level smoothed, with gain control |
/// | 16 | 1 | samplePeak: 1 when a beat (or, before the tracker locks, an onset) came since the last packet |
/// | 17 | 1 | frameCounter, counting packets, wrapping at 255 |
/// | 18 | 16 | fftResult: 16 GEQ bands, 0…255, low to high |
/// | 34 | 2 | (gap) |
/// | 36 | 4 | FFT_Magnitude, float: the loudest band's level, 0…255 |
/// | 40 | 4 | FFT_MajorPeak, float, Hz: the loudest band's centre (WLED takes 1…11025) |
///
/// One packet per tick (`--rate`, 30 a second by default; WLED's own senders send about every 20–25 ms, so
/// `--rate 50` matches them), to WLED's multicast group 239.0.0.1:11988 by default.
public final class WLEDAudioSync {
    public static let defaultGroup = "239.0.0.1"
    public static let defaultPort: UInt16 = 11988
    public static let packetSize = 44

    /// The input it follows (`--wled-source`), by name.
    public let source: String
    private let sender: UDPSender
    private var frameCounter: UInt8 = 0
    private var peakPending = false
    private var beatsSeen = false
    /// Gain control as WLED's senders do it: the level's envelope, falling slowly, sets the gain so that the
    /// envelope reads about 200 of 255; quiet passages come up, loud ones are not clipped.
    private var envelope: Float = 0
    private var smooth: Float = 0
    private var packet = [UInt8](repeating: 0, count: WLEDAudioSync.packetSize)
    /// Packets sent so far.
    public private(set) var sent = 0

    /// Sends to `destination` (a multicast group gets TTL 1: the local network only).
    public init(destination: OSCDestination, source: String) throws(OSCDestinationError) {
        self.source = source
        sender = try UDPSender(destinations: [destination])
    }

    /// A beat or an onset of the source input: the next packet's samplePeak. Onsets count only until the tracker
    /// has locked (then beats alone, so that the LEDs flash on the beat, not on every hi-hat).
    public func note(_ event: AnalysisEvent) {
        guard event.port == source else { return }
        switch event.kind {
        case .beat:
            beatsSeen = true
            peakPending = true
        case .onset where !beatsSeen:
            peakPending = true
        default:
            break
        }
    }

    /// One tick: the packet of the source input, sent.
    public func publish(_ snapshot: Snapshot) {
        guard let port = snapshot.ports.first(where: { $0.name == source }) else { return }
        Self.fill(&packet, port: port, peak: peakPending, frame: frameCounter, smooth: &smooth, envelope: &envelope)
        peakPending = false
        frameCounter &+= 1
        sender.send(packet)
        sent += 1
    }

    /// Writes the packet of `port` into `packet` (44 bytes).
    static func fill(_ packet: inout [UInt8], port: PortReading, peak: Bool, frame: UInt8, smooth: inout Float,
                     envelope: inout Float) {
        for (i, byte) in "00002".utf8.enumerated() { packet[i] = byte }
        packet[5] = 0
        packet[6] = 0
        packet[7] = 0
        let raw = min(max(port.level, 0), 1) * 255
        // Envelope: follows a rise at once, falls by WLED's "normal" decay (0.9994 a sample at its 10 kHz blocks
        // is about 0.2 of the level a second); the gain brings the envelope to 200, at most ×16.
        envelope = max(raw, envelope * 0.985)
        let gain = min(200 / max(envelope, 1), 16)
        smooth += (min(raw * gain, 255) - smooth) * 0.4
        put(raw, at: 8, in: &packet)
        put(smooth, at: 12, in: &packet)
        packet[16] = peak ? 1 : 0
        packet[17] = frame
        let bands = geqBands(port.bands)
        for i in 0..<16 { packet[18 + i] = bands[i] }
        packet[34] = 0
        packet[35] = 0
        let loudest = port.bands.indices.max { port.bands[$0] < port.bands[$1] }
        put(loudest.map { port.bands[$0] * 255 } ?? 0, at: 36, in: &packet)
        put(Float(loudest.map { centre(band: $0, of: port.bands.count) } ?? 0), at: 40, in: &packet)
    }

    /// jacktap's log-spaced bands (`--bands`, 48 from 60 Hz to 18 kHz) folded into WLED's 16 GEQ channels, low to
    /// high: each channel the loudest of the bands it covers, 0…255.
    static func geqBands(_ bands: [Float]) -> [UInt8] {
        (0..<16).map { channel in
            guard !bands.isEmpty else { return 0 }
            let from = channel * bands.count / 16, to = max((channel + 1) * bands.count / 16, from + 1)
            let value = bands[min(from, bands.count - 1)..<min(to, bands.count)].max() ?? 0
            return UInt8(min(max(value, 0), 1) * 255)
        }
    }

    /// The centre frequency (Hz, geometric) of band `index` of `count` log-spaced bands from 60 Hz to 18 kHz,
    /// clamped to WLED's 1…11025.
    static func centre(band index: Int, of count: Int) -> Double {
        let ratio = 18_000.0 / 60
        let centre = 60 * pow(ratio, (Double(index) + 0.5) / Double(count))
        return min(max(centre, 1), 11_025)
    }

    private static func put(_ value: Float, at offset: Int, in packet: inout [UInt8]) {
        let bits = value.bitPattern.littleEndian
        for i in 0..<4 { packet[offset + i] = UInt8((bits >> (8 * UInt32(i))) & 0xFF) }
    }
}
