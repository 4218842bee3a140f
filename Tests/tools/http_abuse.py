#!/usr/bin/env python3
"""Bad input for jacktap's meter bridge, for the tests.

    http_abuse.py HOST PORT

Unknown paths and paths that climb out of the root (sent byte for byte, not normalised by a client library);
a request line of 1 MiB; 500 connections that send half a request and hold it while a real request is made;
WebSocket clients that send garbage: random bytes instead of a handshake, random bytes after one, a frame that
claims 2^62 bytes, a text frame (the stream is read-only). Prints one JSON object with what each got back.
"""
import json, random, socket, sys, time

from websocket_handshake import handshake

host, port = sys.argv[1], int(sys.argv[2])
random.seed(1)


def connect(timeout=10):
    s = socket.create_connection((host, port), timeout=timeout)
    return s


def read_all(s, limit=10.0):
    """Everything the server sends until it closes, or until `limit` seconds pass."""
    s.settimeout(limit)
    data, end = b"", time.monotonic() + limit
    try:
        while time.monotonic() < end:
            chunk = s.recv(65536)
            if not chunk:
                return data, "closed"
            data += chunk
    except socket.timeout:
        return data, "open"
    except ConnectionError:
        return data, "reset"
    return data, "open"


def request(path, extra=b""):
    s = connect()
    try:
        s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra + b"\r\n")
        data, _ = read_all(s)
    finally:
        s.close()
    status = int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else None
    return status, data


def upgraded():
    """A connection upgraded to a WebSocket on /ws, or None if the server refused."""
    s = connect()
    try:
        handshake(s, host, port, "/ws")
    except ConnectionError:
        s.close()
        return None
    return s


def garbage_after(s, payload):
    try:
        s.sendall(payload)
    except ConnectionError:
        return "reset while sending"
    _, how = read_all(s)
    s.close()
    return how


result = {}

paths = [b"/nothing", b"/../../../../etc/passwd", b"/%2e%2e/%2e%2e/etc/passwd", b"//etc/passwd",
         b"/meter-bridge.js/../../../etc/passwd", b"/./snapshot.json/..%2f..%2fetc%2fpasswd", b"/index.html%00.txt",
         b"/.git/config", b"/proc/self/environ", b"/\\..\\..\\etc\\passwd"]
result["paths"] = {}
for path in paths:
    status, data = request(path)
    result["paths"][path.decode()] = {"status": status, "leaks": b"root:" in data or b"[core]" in data}

s = connect(timeout=30)
start = time.monotonic()
try:
    s.sendall(b"GET /" + b"a" * (1 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    data, how = read_all(s, limit=40)
    result["long_line"] = {"answer": data[:12].decode(errors="replace"), "connection": how,
                           "seconds": round(time.monotonic() - start, 3)}
except ConnectionError as error:
    result["long_line"] = {"answer": "", "connection": f"reset ({error})", "seconds": round(time.monotonic() - start, 3)}
s.close()

half_open = []
for _ in range(500):
    h = connect()
    h.sendall(b"GET /snapshot.json HTTP/1.1\r\nHost: x\r\n")
    half_open.append(h)
status, data = request(b"/snapshot.json")
result["half_open"] = {"held": len(half_open), "snapshot_status": status,
                       "snapshot_is_a_tick": data.split(b"\r\n\r\n", 1)[-1].startswith(b"{\"t\": ")}
for h in half_open:
    h.close()

garbage = {}
s = connect()
garbage["random bytes instead of a handshake"] = garbage_after(s, bytes(random.getrandbits(8) for _ in range(65536)))
for name, payload in [("random bytes after the handshake", bytes(random.getrandbits(8) for _ in range(65536))),
                      ("a frame of 2^62 bytes", bytes([0x82, 0xFF]) + (1 << 62).to_bytes(8, "big") + b"\x01\x02\x03\x04" + b"x" * 4096),
                      ("a text frame", bytes([0x81, 0x85, 1, 2, 3, 4]) + bytes(b ^ m for b, m in zip(b"hello", b"\x01\x02\x03\x04\x01")))]:
    s = upgraded()
    garbage[name] = garbage_after(s, payload) if s else "no upgrade"
result["websocket_garbage"] = garbage

status, data = request(b"/snapshot.json")
result["after"] = {"snapshot_status": status, "page_status": request(b"/")[0]}
print(json.dumps(result))
