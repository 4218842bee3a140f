import Analysis
import Glibc
import JSONOut
import OSC
import OSCOut

/// CPU share of one core that sending `ports` ports' ticks as OSC takes at `ticksPerSecond`, through the router to
/// one destination on loopback (a socket this benchmark binds and drains between the timed runs, so no send
/// fails), beside the JSON writer on the same snapshots in the same run.
func oscBenchmark(ports: Int, ticksPerSecond: Double) -> (osc: Double, json: Double) {
    let snapshots = (0..<8).map { _ in benchmarkSnapshot(ports: ports) }
    let receiver = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var size = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, size) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(receiver, $0, &size) }
    }
    defer { close(receiver) }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    func drain() { while recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {} }
    let destination = try! OSCDestination(parsing: "127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
    let router = try! OSCRouter([DestinationSettings(destination: destination)], analysisRate: ticksPerSecond)
    var time = 0.0
    var bytes = 0
    let osc = measure(runs: 9, repeats: 4) {
        for s in snapshots {
            var tick = s
            time += 1 / ticksPerSecond
            tick.time = time
            router.publish(tick)
        }
        drain()
    }
    let json = measure(runs: 9, repeats: 4) { for s in snapshots { bytes &+= JSONLines.line(for: s).utf8.count } }
    precondition(bytes > 0)
    let perTick = 1e-9 / Double(snapshots.count)
    return (osc * perTick * ticksPerSecond, json * perTick * ticksPerSecond)
}

/// `ticks` ticks of `ports` ports through the router to a destination nobody reads (the kernel drops what its
/// buffer cannot hold; the sends are the same): the workload callgrind profiles.
func oscWorkload(ports: Int, ticks: Int) {
    let snapshot = benchmarkSnapshot(ports: ports)
    let destination = try! OSCDestination(parsing: "127.0.0.1:9")
    let router = try! OSCRouter([DestinationSettings(destination: destination)], analysisRate: 30)
    for tick in 0..<ticks {
        var s = snapshot
        s.time = Double(tick) / 30
        router.publish(s)
    }
}
