import CJack
import DSP
import Glibc
import Synchronization

/// The process callback's whole world: plain data set up before `jack_activate` and freed after the client
/// is closed. No class, no closure, no String: reading it costs no retain, release or lock.
struct TapProcessState {
    /// The client, for jack_get_cycle_times.
    var client: OpaquePointer
    /// jacktap's input ports, in tap channel order.
    var ports: UnsafeMutablePointer<OpaquePointer>
    var portCount: Int
    var tap: Tap
    /// When the newest copied period reached the ring.
    var stamp: PeriodStamp
    /// Where jack_get_cycle_times writes (allocated with the state: locals whose address went to C would bring
    /// the stack protector's check into the callback).
    var cycle: UnsafeMutablePointer<CycleTimes>
    /// Posted once per period to wake the analysis thread (sem_post is async-signal- and RT-safe).
    var wake: UnsafeMutablePointer<sem_t>
    /// jacktap's MIDI outputs (`clock`, `notes`) and the messages the analysis thread queued for each.
    var midiPorts: UnsafeMutablePointer<OpaquePointer>
    var midiQueues: UnsafeMutablePointer<MidiEventQueue>
    var midiCount: Int
}

/// What jack_get_cycle_times reports of the current cycle.
struct CycleTimes {
    var frames: jack_nframes_t = 0
    var start: jack_time_t = 0
    var next: jack_time_t = 0
    var periodMicros: Float = 0
}

/// The JACK process callback: per input port, measure and copy into the ring; then wake the analysis thread.
/// A file-scope function (not in main.swift, whose functions are main-actor isolated and trap on JACK's
/// thread). Only RT-safe libjack calls and sem_post; `&+` and unchecked unwraps, because a trap here would
/// kill the client mid-period.
func jacktapTapProcess(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: TapProcessState.self)
    let count = Int(frames)
    let tap = state.pointee.tap
    let ports = state.pointee.ports
    let portCount = state.pointee.portCount
    let copy = tap.beginPeriod(frames: count)
    var c = 0
    while c < portCount {
        let buffer = jack_port_get_buffer(ports[c], frames).unsafelyUnwrapped
        tap.process(channel: c, samples: buffer.assumingMemoryBound(to: Float.self), count: count, copy: copy)
        c &+= 1
    }
    tap.endPeriod(frames: count, copied: copy)
    let written = tap.ring.writtenFrames
    // The instant this period's frames became available (the cycle's start on JACK's clock), paired with the
    // ring's count after them: the analysis thread times the stream by it, however late it wakes.
    if copy {
        let cycle = state.pointee.cycle
        if jack_get_cycle_times(state.pointee.client, &cycle.pointee.frames, &cycle.pointee.start, &cycle.pointee.next,
                                &cycle.pointee.periodMicros) == 0 {
            state.pointee.stamp.record(frames: written, micros: UInt64(cycle.pointee.start))
        }
    }
    // The period's place in the ring's timeline, which the analysis stamps its MIDI messages in. A period
    // the ring could not take is not in it: its messages go out at the start of the next one that is.
    let periodStart = copy ? written &- count : written
    var m = 0
    while m < state.pointee.midiCount {
        let buffer = jack_port_get_buffer(state.pointee.midiPorts[m], frames).unsafelyUnwrapped
        jack_midi_clear_buffer(buffer)
        let queue = state.pointee.midiQueues[m]
        // JACK refuses an event earlier in the period than the one before it: offsets only move forward.
        var earliest = 0
        while let message = queue.peek(), message.frame < periodStart &+ (copy ? count : 0) {
            let offset = message.frame &- periodStart
            earliest = max(earliest, offset)
            _ = jack_midi_event_write(buffer, jack_nframes_t(truncatingIfNeeded: earliest), message.bytes,
                                      message.size)
            queue.pop(late: offset < 0)
        }
        m &+= 1
    }
    sem_post(state.pointee.wake)
    return 0
}
