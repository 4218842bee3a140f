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

port = int(sys.argv[1])
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
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
