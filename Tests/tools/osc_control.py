#!/usr/bin/env python3
"""Drives jacktap's OSC control input (--listen) with python-osc, a codec no one on the jacktap project wrote,
and prints one JSON line per step for Tests/EndToEndTests/ControlRoundTripTests.swift to judge.

Usage: osc_control.py CONTROL_PORT SOURCE_PORT

Scenario (jacktap runs with two inputs, a programme "b" of in_2 only, and a short tone playing into in_2):
  connect      /jacktap/connect SOURCE            -> reply, then `jack_lsp -c`
  subscribe    /jacktap/subscribe 127.0.0.1 P PAT -> reply (P is this script's data socket)
  receive      messages on P until in_1 carries the tone, b's max momentary loudness holds the short
               tone's and in_2 is silent again (its tone ended)
  reset        /jacktap/reset                     -> reply, then b's max momentary until it reads -200
  query        /jacktap/query                     -> every reply up to "end"
  garbage      a datagram that is not OSC, an unknown address, a subscribe with bad arguments, then a query
  disconnect   /jacktap/disconnect SOURCE         -> reply, then `jack_lsp -c`
  watch        /jacktap/subscribe 127.0.0.1 W /jacktap/in_1/rms -> reply (W: a second socket, a clock in
               ticks of audio for the next step)
  unsubscribe  /jacktap/unsubscribe 127.0.0.1 P   -> reply, then how many messages still arrive on P while W
               receives 30 ticks (a second of audio), after 15 ticks for those already on their way
Nothing here asserts: the Swift test does, from these lines. Every wait ends on an event (a reply, a message);
the time limits only bound a wait whose event never comes, and are generous for a loaded machine.
"""
import json
import socket
import subprocess
import sys
import time

from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.osc_packet import OscPacket

control_port, source = int(sys.argv[1]), sys.argv[2]
PATTERN = "/jacktap/in_1/rms|/jacktap/in_2/rms|/jacktap/b/loudness/max_momentary"

ctl = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
ctl.bind(("127.0.0.1", 0))
data = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
data.bind(("127.0.0.1", 0))
data_port = data.getsockname()[1]


def emit(step, **fields):
    print(json.dumps({"step": step, **fields}), flush=True)


def build(address, args):
    builder = OscMessageBuilder(address=address)
    for arg in args:
        builder.add_arg(arg)
    return builder.build().dgram


def messages(dgram):
    return [(t.message.address, list(t.message.params)) for t in OscPacket(dgram).messages]


def request(address, args=(), timeout=30.0, until_end=False):
    """Sends one command from the control socket; returns the argument lists of the /reply messages about it."""
    ctl.sendto(build(address, args), ("127.0.0.1", control_port))
    replies = []
    end = time.time() + timeout
    while time.time() < end:
        ctl.settimeout(max(0.01, end - time.time()))
        try:
            dgram, _ = ctl.recvfrom(65536)
        except socket.timeout:
            break
        for reply_address, params in messages(dgram):
            if reply_address == "/reply" and params and params[0] == address:
                replies.append(params)
        if replies and (not until_end or replies[-1][1] == "end"):
            break
    return replies


def jack_connections():
    return subprocess.run(["jack_lsp", "-c"], capture_output=True, text=True).stdout


def receive(seconds, stop=lambda address, params: False):
    """Data messages for up to `seconds`, stopping early once `stop` says so."""
    got = []
    end = time.time() + seconds
    while time.time() < end:
        data.settimeout(max(0.01, end - time.time()))
        try:
            dgram, _ = data.recvfrom(65536)
        except socket.timeout:
            break
        for address, params in messages(dgram):
            got.append((address, params))
            if stop(address, params):
                return got
    return got


emit("connect", reply=request("/jacktap/connect", [source]), jack_lsp=jack_connections())
emit("subscribe", reply=request("/jacktap/subscribe", ["127.0.0.1", data_port, PATTERN]), port=data_port)

state = {"tone": False, "held": None, "in_2": None, "silent_ticks": 0}
# The momentary loudness window is 400 ms (BS.1770) and the RMS window 300 ms: wait until in_2 has read
# silence for 15 ticks (0.5 s of audio at 30 ticks per second) so that no window holds the tone any more.
SILENT_TICKS = 15


def tone_held_and_ended(address, params):
    if address == "/jacktap/in_1/rms" and params[0] > -10:
        state["tone"] = True
    if address == "/jacktap/b/loudness/max_momentary":
        state["held"] = params[0]
    if address == "/jacktap/in_2/rms":
        state["in_2"] = params[0]
        state["silent_ticks"] = state["silent_ticks"] + 1 if params[0] < -100 else 0
    return state["tone"] and state["held"] is not None and state["held"] > -30 and state["silent_ticks"] >= SILENT_TICKS


got = receive(60, tone_held_and_ended)
emit("receive", count=len(got), addresses=sorted({a for a, _ in got}), in_1_rms=[p[0] for a, p in got if a.endswith("in_1/rms")][-5:],
     held=state["held"], in_2_rms=state["in_2"])

reply = request("/jacktap/reset")
after = [p[0] for a, p in receive(60, lambda a, p: a.endswith("max_momentary") and p[0] == -200)
         if a.endswith("max_momentary")]
emit("reset", reply=reply, after=after)

emit("query", replies=request("/jacktap/query", until_end=True))

ctl.sendto(b"\x00\x01\x02", ("127.0.0.1", control_port))          # not OSC: length not a multiple of 4
ctl.sendto(build("/jacktap/nothing", [1]), ("127.0.0.1", control_port))  # no such control address
bad = request("/jacktap/subscribe", [1])                            # arguments that do not fit
emit("garbage", bad_reply=bad, query=request("/jacktap/query", until_end=True))

emit("disconnect", reply=request("/jacktap/disconnect", [source]), jack_lsp=jack_connections())

watch = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
watch.bind(("127.0.0.1", 0))
emit("watch", reply=request("/jacktap/subscribe", ["127.0.0.1", watch.getsockname()[1], "/jacktap/in_1/rms"]))


def watch_ticks(count, timeout=60.0):
    """Waits until the watching socket has received `count` ticks (each carries in_1's RMS once); returns how
    many it got."""
    seen = 0
    end = time.time() + timeout
    while seen < count and time.time() < end:
        watch.settimeout(max(0.01, end - time.time()))
        try:
            dgram, _ = watch.recvfrom(65536)
        except socket.timeout:
            break
        seen += sum(1 for address, _ in messages(dgram) if address == "/jacktap/in_1/rms")
    return seen


def drain_data():
    """Every message already waiting on the data socket."""
    got = []
    data.setblocking(False)
    try:
        while True:
            got += messages(data.recvfrom(65536)[0])
    except BlockingIOError:
        pass
    data.setblocking(True)
    return got


reply = request("/jacktap/unsubscribe", ["127.0.0.1", data_port])
# jacktap's analysis thread sends tick after tick: once the watcher has 15 more, any datagram to P that was on
# its way when the unsubscribe came has been sent and sits on the data socket.
watch_ticks(15)
drain_data()
watched = watch_ticks(30)
emit("unsubscribe", reply=reply, watched=watched, later=len(drain_data()))
