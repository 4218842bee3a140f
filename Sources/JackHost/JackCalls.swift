import CJack
import Glibc

/// Every libjack call jacktap makes, each wrapped once (style.md: one place per C library).
/// Strings cross here; nothing above this file sees a C string or a `jack_free`.
enum JackCalls {
    static func open(name: String, status: inout jack_status_t) -> OpaquePointer? {
        jacktap_client_open(name, JackNoStartServer, &status)
    }

    static func close(_ client: OpaquePointer) { _ = jack_client_close(client) }
    static func activate(_ client: OpaquePointer) -> Int32 { jack_activate(client) }
    static func deactivate(_ client: OpaquePointer) -> Int32 { jack_deactivate(client) }
    static func sampleRate(_ client: OpaquePointer) -> Int { Int(jack_get_sample_rate(client)) }
    static func bufferSize(_ client: OpaquePointer) -> Int { Int(jack_get_buffer_size(client)) }
    static func clientName(_ client: OpaquePointer) -> String { String(cString: jack_get_client_name(client)) }

    static func register(_ client: OpaquePointer, port: String, input: Bool, midi: Bool = false) -> OpaquePointer? {
        let flags = input ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue
        return jack_port_register(client, port, midi ? JACK_DEFAULT_MIDI_TYPE : JACK_DEFAULT_AUDIO_TYPE, UInt(flags), 0)
    }

    static func unregister(_ client: OpaquePointer, _ port: OpaquePointer) { _ = jack_port_unregister(client, port) }
    static func portName(_ port: OpaquePointer) -> String { String(cString: jack_port_name(port)) }
    static func portByName(_ client: OpaquePointer, _ name: String) -> OpaquePointer? { jack_port_by_name(client, name) }
    static func portFlags(_ port: OpaquePointer) -> Int32 { jack_port_flags(port) }
    static func portType(_ port: OpaquePointer) -> String { String(cString: jack_port_type(port)) }

    /// Names of the ports whose flags include `flags` (0: all), audio ports only when `audioOnly`.
    static func ports(_ client: OpaquePointer, flags: UInt32, audioOnly: Bool) -> [String] {
        guard let list = jack_get_ports(client, nil, audioOnly ? JACK_DEFAULT_AUDIO_TYPE : nil, UInt(flags)) else {
            return []
        }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        return strings(list)
    }

    static func connections(_ client: OpaquePointer, _ port: OpaquePointer) -> [String] {
        guard let list = jack_port_get_all_connections(client, port) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        return strings(list)
    }

    static func connect(_ client: OpaquePointer, _ source: String, _ destination: String) -> Int32 {
        jack_connect(client, source, destination)
    }

    static func disconnect(_ client: OpaquePointer, _ source: String, _ destination: String) -> Int32 {
        jack_disconnect(client, source, destination)
    }

    static func setProcess(_ client: OpaquePointer, _ callback: JackProcessCallback,
                           _ argument: UnsafeMutableRawPointer) -> Int32 {
        jack_set_process_callback(client, callback, argument)
    }

    /// Both shutdown callbacks: jackd2 calls only the info one when both are set (jack.h); PipeWire's libjack
    /// 0.3.65 calls only the plain one.
    static func onShutdown(_ client: OpaquePointer, _ callback: JackInfoShutdownCallback,
                           plain: JackShutdownCallback, _ argument: UnsafeMutableRawPointer) {
        jack_on_shutdown(client, plain, argument)
        jack_on_info_shutdown(client, callback, argument)
    }

    /// Sets every notification callback of `JackNotifications.swift` (before activation, as libjack requires).
    static func setNotifications(_ client: OpaquePointer, _ argument: UnsafeMutableRawPointer) {
        onShutdown(client, jacktapNotifyShutdown, plain: jacktapNotifyShutdownPlain, argument)
        _ = jack_set_sample_rate_callback(client, jacktapNotifySampleRate, argument)
        _ = jack_set_buffer_size_callback(client, jacktapNotifyBufferSize, argument)
        _ = jack_set_xrun_callback(client, jacktapNotifyXrun, argument)
        _ = jack_set_port_registration_callback(client, jacktapNotifyPortRegistration, argument)
        _ = jack_set_port_rename_callback(client, jacktapNotifyPortRename, argument)
        // No port-connect callback: every connection change in the graph would be written to every jacktap
        // (see clearNotifications); registrations are enough to follow ports, and the follower reads
        // connections itself.
    }

    /// Clears the notification callbacks of an inactive client, before it closes. jackd2 writes each
    /// notification to every client that asked for it and blocks while one's socket is full; a client inside
    /// jack_client_close reads none, so when many clients stop together (each deactivation announces the
    /// unregistration of all its ports) the server stalls writing to one that is closing, and every client
    /// waits for the server (seen with 16 jacktaps and their players stopping together). A client that no
    /// longer asks for them is sent none.
    static func clearNotifications(_ client: OpaquePointer) {
        _ = jack_set_sample_rate_callback(client, nil, nil)
        _ = jack_set_buffer_size_callback(client, nil, nil)
        _ = jack_set_xrun_callback(client, nil, nil)
        _ = jack_set_port_registration_callback(client, nil, nil)
        _ = jack_set_port_rename_callback(client, nil, nil)
    }

    /// The JACK metadata pretty name of the port named `name`, nil when it has none (or no such port).
    static func prettyName(_ client: OpaquePointer, port name: String) -> String? {
        guard let port = jack_port_by_name(client, name), let value = jacktap_copy_pretty_name(port) else { return nil }
        defer { jack_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    static func setPrettyName(_ client: OpaquePointer, _ port: OpaquePointer, _ pretty: String) {
        _ = jacktap_set_pretty_name(client, port, pretty)
    }

    static func removePrettyName(_ client: OpaquePointer, _ port: OpaquePointer) {
        _ = jacktap_remove_pretty_name(client, port)
    }

    static func silenceLibraryMessages() {
        jack_set_error_function(jacktapLibjackMessage)
        jack_set_info_function(jacktapLibjackMessage)
    }

    private static func strings(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>) -> [String] {
        var result = [String]()
        var i = 0
        while let name = list[i] {
            result.append(String(cString: name))
            i += 1
        }
        return result
    }
}

/// libjack's own messages ("Cannot connect to server socket…") are replaced by jacktap's clearer ones;
/// JACKTAP_DEBUG=1 shows them on stderr.
func jacktapLibjackMessage(_ message: UnsafePointer<CChar>?) {
    guard JackDebug.enabled, let message else { return }
    let line = "libjack: " + String(cString: message) + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

enum JackDebug {
    static let enabled = getenv("JACKTAP_DEBUG") != nil
}

extension JackCalls {
    static func connectionCount(_ port: OpaquePointer) -> Int { Int(jack_port_connected(port)) }

    /// JACK's microsecond clock (the one its cycle times are in).
    static func time() -> UInt64 { UInt64(jack_get_time()) }

    static func processThread(_ client: OpaquePointer) -> pthread_t { jack_client_thread_id(client) }
}
