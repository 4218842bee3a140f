import OSC

/// An output that follows figures by their address rather than by the tick (DMX channels mapped to paths):
/// it is handed each tick's messages, each event's with the wall-clock instant it describes, and each message
/// sent when something changes (`/loudness/paused`), all without prefix (`/in_1/level`). Called on the analysis
/// thread: a follower takes what it needs and returns, sending on a thread of its own.
public protocol FigureFollower: AnyObject {
    /// One tick's messages.
    func follow(tick messages: [OSCMessage])
    /// One event's messages (a beat's `/beat`, `/bar` and `/downbeat`), and the Unix time of its instant (nil when
    /// there is no wall clock: a file).
    func follow(event messages: [OSCMessage], instant: Double?)
    /// A message sent at a change, in a datagram of its own.
    func follow(change message: OSCMessage)
}
