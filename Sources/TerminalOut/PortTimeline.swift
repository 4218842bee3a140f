import Analysis
import Foundation

/// What the terminal view remembers of one port between frames: its level over the last `historySeconds`
/// (drawn as a sparkline, a history strip in one line) and its latest beat (a beat mark on the frame after a
/// beat, and the beat's place in its bar).
struct PortTimeline: Sendable {
    /// The span of the sparkline, and its cells: 2.5 s of level each.
    static let historySeconds = 30.0
    static let historyCells = 12
    /// The sparkline's scale, dBFS: the meter bars' own.
    static let floorDB: Float = -60

    /// (snapshot time, RMS dBFS), oldest first, no older than `historySeconds`.
    private(set) var levels: [(time: Double, db: Float)] = []
    /// Beats since the last frame, and the latest beat's place: bar counter, beat in bar, beats per bar.
    private(set) var beatsSinceFrame = 0
    private(set) var bar: AnalysisEvent.BarPosition?

    mutating func add(time: Double, rmsDB: Float) {
        levels.append((time, rmsDB))
        let oldest = time - Self.historySeconds
        if let keep = levels.firstIndex(where: { $0.time > oldest }), keep > 0 { levels.removeFirst(keep) }
    }

    mutating func beat(_ position: AnalysisEvent.BarPosition) {
        beatsSinceFrame += 1
        bar = position
    }

    /// Takes the beat mark for one frame: whether a beat came since the last frame.
    mutating func takeBeatMark() -> Bool {
        defer { beatsSinceFrame = 0 }
        return beatsSinceFrame > 0
    }

    /// The last `historySeconds` before `now` in `historyCells` cells, oldest on the left: each cell the
    /// loudest level of its span on eighth blocks over -60…0 dBFS (▁ at the floor and below, █ at full
    /// scale), a space where there is no level yet.
    static func sparkline(_ levels: [(time: Double, db: Float)], now: Double) -> String {
        let span = historySeconds / Double(historyCells)
        var loudest = [Float?](repeating: nil, count: historyCells)
        for (time, db) in levels {
            let cell = Int(((time - (now - historySeconds)) / span).rounded(.down))
            guard (0..<historyCells).contains(cell) || (cell == historyCells && time <= now) else { continue }
            let index = min(cell, historyCells - 1)
            loudest[index] = max(loudest[index] ?? -.infinity, db)
        }
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return String(loudest.map { db -> Character in
            guard let db, !db.isNaN else { return " " }
            let fraction = (min(max(db, floorDB), 0) - floorDB) / -floorDB
            return blocks[min(Int(fraction * 8), 7)]
        })
    }

    /// The tempo field, 12 characters: "♩120.0 ● 3/4" (● on the frame after a beat, then the beat's place in
    /// its bar), "♩    —" while there is no tempo.
    static func tempoField(tempo: Float?, beatMark: Bool, bar: AnalysisEvent.BarPosition?) -> String {
        guard let tempo else { return "♩    —      " }
        let place = bar.map { "\($0.beat)/\($0.beatsPerBar)" } ?? "   "
        return "♩" + String(format: "%5.1f", tempo) + (beatMark ? " ● " : "   ") + place
    }
}
