import CJack
import Glibc
import Synchronization

/// What libjack tells a client between periods: the server went away, the sample rate or the period changed,
/// an xrun happened, ports came, went or were renamed. The callbacks run on libjack's own threads
/// (jackd2's notification thread, PipeWire's data or main loop), so each only stores an atomic and posts a
/// semaphore, as the shutdown handler always did; the threads that act on it (analysis, port follower)
/// read the atomics. Nobody calls libjack from inside a JACK callback: not jack-matchmaker, non-mixer, a2jmidid
/// or Carla (read in their source).
///
/// Plain data behind a pointer, allocated before the callbacks are set and freed after the client is closed:
/// no class, closure or String, so a callback costs no retain, release or lock.
struct JackNotifications: ~Copyable {
    /// 1 once the server has shut the client down.
    let serverGone: Atomic<Int>
    /// The sample rate the server last announced, Hz (0 before the first announcement).
    let sampleRate: Atomic<Int>
    /// The period the server last announced, frames.
    let bufferSize: Atomic<Int>
    /// Xruns the server reported since the client opened.
    let xruns: Atomic<Int>
    /// Bumped on every port registration, unregistration or rename.
    let graphChanges: Atomic<Int>
    /// Woken on a shutdown and on a sample-rate change: the analysis thread (the tap's own semaphore).
    let analysisWake: UnsafeMutablePointer<sem_t>
    /// Woken on a graph change or a shutdown: the port follower.
    let graphWake: UnsafeMutablePointer<sem_t>
}

func jacktapNotifyShutdown(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?, _ argument: UnsafeMutableRawPointer?) {
    jacktapNotifyServerGone(argument)
}

/// jack_on_shutdown's form: PipeWire's libjack (0.3.65) reports a daemon that went away only through it,
/// jackd2 only through jack_on_info_shutdown when both are set (jack.h), so both are set and do the same.
func jacktapNotifyShutdownPlain(_ argument: UnsafeMutableRawPointer?) {
    jacktapNotifyServerGone(argument)
}

@inline(__always)
func jacktapNotifyServerGone(_ argument: UnsafeMutableRawPointer?) {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: JackNotifications.self)
    state.pointee.serverGone.store(1, ordering: .releasing)
    sem_post(state.pointee.analysisWake)
    sem_post(state.pointee.graphWake)
}

func jacktapNotifySampleRate(_ rate: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: JackNotifications.self)
    state.pointee.sampleRate.store(Int(rate), ordering: .releasing)
    sem_post(state.pointee.analysisWake)
    return 0
}

func jacktapNotifyBufferSize(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: JackNotifications.self)
    state.pointee.bufferSize.store(Int(frames), ordering: .releasing)
    return 0
}

func jacktapNotifyXrun(_ argument: UnsafeMutableRawPointer?) -> Int32 {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: JackNotifications.self)
    state.pointee.xruns.wrappingAdd(1, ordering: .relaxed)
    return 0
}

func jacktapNotifyPortRegistration(_ port: jack_port_id_t, _ registered: Int32, _ argument: UnsafeMutableRawPointer?) {
    jacktapNotifyGraphChange(argument)
}

func jacktapNotifyPortRename(_ port: jack_port_id_t, _ old: UnsafePointer<CChar>?, _ new: UnsafePointer<CChar>?,
                             _ argument: UnsafeMutableRawPointer?) {
    jacktapNotifyGraphChange(argument)
}

@inline(__always)
func jacktapNotifyGraphChange(_ argument: UnsafeMutableRawPointer?) {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: JackNotifications.self)
    state.pointee.graphChanges.wrappingAdd(1, ordering: .releasing)
    sem_post(state.pointee.graphWake)
}
