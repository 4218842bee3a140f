import Spawn
import Synchronization

/// Advertises jacktap's services on the local network by multicast DNS service discovery (RFC 6762, RFC 6763),
/// as Bonjour and Avahi do: OSCQuery clients browse for `_oscjson._tcp` and OSC senders for `_osc._udp`. It
/// answers queries for its PTR, SRV, TXT and A records, announces them twice at start (RFC 6762 8.3) and says
/// goodbye (TTL 0, RFC 6762 10.1) at stop. It probes for no conflict: the instance name is jacktap's JACK client
/// name, unique on its server already.
public final class MDNSResponder: Sendable {
    /// One service: its type (`_oscjson._tcp`), its port and its TXT entries.
    public struct Service: Sendable, Equatable {
        public let type: String
        public let port: UInt16
        public let text: [String]

        public init(type: String, port: UInt16, text: [String] = []) {
            self.type = type
            self.port = port
            self.text = text
        }
    }

    /// The records, by what a query asks for.
    struct Zone {
        var records: [DNSMessage.Record]

        /// The answers and additionals for `questions`.
        func answer(_ questions: [DNSMessage.Question])
            -> (answers: [DNSMessage.Record], additionals: [DNSMessage.Record]) {
            var answers = [DNSMessage.Record](), additionals = [DNSMessage.Record]()
            for question in questions {
                for record in records where record.name.lowercased() == question.name
                    && (question.type == DNSMessage.typeAny || question.type == record.type)
                    && !answers.contains(record) {
                    answers.append(record)
                }
            }
            // RFC 6763 12: with a PTR, the SRV, TXT and address records it leads to; with a SRV, the addresses.
            for record in answers {
                let related: [DNSMessage.Record]
                switch record.type {
                case DNSMessage.typePTR:
                    let target = DNSMessage.readName(record.data, at: 0)?.0.lowercased() ?? ""
                    related = records.filter { $0.name.lowercased() == target && $0.type != DNSMessage.typePTR }
                case DNSMessage.typeSRV:
                    related = records.filter { $0.type == DNSMessage.typeA }
                default: related = []
                }
                for extra in related where !answers.contains(extra) && !additionals.contains(extra) {
                    additionals.append(extra)
                }
            }
            if additionals.contains(where: { $0.type == DNSMessage.typeSRV }) {
                for address in records where address.type == DNSMessage.typeA && !additionals.contains(address)
                    && !answers.contains(address) { additionals.append(address) }
            }
            return (answers, additionals)
        }
    }

    let zone: Zone
    private let socket: MDNSSocket
    private let worker = WorkerThread(name: "jacktap-mdns")

    /// Starts answering for `services` of the instance `instance` on this machine's `addresses` (network-order
    /// IPv4; all of its interfaces' when empty).
    public init(instance: String, services: [Service], addresses: [UInt32] = []) throws(MDNSError) {
        let host = MDNSSocket.hostName().split(separator: ".").first.map(String.init) ?? "jacktap"
        zone = Self.zone(instance: instance, host: host + ".local", services: services,
                         addresses: addresses.isEmpty ? MDNSSocket.interfaceAddresses() : addresses)
        socket = try MDNSSocket.open().get()
        let socket = self.socket, zone = self.zone, worker = self.worker
        worker.start {
            socket.send(DNSMessage.response(answers: zone.records, additionals: []))
            var buffer = [UInt8](repeating: 0, count: 9000)
            var announcedAgain = false
            var waited = 0
            while !worker.isStopping {
                if let (count, port, host) = socket.receive(timeoutMs: 100, into: &buffer),
                   let questions = DNSMessage.questions(Array(buffer[..<count])) {
                    let (answers, additionals) = zone.answer(questions)
                    if !answers.isEmpty {
                        let response = DNSMessage.response(answers: answers, additionals: additionals)
                        // A query from another port than 5353 is a one-shot (legacy) resolver: answer it alone
                        // (RFC 6762 6.7); one that asked for a unicast answer gets one too (5.4).
                        if port != MDNSSocket.port || questions.contains(where: \.unicastResponse) {
                            socket.send(response, host: host, port: port)
                        }
                        if port == MDNSSocket.port { socket.send(response) }
                    }
                }
                waited += 100
                if !announcedAgain && waited >= 1000 {
                    announcedAgain = true
                    socket.send(DNSMessage.response(answers: zone.records, additionals: []))
                }
            }
        }
    }

    /// The records of `services` under `instance` on `host` at `addresses`.
    static func zone(instance: String, host: String, services: [Service], addresses: [UInt32]) -> Zone {
        var records = [DNSMessage.Record]()
        for service in services {
            let type = service.type + ".local"
            let full = instance + "." + type
            records.append(.init(name: "_services._dns-sd._udp.local", type: DNSMessage.typePTR, unique: false,
                                 ttl: 4500, data: DNSMessage.pointer(type)))
            records.append(.init(name: type, type: DNSMessage.typePTR, unique: false, ttl: 4500,
                                 data: DNSMessage.pointer(full)))
            records.append(.init(name: full, type: DNSMessage.typeSRV, unique: true, ttl: 120,
                                 data: DNSMessage.service(port: service.port, target: host)))
            records.append(.init(name: full, type: DNSMessage.typeTXT, unique: true, ttl: 4500,
                                 data: DNSMessage.text(service.text)))
        }
        for address in addresses {
            records.append(.init(name: host, type: DNSMessage.typeA, unique: true, ttl: 120,
                                 data: withUnsafeBytes(of: address) { Array($0) }))
        }
        return Zone(records: records)
    }

    /// Says goodbye (every record with TTL 0) and stops answering.
    public func stop() {
        worker.stop()
        let goodbye = zone.records.map {
            DNSMessage.Record(name: $0.name, type: $0.type, unique: $0.unique, ttl: 0, data: $0.data)
        }
        socket.send(DNSMessage.response(answers: goodbye, additionals: []))
        socket.close()
    }
}
