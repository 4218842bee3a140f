import Schema
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Analysis
import DSP
import Synchronization

/// The live terminal view: one meter line per port (jack_meter's bar mode, with colours and a peak-hold mark,
/// then a 30 s level history and the tempo with a beat mark and the bar position), the spectrum of one selected
/// port (cava's bars), and a key help line.
///
/// Each frame is drawn over the previous one in place (cursor home, clear to end of each line, clear below)
/// instead of clearing the screen, so nothing flickers at 30 frames a second.
///
/// `Sendable`, checked by the compiler: the selection is an `Atomic` because the main thread moves it on a key
/// press while the analysis thread renders. Everything else is immutable; the peak-hold marks are the
/// engine's (`PortReading.meters.holdDB`).
public final class TerminalView: Sendable {
    /// What a key press asks the view (or the program) to do.
    public enum Key: Sendable, Equatable {
        /// Show the next port's spectrum.
        case next
        /// Show the previous port's spectrum.
        case previous
        /// Forget every peak-hold mark.
        case resetHolds
        /// Pause every loudness programme's integration, or resume it when paused (EBU Tech 3341).
        case pauseLoudness
        /// Leave jacktap.
        case quit
    }

    /// Switches to the alternate screen (`ESC[?1049h`, so the shell's scrollback survives) and hides the cursor.
    public static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
    /// Shows the cursor again and leaves the alternate screen; write it on every way out, signals included.
    public static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"

    /// The level at the left end of the bars, dBFS (jack_meter's scale).
    static let scaleFloorDB: Float = -60
    /// Rows of the spectrum; with eighth blocks that is 64 steps, finer than the bands' 80 dB range needs.
    static let spectrumRows = 8

    /// The heading and the status line (set by the main thread: the rate and period change, the server comes
    /// and goes) and each port's source label ("Drums L (player:out_1)"), read by `render`.
    private let header: Mutex<(title: String, status: String, sources: [String: String])>
    private let fixedColumns: Int?
    private let bandRange: ClosedRange<Double>
    private let colour: Bool
    /// The selected port's index, written by the main thread, read by `render`. Relaxed ordering is enough:
    /// no other data is published with it.
    private let selection = Atomic<Int>(0)
    /// The port count of the last frame, so the selection can wrap without the main thread seeing a snapshot.
    private let portCount = Atomic<Int>(0)
    /// Each port's level history and latest beat (port name → timeline), kept by the analysis thread.
    private let timelines = Mutex<[String: PortTimeline]>([:])
    /// Each programme's alarms that are on (`--alarms`), shown on its loudness line.
    private let alarms = Mutex<[String: Set<String>]>([:])

    /// A view headed by `title` (client name, rate, OSC destinations: the caller builds it).
    ///
    /// - Parameters:
    ///   - columns: the width to draw in; nil reads the terminal's width (`TIOCGWINSZ` on standard output) at
    ///     every frame, so a resized window is followed, with 80 when standard output is not a terminal.
    ///   - bandRange: the Hz the bands span, for the spectrum's label (`AnalysisConfig`'s defaults).
    ///   - colour: ANSI colours; nil colours unless `NO_COLOR` is set (the no-color.org convention).
    public init(title: String, columns: Int? = nil, bandRange: ClosedRange<Double> = 60...18_000, colour: Bool? = nil) {
        header = Mutex((title: title, status: "", sources: [:]))
        self.fixedColumns = columns
        self.bandRange = bandRange
        self.colour = colour ?? !TerminalView.noColourRequested()
    }

    /// Replaces the heading and the status line (JACK state, xruns, overruns).
    public func setHeader(title: String, status: String) {
        header.withLock { $0.title = title; $0.status = status }
    }

    /// Names each port's source, shown above its spectrum (port name → label).
    public func setSources(_ labels: [String: String]) {
        header.withLock { $0.sources = labels }
    }

    /// Takes in an event of the analysis: a beat sets its port's beat mark and bar position.
    public func note(_ event: AnalysisEvent) {
        switch event.kind {
        case .beat(_, _, let bar): timelines.withLock { $0[event.port, default: PortTimeline()].beat(bar) }
        case .alarm(let kind, let on):
            alarms.withLock { alarms in
                if on { alarms[event.port, default: []].insert(kind.rawValue) } else { alarms[event.port]?.remove(kind.rawValue) }
            }
        case .onset: break
        }
    }

    /// The port whose spectrum is shown, an index into the snapshot's ports.
    public var selectedPort: Int {
        get { Self.wrapped(selection.load(ordering: .relaxed), count: portCount.load(ordering: .relaxed)) }
        set { selection.store(newValue, ordering: .relaxed) }
    }

    /// Selects the next port, wrapping to the first.
    public func selectNextPort() { moveSelection(by: 1) }

    /// Selects the previous port, wrapping to the last.
    public func selectPreviousPort() { moveSelection(by: -1) }

    /// The key that `bytes` (what one `read` of a raw-mode terminal returned) stands for, or nil.
    ///
    /// Arrows come as `ESC [ C`/`ESC [ D`, or `ESC O C`/`ESC O D` when the terminal is in application cursor
    /// mode; shift-tab is `ESC [ Z` (ECMA-48 CBT). Ctrl-C arrives as byte 3 because raw mode turns off ISIG.
    public static func handleKey(bytes: [UInt8]) -> Key? {
        switch bytes {
        case [0x1B, 0x5B, 0x43], [0x1B, 0x4F, 0x43], [0x09]: .next
        case [0x1B, 0x5B, 0x44], [0x1B, 0x4F, 0x44], [0x1B, 0x5B, 0x5A]: .previous
        case [UInt8(ascii: "r")]: .resetHolds
        case [UInt8(ascii: "p")]: .pauseLoudness
        case [UInt8(ascii: "q")], [UInt8(ascii: "Q")], [0x03]: .quit
        default: nil
        }
    }

    /// One whole frame for `snapshot`, to be written to the terminal in one go.
    ///
    /// Starts with cursor home (`ESC[H`), ends every line with clear-to-end (`ESC[K`) and the frame with
    /// clear-below (`ESC[J`). No line is wider than the terminal less one column: writing the last column
    /// leaves the cursor on it (VT100 pending wrap), and the `ESC[K` that follows would erase that character.
    public func render(_ snapshot: Snapshot) -> String {
        let width = max((fixedColumns ?? Self.terminalColumns()) - 1, 1)
        let ports = snapshot.ports
        portCount.store(ports.count, ordering: .relaxed)
        // The engine's peak hold (`--hold`, `--fall`; reset with everything else); no mark without it.
        let marks = ports.map { $0.meters.holdDB ?? Decibels.floor }
        let selected = Self.wrapped(selection.load(ordering: .relaxed), count: ports.count)

        let (title, status, sources) = header.withLock { ($0.title, $0.status, $0.sources) }
        var lines = [colour ? "\u{1B}[1m\(title)\u{1B}[0m" : title]
        if !status.isEmpty { lines.append(status) }
        if ports.isEmpty {
            lines.append("no ports")
        } else {
            let nameWidth = min(max(ports.map(\.name.count).max() ?? 0, 4), 16)
            // The level histories and beat marks, and whether any port has a tempo to show (a column for all).
            let columns = timelines.withLock { timelines in
                ports.map { port -> (tempo: String, history: String, rhythm: Bool) in
                    var timeline = timelines[port.name, default: PortTimeline()]
                    timeline.add(time: snapshot.time, rmsDB: port.rmsDB)
                    let mark = timeline.takeBeatMark()
                    timelines[port.name] = timeline
                    return (PortTimeline.tempoField(tempo: port.tempo, beatMark: mark, bar: timeline.bar),
                            PortTimeline.sparkline(timeline.levels, now: snapshot.time),
                            port.tempo != nil || timeline.bar != nil)
                }
            }
            let showTempo = columns.contains { $0.rhythm }
            for (index, port) in ports.enumerated() {
                let extra = " " + columns[index].history + (showTempo ? " " + columns[index].tempo : "")
                lines.append(meterLine(port, hold: marks[index], nameWidth: nameWidth, width: width,
                                       selected: index == selected, extra: extra))
            }
        }
        let alarmsOn = alarms.withLock { $0 }
        lines += snapshot.programmes.map { Self.loudnessLine($0, alarms: alarmsOn[$0.name, default: []].sorted()) }
        lines += snapshot.pairs.map { String(format: "%@  correlation %+.2f", $0.name, $0.correlation) }
        lines.append("")
        if !ports.isEmpty {
            if let source = sources[ports[selected].name] { lines.append("\(ports[selected].name) ← \(source)") }
            lines += spectrumLines(ports[selected], width: width)
        }
        let overruns = snapshot.overruns > 0 ? "   overruns: \(snapshot.overruns)" : ""
        lines.append("←/→ or Tab: port   r: reset holds, loudness, maxima   p: pause/resume loudness   q: quit" + overruns)

        var frame = "\u{1B}[H"
        for line in lines {
            frame += Self.fit(line, to: width) + "\u{1B}[K\n"
        }
        return frame + "\u{1B}[J"
    }

    /// A meter bar of `width` cells over -60…0 dBFS: filled up to `levelDB`, with a mark in the cell of
    /// `holdDB`, each cell coloured by the dB it stands for (green below -18, yellow to -6, red above), as the
    /// LEDs of a hardware meter are.
    static func bar(levelDB: Float, holdDB: Float, width: Int, colour: Bool) -> String {
        let filled = cells(for: levelDB, width: width)
        let holdCells = cells(for: holdDB, width: width)
        // The mark is the top cell the held peak would light, so a bar at the held level ends under it.
        let mark = holdCells > 0 ? holdCells - 1 : -1
        var text = ""
        var current: MeterZone?
        for cell in 0..<max(width, 0) {
            let glyph = cell == mark ? "│" : cell < filled ? "█" : " "
            if colour, glyph != " " {
                let zone = MeterZone(dB: scaleFloorDB - scaleFloorDB * (Float(cell) + 0.5) / Float(width))
                if zone != current {
                    text += zone.sgr
                    current = zone
                }
            }
            text += glyph
        }
        return current == nil ? text : text + "\u{1B}[0m"
    }

    /// How many of `width` cells a level of `db` lights: cell i lights once the level reaches its top edge.
    static func cells(for db: Float, width: Int) -> Int {
        guard width > 0, !db.isNaN else { return 0 }
        let fraction = (min(db, 0) - scaleFloorDB) / -scaleFloorDB
        // The small bias keeps -30 dB at exactly 30 of 60 cells despite float rounding.
        return min(max(Int((fraction * Float(width) + 1e-3).rounded(.down)), 0), width)
    }

    private func meterLine(_ port: PortReading, hold: Float, nameWidth: Int, width: Int, selected: Bool,
                           extra: String) -> String {
        let name = Self.padded(String(port.name.prefix(nameWidth)), to: nameWidth)
        let peak = Self.padded(Self.decibels(port.peakDB), to: 6, alignRight: true)
        let rms = Self.padded(Self.decibels(port.rmsDB), to: 6, alignRight: true)
        let note = port.note.map(Self.noteText) ?? "—"
        let truePeak = port.meters.truePeakDB.map { " TP" + Self.padded(Self.decibels($0), to: 6, alignRight: true) } ?? ""
        // Selection mark, name, spaces, two numbers, the true peak, a note of up to 8 characters ("C#4 -12c"),
        // then the level history and the tempo field (`extra`).
        let noteField = Self.padded(note, to: 8)
        let barWidth = max(width - nameWidth - 26 - truePeak.count - extra.count, 10)
        let bar = Self.bar(levelDB: port.rmsDB, holdDB: hold, width: barWidth, colour: colour)
        return "\(selected ? "▸" : " ")\(name) \(bar) \(peak) \(rms)\(truePeak)  \(noteField)\(extra)"
    }

    /// A programme's loudness (EBU R128): momentary, short-term, integrated, range and the maxima, each under the
    /// label the schema gives it (`M`, `S`, `I`, `LRA`, `max M`, `max S`).
    static func loudnessLine(_ p: ProgrammeReading, alarms: [String] = []) -> String {
        typealias F = FigureSchema
        func lufs(_ v: Float) -> String { v <= Decibels.floor ? "  —  " : String(format: "%5.1f", v) }
        return "\(p.name)  \(F.momentary.label) \(lufs(p.momentary))  \(F.shortTerm.label) \(lufs(p.shortTerm))  "
            + "\(F.integrated.label) \(lufs(p.integrated)) \(F.integrated.unit)  "
            + String(format: "%@ %4.1f %@", F.loudnessRange.label, p.range, F.loudnessRange.unit)
            + "  \(F.maxMomentary.label) \(lufs(p.maxMomentary))  \(F.maxShortTerm.label) \(lufs(p.maxShortTerm))"
            + (p.paused ? "  " + F.paused.label.uppercased() : "")
            + (alarms.isEmpty ? "" : "  ALARM " + alarms.joined(separator: " "))
    }

    private func spectrumLines(_ port: PortReading, width: Int) -> [String] {
        let label = "spectrum: \(port.name)  \(Self.hertz(bandRange.lowerBound)) … "
            + Self.hertz(bandRange.upperBound)
        let columns = Self.spectrumColumns(port.bands, width: width)
        let rows = (0..<Self.spectrumRows).map { row in
            String(columns.map { Self.spectrumGlyph($0, row: row) })
        }
        return [label] + rows
    }

    /// The value of each screen column: two columns per band when they fit, else one, else (narrower than the
    /// band count) the loudest of the bands a column covers, so no peak disappears.
    static func spectrumColumns(_ bands: [Float], width: Int) -> [Float] {
        let count = bands.count
        guard count > 0, width > 0 else { return [] }
        if width >= 2 * count { return bands.flatMap { [$0, $0] } }
        if width >= count { return bands }
        return (0..<width).map { column in
            bands[(column * count / width)..<((column + 1) * count / width)].max() ?? 0
        }
    }

    /// The eighth block for `value` (0…1) in `row` (0 at the top) of the spectrum.
    static func spectrumGlyph(_ value: Float, row: Int) -> Character {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let clamped = value.isNaN ? 0 : min(max(value, 0), 1)
        let eighths = Int((clamped * Float(8 * spectrumRows)).rounded())
        let inRow = min(max(eighths - (spectrumRows - 1 - row) * 8, 0), 8)
        return inRow == 0 ? " " : blocks[inRow - 1]
    }

    private func moveSelection(by step: Int) {
        let count = portCount.load(ordering: .relaxed)
        guard count > 0 else { return }
        var current = selection.load(ordering: .relaxed)
        while true {
            let next = Self.wrapped(current + step, count: count)
            let (exchanged, original) = selection.compareExchange(expected: current, desired: next,
                                                                  ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    private static func wrapped(_ index: Int, count: Int) -> Int {
        count > 0 ? ((index % count) + count) % count : 0
    }
}

/// The colour zones of a meter bar, with the SGR that draws them.
enum MeterZone: Equatable {
    case green, yellow, red

    /// The zone of a cell standing for `dB`: the -18 and -6 dBFS boundaries of the common digital meter
    /// (-18 dBFS is the EBU R68 alignment level; above -6 dBFS there is little headroom left).
    init(dB: Float) {
        self = dB < -18 ? .green : dB <= -6 ? .yellow : .red
    }

    /// SGR foreground: 32 green, 33 yellow, 31 red.
    var sgr: String {
        switch self {
        case .green: "\u{1B}[32m"
        case .yellow: "\u{1B}[33m"
        case .red: "\u{1B}[31m"
        }
    }
}

// Text layout: widths count visible characters, never the bytes of escape sequences.
extension TerminalView {
    /// `line` cut to `width` visible characters. Escape sequences are all kept, even past the cut, so a colour
    /// reset at the end of a truncated line still arrives.
    static func fit(_ line: String, to width: Int) -> String {
        var result = ""
        var visible = 0
        var escape = EscapeState.text
        for character in line {
            switch escape {
            case .text where character == "\u{1B}":
                escape = .started
                result.append(character)
            case .text:
                if visible < width { result.append(character) }
                visible += 1
            case .started:
                // ESC [ opens a control sequence; any other byte after ESC ends a two-byte escape.
                escape = character == "[" ? .controlSequence : .text
                result.append(character)
            case .controlSequence:
                // A control sequence ends at its final byte, 0x40…0x7E (ECMA-48 5.4).
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii) { escape = .text }
                result.append(character)
            }
        }
        return result
    }

    private enum EscapeState { case text, started, controlSequence }

    /// `text` filled with spaces to `width` characters.
    static func padded(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(width - text.count, 0))
        return alignRight ? fill + text : text + fill
    }

    /// dBFS with one decimal, as `jack_meter -n` prints it: "-6.0", and "-inf" for the -200 floor (silence).
    static func decibels(_ db: Float) -> String {
        guard db > Decibels.floor else { return "-inf" }  // also NaN, which compares false
        guard db.isFinite else { return "+inf" }
        let tenths = Int((Double(db) * 10).rounded())
        let magnitude = abs(tenths)
        return "\(tenths < 0 ? "-" : "")\(magnitude / 10).\(magnitude % 10)"
    }

    /// "A4 +3c": the note and its whole cents off, signed.
    static func noteText(_ note: MusicalNote) -> String {
        let cents = Int(note.cents.rounded())
        return "\(note.name) \(cents < 0 ? "-" : "+")\(abs(cents))c"
    }

    /// "60 Hz", "1.5 kHz", "18 kHz".
    static func hertz(_ hz: Double) -> String {
        guard hz >= 1000 else { return "\(Int(hz.rounded())) Hz" }
        let tenths = Int((hz / 100).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) kHz" : "\(tenths / 10).\(tenths % 10) kHz"
    }
}

// The C library calls of the view, each made in this one place.
extension TerminalView {
    /// The width of the terminal on standard output (`ioctl(1, TIOCGWINSZ)`), or 80 when it is not a terminal
    /// (output piped to a file) or reports no width (some serial consoles say 0).
    private static func terminalColumns() -> Int {
        var size = winsize()
        let result = withUnsafeMutablePointer(to: &size) { ioctl(1, UInt(TIOCGWINSZ), $0) }
        return result == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// Whether `NO_COLOR` is set to a non-empty value (no-color.org).
    fileprivate static func noColourRequested() -> Bool {
        guard let value = getenv("NO_COLOR") else { return false }
        return value.pointee != 0
    }
}
