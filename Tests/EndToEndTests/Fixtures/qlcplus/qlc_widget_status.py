#!/usr/bin/env python3
"""Reads a QLC+ Virtual Console widget's value over QLC+'s web socket (qlcplus -w).

    qlc_widget_status.py WIDGET_ID [--port 9999] [--count N] [--interval S] [--wait S]

Connects to ws://127.0.0.1:PORT/qlcplusWS (retrying for --wait seconds while QLC+ starts), sends the text
frame "QLC+API|getWidgetStatus|<id>" --count times, --interval seconds apart, and prints each answer's value
(QLC+ replies "QLC+API|getWidgetStatus|<value>"; for a slider the value is its position, 0..255) on its own
line. Exits 2 if QLC+ did not answer within --wait. Only the standard library: a minimal RFC 6455 client
(handshake, masked client frames, unmasked server frames; QLC+ also pushes unrelated frames, which are skipped).
"""
import argparse
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from websocket_handshake import handshake  # noqa: E402


class Connection:
    def __init__(self, sock, pending):
        self.sock = sock
        self.buffer = pending

    def take(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def send_text(self, text):
        # RFC 6455 5.3: every client frame is masked.
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        else:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def receive(self):
        """One complete message: (opcode, payload)."""
        opcode, message = None, b""
        while True:
            b0, b1 = self.take(2)
            length = b1 & 0x7F
            if length == 126:
                length = struct.unpack(">H", self.take(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self.take(8))[0]
            mask = self.take(4) if b1 & 0x80 else None
            data = self.take(length)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if opcode is None and (b0 & 0x0F) != 0:
                opcode = b0 & 0x0F
            message += data
            if b0 & 0x80:
                return opcode, message


def connect(port, deadline):
    while True:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2)
            return Connection(sock, handshake(sock, "127.0.0.1", port, "/qlcplusWS"))
        except OSError:
            if time.monotonic() > deadline:
                return None
            time.sleep(0.2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("widget", type=int)
    parser.add_argument("--port", type=int, default=9999)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--wait", type=float, default=20)
    args = parser.parse_args()
    deadline = time.monotonic() + args.wait
    connection = connect(args.port, deadline)
    if connection is None:
        print(f"no QLC+ web socket on 127.0.0.1:{args.port} within {args.wait} s", file=sys.stderr)
        return 2
    prefix = "QLC+API|getWidgetStatus|"
    for i in range(args.count):
        if i:
            time.sleep(args.interval)
        connection.send_text(f"{prefix}{args.widget}")
        while True:
            opcode, payload = connection.receive()
            if opcode == 0x8:
                print("QLC+ closed the web socket", file=sys.stderr)
                return 1
            text = payload.decode(errors="replace")
            if opcode == 0x1 and text.startswith(prefix):
                print(text[len(prefix):], flush=True)
                break
    connection.sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
