#!/usr/bin/env python3
"""Sends one command to jacktap's control input with python-osc and prints each reply's arguments as one JSON
array per line: the one reply of a command, or every reply of a query up to its "end" item.

Usage: osc_command.py CONTROL_PORT ADDRESS [ARG...]   (an ARG that is a whole number is sent as i, else as s)
Example: osc_command.py 9001 /jacktap/connect gen:out_1"""
import json
import socket
import sys

from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder

port, address = int(sys.argv[1]), sys.argv[2]
builder = OscMessageBuilder(address=address)
for arg in sys.argv[3:]:
    builder.add_arg(int(arg) if arg.lstrip("-").isdigit() else arg)
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 0))
sock.settimeout(30)
sock.sendto(builder.build().dgram, ("127.0.0.1", port))
while True:
    args = list(OscMessage(sock.recvfrom(65536)[0]).params)
    print(json.dumps(args), flush=True)
    if not address.endswith("/query") or (len(args) > 1 and args[1] == "end"):
        break
