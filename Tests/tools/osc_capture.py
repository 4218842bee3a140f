#!/usr/bin/env python3
"""Receives OSC on 127.0.0.1:PORT until stopped (SIGTERM) and prints each message as a JSON line, decoded by
python-osc (a decoder no one on the jacktap project wrote): {"address": ..., "args": [...], "bundle": bool}.
Every line is flushed as it is printed, so the caller knows what arrived by reading the output (it sends a last
message of its own and stops the receiver once that is printed)."""
import json
import socket
import sys
import time

from pythonosc.parsing import osc_types
from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_message import OscMessage
from pythonosc.osc_packet import OscPacket

SO_RCVBUFFORCE = 33  # SO_RCVBUF past net.core.rmem_max, for a caller with CAP_NET_ADMIN

port = int(sys.argv[1])
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
# 8 MB, as Tests/tools/enlarge_receive_buffer.py gives oscdump: the kernel's default (212 KB, some 300 small
# datagrams) overflows while this process waits for a core on a loaded machine and `jacktap analyze` sends a
# file's messages as fast as it reads them. Set before binding, so nothing arrives into the small buffer.
try:
    sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
except OSError:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
sock.bind(("127.0.0.1", port))
while True:
    data, _ = sock.recvfrom(65536)
    is_bundle = OscBundle.dgram_is_bundle(data)
    for timed in OscPacket(data).messages:
        message: OscMessage = timed.message
        # "received": wall-clock time of arrival; "timetag": the bundle's timetag as Unix seconds (None for a
        # plain message or an immediate timetag), as python-osc decoded it.
        timetag = None
        if is_bundle and OscBundle(data).timestamp != osc_types.IMMEDIATELY:
            timetag = OscBundle(data).timestamp
        print(json.dumps({"address": message.address, "args": list(message.params), "bundle": is_bundle,
                          "received": time.time(), "timetag": timetag}), flush=True)
