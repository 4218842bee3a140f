#!/usr/bin/env python3
"""An OSC-over-TCP receiver written from the two framings' own documents, for Tests/EndToEndTests/OSCOverTCPTests:
OSC 1.0 (each packet after its size, a big-endian int32) and OSC 1.1 (SLIP, RFC 1055: END 0xC0 ends a packet,
ESC 0xDB 0xDC stands for 0xC0 and ESC 0xDD for 0xDB; empty packets between two ENDs are skipped). Packets are
decoded by python-osc. Prints, flushed, one JSON line per message: {"address", "args", "connection"} where
connection counts the connections accepted so far, and {"listening": PORT} first.

Usage: osc_tcp_receiver.py PORT size|slip   (PORT 0: the kernel chooses)
"""
import json
import socket
import sys

from pythonosc.osc_packet import OscPacket

port, framing = int(sys.argv[1]), sys.argv[2]
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", port))
server.listen(1)
print(json.dumps({"listening": server.getsockname()[1]}), flush=True)


def packets_size(conn):
    buffer = b""
    while True:
        data = conn.recv(65536)
        if not data:
            return
        buffer += data
        while len(buffer) >= 4:
            size = int.from_bytes(buffer[:4], "big")
            if len(buffer) < 4 + size:
                break
            yield buffer[4:4 + size]
            buffer = buffer[4 + size:]


def packets_slip(conn):
    packet, escaped = bytearray(), False
    while True:
        data = conn.recv(65536)
        if not data:
            return
        for byte in data:
            if escaped:
                packet.append({0xDC: 0xC0, 0xDD: 0xDB}[byte])
                escaped = False
            elif byte == 0xDB:
                escaped = True
            elif byte == 0xC0:
                if packet:
                    yield bytes(packet)
                packet = bytearray()
            else:
                packet.append(byte)


connections = 0
while True:
    conn, _ = server.accept()
    connections += 1
    for packet in (packets_size if framing == "size" else packets_slip)(conn):
        for timed in OscPacket(packet).messages:
            message = timed.message
            print(json.dumps({"address": message.address, "args": list(message.params), "connection": connections}),
                  flush=True)
    conn.close()
