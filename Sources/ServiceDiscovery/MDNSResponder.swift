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
    private let stopped = Atomic<Bool>(false)

    /// Starts answering for `services` of the instance `instance` at `address` (network-order IPv4), on the
    /// interface that has it; `nil` for every address of this machine's interfaces but loopback, on the default
    /// multicast interface. A loopback address is announced on loopback alone: it means nothing elsewhere.
    ///
    /// The host name in the SRV record is jacktap's own (`INSTANCE-HOST.local`), never the machine's, whose
    /// address records belong to the machine's own responder (Avahi's), if it runs one.
    public init(instance: String, services: [Service], address: UInt32? = nil) throws(MDNSError) {
        let machine = MDNSSocket.hostName().split(separator: ".").first.map(String.init) ?? "host"
        zone = Self.zone(instance: instance, host: Self.label(instance + "-" + machine) + ".local", services: services,
                         addresses: address.map { [$0] } ?? MDNSSocket.interfaceAddresses())
        socket = try MDNSSocket.open(interface: address).get()
        let socket = self.socket, zone = self.zone, worker = self.worker
        worker.start {
            socket.send(DNSMessage.response(answers: zone.records, additionals: []))
            var buffer = [UInt8](repeating: 0, count: 9000)
            // RFC 6762 8.3: the announcement again one second later.
            var announceAgain: ContinuousClock.Instant? = ContinuousClock.now + .seconds(1)
            while !worker.isStopping {
                if let (count, port, host) = socket.receive(timeoutMs: 100, into: &buffer) {
                    let query = Array(buffer[..<count])
                    if let questions = DNSMessage.questions(query) {
                        Self.answer(query: query, questions: questions, from: (host, port), zone: zone, socket: socket)
                    }
                }
                if let due = announceAgain, ContinuousClock.now >= due {
                    announceAgain = nil
                    socket.send(DNSMessage.response(answers: zone.records, additionals: []))
                }
            }
        }
    }

    /// Answers `questions` of `query` from `sender`: to the group, and to the sender alone as well when it is a
    /// one-shot resolver (a port other than 5353, RFC 6762 6.7: its own id and questions echoed) or asked for
    /// a unicast answer (5.4).
    static func answer(query: [UInt8], questions: [DNSMessage.Question], from sender: (host: UInt32, port: UInt16),
                       zone: Zone, socket: MDNSSocket) {
        let (answers, additionals) = zone.answer(questions)
        guard !answers.isEmpty else { return }
        if sender.port != MDNSSocket.port {
            let id = UInt16(query[0]) << 8 | UInt16(query[1])
            socket.send(DNSMessage.response(id: id, questions: questions, answers: answers, additionals: additionals),
                        host: sender.host, port: sender.port)
            return
        }
        let response = DNSMessage.response(answers: answers, additionals: additionals)
        if questions.contains(where: \.unicastResponse) { socket.send(response, host: sender.host, port: sender.port) }
        socket.send(response)
    }

    /// `text` as one DNS label a host name may use: letters, digits and hyphens (RFC 952, RFC 1123), 63 at most.
    static func label(_ text: String) -> String {
        let mapped = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }.prefix(63))
        return mapped.isEmpty ? "jacktap" : mapped
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

    /// Says goodbye (every record with TTL 0) and stops answering; a second call does nothing.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        worker.stop()
        let goodbye = zone.records.map {
            DNSMessage.Record(name: $0.name, type: $0.type, unique: $0.unique, ttl: 0, data: $0.data)
        }
        socket.send(DNSMessage.response(answers: goodbye, additionals: []))
        socket.close()
    }
}
