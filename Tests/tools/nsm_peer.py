#!/usr/bin/env python3
"""The server side of the NSM (New Session Manager) protocol, enough to drive one client end to end, written
from the NSM API document (linuxaudio/new-session-manager, docs/src/api/index.adoc, API 1.1.1) with
python-osc, a codec no one on the jacktap project wrote. Tests/SessionTests/NSMClientTests.swift runs it.

Usage: nsm_peer.py

It binds one UDP socket on 127.0.0.1, a port the kernel chooses, and prints NSM_URL=osc.udp://127.0.0.1:PORT/
as its first stdout line. Then every OSC message it receives is printed as one JSON line
{"address": ..., "args": [...], "from": "HOST:PORT"}; an undecodable datagram as {"undecodable": N bytes}.

Covered:
  /nsm/server/announce s:app_name s:capabilities s:executable i:api_major i:api_minor i:pid
      -> /reply s:"/nsm/server/announce" s:"welcome" s:"nsm_peer" s:":server-control:broadcast:optional-gui:"
         (sent to the announce's source address, which becomes "the client"), or
      -> /error s:"/nsm/server/announce" i:-1 (ERR_GENERAL) when the arguments are not sssiii,
         /error ... i:-2 (ERR_INCOMPATIBLE_API) when api_major is newer than 1, as nsmd does.
  Commands on stdin, one per line, each sent to the client from the same socket:
      open PATH DISPLAY_NAME CLIENT_ID  /nsm/client/open s:PATH s:DISPLAY_NAME s:CLIENT_ID
      save                              /nsm/client/save
      loaded                            /nsm/client/session_is_loaded
      raw ADDRESS ARGS_JSON             any message: a JSON list, int -> i, float -> f, string -> s
      quit                              close the socket and exit
  A command before any announce prints {"peer_error": ...}.
Not covered: session directories and session.nsm files, launching or signalling clients, server-control
(/nsm/server/save, open, list, ...), broadcast relaying, the /nsm/gui protocol, several clients, TCP.
Nothing here asserts: the Swift tests do, from these lines.
"""
import json
import socket
import sys
import threading

from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.osc_packet import OscPacket, ParseError

SERVER_CAPABILITIES = ":server-control:broadcast:optional-gui:"
API_MAJOR = 1
ERR_GENERAL, ERR_INCOMPATIBLE_API = -1, -2

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 0))
client = None  # the source address of the last announce
lock = threading.Lock()


def emit(record):
    with lock:
        print(json.dumps(record), flush=True)


def build(address, args):
    builder = OscMessageBuilder(address=address)
    for arg in args:
        if isinstance(arg, bool):
            raise ValueError("booleans are not NSM arguments")
        kind = "i" if isinstance(arg, int) else "f" if isinstance(arg, float) else "s"
        builder.add_arg(arg if kind != "s" else str(arg), arg_type=kind)
    return builder.build().dgram


def send(address, args, to):
    sock.sendto(build(address, args), to)


def answer_announce(args, source):
    global client
    types = "".join("i" if isinstance(a, int) else "s" if isinstance(a, str) else "?" for a in args)
    if types != "sssiii":
        send("/error", ["/nsm/server/announce", ERR_GENERAL, "expected sssiii, got " + types], source)
    elif args[3] > API_MAJOR:
        send("/error", ["/nsm/server/announce", ERR_INCOMPATIBLE_API, "incompatible API version"], source)
    else:
        client = source
        send("/reply", ["/nsm/server/announce", "welcome", "nsm_peer", SERVER_CAPABILITIES], source)


def receive():
    while True:
        try:
            data, source = sock.recvfrom(65536)
        except OSError:
            return  # closed by quit
        try:
            messages = [m.message for m in OscPacket(data).messages]
        except ParseError:
            emit({"undecodable": len(data)})
            continue
        for message in messages:
            args = list(message.params)
            # The announce is answered (and its sender made the client) before the line says it came: the test
            # sends `open` as soon as it reads the line, and that must reach this client, not the one before.
            if message.address == "/nsm/server/announce":
                answer_announce(args, source)
            emit({"address": message.address, "args": args, "from": "%s:%d" % source})


def command(line):
    verb, _, rest = line.strip().partition(" ")
    if verb == "quit":
        return False
    if client is None:
        emit({"peer_error": "no client has announced"})
        return True
    if verb == "open":
        parts = rest.split(" ")
        if len(parts) != 3:
            emit({"peer_error": "open PATH DISPLAY_NAME CLIENT_ID"})
        else:
            send("/nsm/client/open", parts, client)
    elif verb == "save":
        send("/nsm/client/save", [], client)
    elif verb == "loaded":
        send("/nsm/client/session_is_loaded", [], client)
    elif verb == "raw":
        address, _, args = rest.partition(" ")
        send(address, json.loads(args) if args.strip() else [], client)
    else:
        emit({"peer_error": "unknown command " + verb})
    return True


print("NSM_URL=osc.udp://127.0.0.1:%d/" % sock.getsockname()[1], flush=True)
threading.Thread(target=receive, daemon=True).start()
for line in sys.stdin:
    if line.strip() and not command(line):
        break
sock.close()
