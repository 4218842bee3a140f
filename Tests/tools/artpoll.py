#!/usr/bin/env python3
"""A controller's ArtPoll (Art-Net 4, OpPoll 0x2000) to HOST:6454 and the ArtPollReplies (OpPollReply 0x2100) that
come back within SECONDS, decoded from the standard's field table: one JSON line per reply.

    artpoll.py HOST [SECONDS]
"""
import json
import socket
import sys
import time

host = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("0.0.0.0", 0))
sock.settimeout(0.2)
# ID, OpCode (little-endian), ProtVerHi, ProtVerLo 14, Flags, DiagPriority
sock.sendto(b"Art-Net\x00" + bytes([0x00, 0x20, 0, 14, 0x02, 0x00]), (host, 6454))
end = time.time() + seconds
while time.time() < end:
    try:
        data, sender = sock.recvfrom(2048)
    except socket.timeout:
        continue
    if data[:8] != b"Art-Net\x00" or data[8] | data[9] << 8 != 0x2100:
        continue

    def text(offset, size):
        return data[offset:offset + size].split(b"\x00")[0].decode("ascii", "replace")

    print(json.dumps({"size": len(data), "ip": list(data[10:14]), "port": data[14] | data[15] << 8,
                      "port_address": (data[18] & 0x7F) << 8 | (data[19] & 0x0F) << 4 | (data[186] & 0x0F),
                      "short_name": text(26, 18), "long_name": text(44, 64), "report": text(108, 64),
                      "ports": data[172] << 8 | data[173], "port_type": data[174], "style": data[200],
                      "bind_index": data[211]}), flush=True)
