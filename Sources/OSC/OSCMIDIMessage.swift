/// The 4-byte MIDI message of the OSC 1.0 `m` type: "Bytes from MSB to LSB are: port id, status byte,
/// data1, data2".
public struct OSCMIDIMessage: Sendable, Equatable, Hashable {
    /// The port id, sent first.
    public var port: UInt8
    /// The MIDI status byte (e.g. 0x90 for note on, channel 1).
    public var status: UInt8
    /// The first data byte (e.g. the note number).
    public var data1: UInt8
    /// The second data byte (e.g. the velocity).
    public var data2: UInt8

    /// Creates the message from its four bytes in wire order.
    public init(port: UInt8, status: UInt8, data1: UInt8, data2: UInt8) {
        self.port = port
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }
}
