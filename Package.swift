// swift-tools-version: 6.1
import PackageDescription

// Module boundaries (see README "Layout"): DSP never imports JACK; Analysis adds FFTW; OSC knows nothing of
// audio; JackHost is the only module that imports CJack; the jacktap executable only wires parts together.
let package = Package(
    name: "jacktap",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "jacktap", targets: ["jacktap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `--config FILE`: a rig's routing as one YAML file (Sources/jacktap/ConfigFile.swift).
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // `--http`: the meter bridge's HTTP and WebSocket server, Hummingbird on SwiftNIO (see README, "Meter
        // bridge", for why not FlyingFox, which builds in 14 s where this takes 108 s).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .target(name: "DSP"),
        // The learned beat activation's weights ship as a resource (eval/train-beat-network writes them).
        .target(name: "Analysis", dependencies: ["DSP", "CFFTW", "Schema"], resources: [.copy("Rhythm/beat-activation.jtnn")]),
        .target(name: "OSC", dependencies: ["Spawn"]),
        .target(name: "Spawn"),
        .target(name: "AudioFile", dependencies: ["CSndfile", "DSP"]),
        // Every figure jacktap publishes, declared once as data; the outputs and the docs derive from it.
        .target(name: "Schema"),
        // `GET /metrics`: the Prometheus exposition derived from the schema; see Sources/PrometheusExport.
        .target(name: "PrometheusExport", dependencies: ["Analysis", "Schema"]),
        // `--loudness-log DIR` and `analyze --report`: per-second logs and reports of each programme; see Sources/LoudnessLog.
        .target(name: "LoudnessLog", dependencies: ["Analysis"]),
        // What jacktap sends, by what it is: OSC out (the publisher, each destination's route, TCP streams, the newest
        // figures), JSON lines, the terminal view; Output fans each tick and event out to all of them.
        .target(name: "OSCOut", dependencies: ["Analysis", "OSC", "Schema", "Spawn"]),
        .target(name: "JSONOut", dependencies: ["Analysis", "OSC", "Schema", "Spawn"]),
        .target(name: "TerminalOut", dependencies: ["Analysis", "DSP", "Schema", "Spawn"]),
        .target(name: "Output", dependencies: [
            "Analysis", "JSONOut", "LoudnessLog", "OSC", "OSCOut", "PrometheusExport", "Schema", "Spawn", "TerminalOut",
        ]),
        // `--dmx`: mapped figures as DMX universes over sACN (E1.31) and Art-Net; see Sources/Lighting.
        .target(name: "Lighting", dependencies: [
            "OSC", "Output", "Schema", "Spawn", .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "JackHost", dependencies: ["CJack", "DSP", "Spawn"]),
        // `--listen`: OSC control input (subscribe, reset, connect, query); see Sources/Control.
        .target(name: "Control", dependencies: ["Analysis", "OSC", "OSCOut", "JackHost"]),
        // `--http`: the meter bridge, a page and a WebSocket stream of the `--json` lines; see Sources/MeterBridge.
        .target(name: "MeterBridge", dependencies: [
            "JSONOut", "OSC", "OSCOut", "PrometheusExport", "Schema",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        // `--oscquery`: multicast DNS service discovery, so OSCQuery clients find jacktap; see Sources/ServiceDiscovery.
        .target(name: "ServiceDiscovery", dependencies: ["Spawn"]),
        // NSM (New Session Manager) client: announce, open/save requests and replies; see Sources/Session.
        .target(name: "Session", dependencies: ["OSC"]),
        // `--link`: Ableton Link (Debian's header-only ableton-link-dev and libasio-dev) behind a C API of a few
        // functions, so no Swift module needs C++ interoperability; see Sources/CLink.
        .target(
            name: "CLink",
            cxxSettings: [.define("LINK_PLATFORM_LINUX", to: "1")],
            linkerSettings: [.linkedLibrary("pthread")]
        ),
        // Tempo sync: MIDI beat clock, MIDI notes, Ableton Link and OS2L, each a TempoConsumer the analysis loop
        // drives after every poll; see Sources/Sync.
        .target(name: "Sync", dependencies: ["Analysis", "DSP", "OSCOut", "Spawn", "CLink"]),
        // The live runtime: the session and its reconnects, the parts that outlive each opening of the JACK client,
        // the analysis loop and the main loop's controls; the executable parses options and wires; see Sources/Live.
        .target(name: "Live", dependencies: [
            "Analysis", "Control", "DSP", "JackHost", "JSONOut", "Lighting", "LoudnessLog", "MeterBridge", "OSC",
            "OSCOut", "Output", "PrometheusExport", "ServiceDiscovery", "Spawn", "Sync", "TerminalOut",
        ]),
        .executableTarget(
            name: "jacktap",
            dependencies: [
                "DSP", "Analysis", "OSC", "OSCOut", "JSONOut", "Output", "JackHost", "AudioFile", "Spawn", "Control", "Session", "CLink", "MeterBridge", "LoudnessLog", "PrometheusExport", "Schema", "ServiceDiscovery", "Sync", "Lighting", "Live",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // `make bench`: the tap and analysis benchmarks (Benchmarks/run sets them beside a C reference).
        .executableTarget(name: "jacktap-bench", dependencies: ["DSP", "Analysis", "JSONOut", "LoudnessLog", "OSC", "OSCOut", "PrometheusExport"], path: "Benchmarks/Sources/jacktap-bench"),
        // Test-only: counts heap allocations made on the calling thread (see Sources/TestSupport).
        .target(name: "TestSupport"),
        // Test-only: starts private JACK servers (jack/private-server) and runs reference tools.
        .target(name: "ToolSupport", dependencies: ["Spawn"]),
        .testTarget(name: "DSPTests", dependencies: ["DSP", "TestSupport", "ToolSupport"]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "DSP", "AudioFile", "ToolSupport", "TestSupport"]),
        .testTarget(name: "OSCTests", dependencies: ["OSC", "ToolSupport"]),
        .testTarget(name: "SchemaTests", dependencies: ["Schema"]),
        .testTarget(name: "LiveTests", dependencies: ["Live", "Analysis", "Control", "DSP", "JackHost", "OSCOut", "Output"]),
        .testTarget(name: "LightingTests", dependencies: ["Lighting", "OSC", "Output", "Schema", "ToolSupport"]),
        .testTarget(name: "ServiceDiscoveryTests", dependencies: ["ServiceDiscovery"]),
        .testTarget(name: "LoudnessLogTests", dependencies: ["LoudnessLog", "Analysis"]),
        .testTarget(name: "PrometheusExportTests", dependencies: ["PrometheusExport", "Analysis", "Schema", "ToolSupport"]),
        .testTarget(name: "OutputTests", dependencies: [
            "Output", "OSCOut", "JSONOut", "TerminalOut", "Sync", "Analysis", "DSP", "OSC", "Schema", "ToolSupport",
        ]),
        .testTarget(name: "ControlTests", dependencies: ["Control", "OSCOut", "OSC", "Schema"]),
        .testTarget(name: "MeterBridgeTests", dependencies: ["MeterBridge", "OSCOut", "JSONOut", "Analysis", "OSC", "Schema"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "OSC", "ToolSupport"]),
        .testTarget(name: "JackHostTests", dependencies: ["JackHost", "DSP", "TestSupport", "ToolSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["jacktap", "Schema", "ToolSupport"], exclude: ["Fixtures"]),
    ],
    cxxLanguageStandard: .cxx17
)
