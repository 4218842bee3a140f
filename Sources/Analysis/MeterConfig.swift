import DSP

/// Which broadcast meters run, and their settings (`--meters`, `--program`, `--pair`, …).
public struct MeterConfig: Sendable, Equatable {
    /// A meter that `--meters` can choose.
    public enum Meter: String, CaseIterable, Sendable {
        case truePeak = "truepeak", vu, ppm, k, hold, clip, loudness, correlation
    }

    /// PPM type (IEC 60268-10).
    public enum PPMType: String, Sendable {
        /// Type I, DIN 45406.
        case typeI = "I"
        /// Type II, BBC / EBU.
        case typeII = "II"
    }

    /// A loudness programme: a group of ports with BS.1770 channel roles.
    public struct Programme: Sendable, Equatable {
        /// Its name, the OSC path part (`/jacktap/<name>/loudness/…`).
        public var name: String
        /// Port indices and their roles.
        public var members: [(port: Int, role: ChannelRole)]

        /// A programme of `members`.
        public init(name: String, members: [(port: Int, role: ChannelRole)]) {
            self.name = name
            self.members = members
        }

        public static func == (a: Programme, b: Programme) -> Bool {
            a.name == b.name && a.members.map(\.port) == b.members.map(\.port)
                && a.members.map(\.role) == b.members.map(\.role)
        }
    }

    /// A pair of ports whose stereo correlation is measured.
    public struct Pair: Sendable, Equatable {
        /// Its name, the OSC path part (`/jacktap/<name>/correlation`).
        public var name: String
        public var left: Int
        public var right: Int

        /// A pair named `name`.
        public init(name: String, left: Int, right: Int) {
            self.name = name
            self.left = left
            self.right = right
        }
    }

    /// The meters computed and sent.
    public var meters: Set<Meter> = Set(Meter.allCases)
    /// Loudness programmes; empty means one programme "main" of every port (roles by port count).
    public var programmes: [Programme] = []
    /// Correlation pairs.
    public var pairs: [Pair] = []
    /// Clip threshold, dBFS: samples at or above it clip.
    public var clipThresholdDB: Float = 0
    /// Peak hold: hold time, seconds, then fall rate, dB/s.
    public var holdSeconds = 1.5
    public var fallDBPerSecond = 20.0
    /// The PPM's type, and the level its 0 dB mark stands for (dBFS sine peak).
    public var ppmType = PPMType.typeII
    public var ppmReferenceDB: Float = -18
    /// The level 0 VU stands for (dBFS sine peak; EBU R68 alignment).
    public var vuReferenceDB: Float = -18
    /// K-system scale: 20, 14 or 12 (a sine at -K dBFS peak reads 0).
    public var kScale: Float = 20
    /// The programmes' alarms (`--alarms`); none by default.
    public var alarms = AlarmSettings(kinds: [])

    /// Every meter, one programme of all ports, no pairs.
    public init() {}

    /// The programme used when none is given: every port, with the roles BS.1770 assigns by channel count
    /// (2: L R; 5: L R C Ls Rs; 6: L R C LFE Ls Rs; otherwise weight 1.0 each).
    public static func defaultProgramme(portCount: Int) -> Programme {
        let roles: [ChannelRole]
        switch portCount {
        case 2: roles = [.left, .right]
        case 5: roles = [.left, .right, .centre, .leftSurround, .rightSurround]
        case 6: roles = [.left, .right, .centre, .lfe, .leftSurround, .rightSurround]
        default: roles = Array(repeating: .left, count: portCount)
        }
        return Programme(name: "main", members: roles.enumerated().map { (port: $0.offset, role: $0.element) })
    }
}
