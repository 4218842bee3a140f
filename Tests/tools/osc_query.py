#!/usr/bin/env python3
"""Sends /jacktap/query to jacktap's control input with python-osc and prints each reply's arguments as one
JSON array per line, up to the "end" item. Usage: osc_query.py CONTROL_PORT [TIMEOUT_SECONDS]"""
import json
import socket
import sys

from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder

port = int(sys.argv[1])
timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 30
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 0))
sock.settimeout(timeout)
sock.sendto(OscMessageBuilder(address="/jacktap/query").build().dgram, ("127.0.0.1", port))
while True:
    message = OscMessage(sock.recvfrom(65536)[0])
    args = list(message.params)
    print(json.dumps(args), flush=True)
    if len(args) > 1 and args[1] == "end":
        break
