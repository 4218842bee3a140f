/// The parts of a DNS message (RFC 1035 section 4) that multicast DNS service discovery needs: reading the
/// questions of a query, and writing a response of PTR, SRV, TXT and A records (RFC 6762, RFC 6763).
enum DNSMessage {
    /// Record types (RFC 1035 3.2.2, RFC 2782, RFC 1035 3.3.14).
    static let typeA: UInt16 = 1, typePTR: UInt16 = 12, typeTXT: UInt16 = 16, typeSRV: UInt16 = 33
    static let typeAny: UInt16 = 255
    /// Class IN, and the top bit of the class: cache-flush in a record (RFC 6762 10.2), unicast-response wanted in
    /// a question (RFC 6762 5.4).
    static let classIN: UInt16 = 1, topBit: UInt16 = 0x8000

    struct Question: Equatable {
        /// Lower-cased, dot-separated, without the final dot (`_oscjson._tcp.local`).
        var name: String
        var type: UInt16
        var unicastResponse: Bool
    }

    struct Record: Equatable {
        var name: String
        var type: UInt16
        /// A unique record (SRV, TXT, A) carries the cache-flush bit; a shared one (PTR) does not.
        var unique: Bool
        var ttl: UInt32
        var data: [UInt8]
    }

    /// The questions of a query, nil when `bytes` is no well-formed query (a response, or garbage).
    static func questions(_ bytes: [UInt8]) -> [Question]? {
        guard bytes.count >= 12 else { return nil }
        let flags = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        guard flags & 0x8000 == 0 else { return nil }  // QR set: a response, not a query
        let count = Int(UInt16(bytes[4]) << 8 | UInt16(bytes[5]))
        var offset = 12
        var out = [Question]()
        for _ in 0..<count {
            guard let (name, next) = readName(bytes, at: offset), next + 4 <= bytes.count else { return nil }
            let type = UInt16(bytes[next]) << 8 | UInt16(bytes[next + 1])
            let qclass = UInt16(bytes[next + 2]) << 8 | UInt16(bytes[next + 3])
            out.append(Question(name: name.lowercased(), type: type, unicastResponse: qclass & topBit != 0))
            offset = next + 4
        }
        return out
    }

    /// A name at `offset`, following compression pointers (RFC 1035 4.1.4), and the offset after it; nil for a
    /// name that runs past the message, loops or is over 255 bytes.
    static func readName(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        var labels = [String]()
        var offset = start, end: Int?, jumps = 0, length = 0
        while true {
            guard offset < bytes.count else { return nil }
            let size = Int(bytes[offset])
            if size == 0 {
                return (labels.joined(separator: "."), end ?? offset + 1)
            } else if size & 0xC0 == 0xC0 {
                guard offset + 1 < bytes.count, jumps < 16 else { return nil }
                if end == nil { end = offset + 2 }
                offset = (size & 0x3F) << 8 | Int(bytes[offset + 1])
                jumps += 1
            } else {
                guard size < 64, offset + 1 + size <= bytes.count else { return nil }
                labels.append(String(decoding: bytes[(offset + 1)...(offset + size)], as: UTF8.self))
                length += size + 1
                guard length <= 255 else { return nil }
                offset += 1 + size
            }
        }
    }

    /// `name` as labels (no compression: RFC 1035 allows a writer to leave it out).
    static func name(_ name: String) -> [UInt8] {
        var out = [UInt8]()
        for label in name.split(separator: ".") {
            let bytes = Array(label.utf8.prefix(63))
            out.append(UInt8(bytes.count))
            out.append(contentsOf: bytes)
        }
        out.append(0)
        return out
    }

    /// A response (QR and AA set, as RFC 6762 18 asks) with `answers` and `additionals`: id 0 and no question
    /// for the multicast group, the query's `id` and `questions` for a one-shot resolver (RFC 6762 6.7).
    static func response(id: UInt16 = 0, questions: [Question] = [], answers: [Record], additionals: [Record])
        -> [UInt8] {
        var out = [UInt8]()
        append16(id, to: &out)
        out += [0x84, 0]
        for count in [questions.count, answers.count, 0, additionals.count] { append16(UInt16(count), to: &out) }
        for question in questions {
            out.append(contentsOf: name(question.name))
            append16(question.type, to: &out)
            append16(classIN, to: &out)
        }
        for record in answers + additionals {
            out.append(contentsOf: name(record.name))
            append16(record.type, to: &out)
            append16(classIN | (record.unique ? topBit : 0), to: &out)
            append16(UInt16(record.ttl >> 16), to: &out)
            append16(UInt16(record.ttl & 0xFFFF), to: &out)
            append16(UInt16(record.data.count), to: &out)
            out.append(contentsOf: record.data)
        }
        return out
    }

    /// PTR data: the name pointed to.
    static func pointer(_ target: String) -> [UInt8] { name(target) }

    /// SRV data (RFC 2782): priority 0, weight 0, the port and the target host.
    static func service(port: UInt16, target: String) -> [UInt8] {
        var out = [UInt8]()
        append16(0, to: &out)
        append16(0, to: &out)
        append16(port, to: &out)
        return out + name(target)
    }

    /// TXT data with `entries` (`key=value`); an empty TXT is one empty string (RFC 6763 6.1).
    static func text(_ entries: [String]) -> [UInt8] {
        guard !entries.isEmpty else { return [0] }
        var out = [UInt8]()
        for entry in entries {
            let bytes = Array(entry.utf8.prefix(255))
            out.append(UInt8(bytes.count))
            out.append(contentsOf: bytes)
        }
        return out
    }

    static func append16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value >> 8))
        out.append(UInt8(value & 0xFF))
    }
}
