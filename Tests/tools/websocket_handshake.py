"""The client side of RFC 6455's opening handshake, for the test tools that speak WebSocket by hand (a viewer
that never reads, clients that send garbage, QLC+'s web socket)."""
import base64
import os


def handshake(sock, host, port, path):
    """Upgrades `sock` to a WebSocket on `path`; returns the bytes the server sent after its 101 answer.
    Raises ConnectionError when the server closes or answers anything but 101."""
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("closed during handshake")
        reply += chunk
    head, _, rest = reply.partition(b"\r\n\r\n")
    if b" 101" not in head.split(b"\r\n")[0]:
        raise ConnectionError(head.decode(errors="replace"))
    return rest
