import AudioFile
import Foundation


/// Every frame of channel 0 of `reader`.
func readAll(_ reader: SoundFileReader) -> [Float] {
    var all = [Float]()
    let planes = (0..<reader.channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 4096) }
    defer { planes.forEach { $0.deallocate() } }
    while true {
        let n = reader.read(count: 4096, into: planes)
        if n == 0 { break }
        all += UnsafeBufferPointer(start: planes[0], count: n)
    }
    return all
}
