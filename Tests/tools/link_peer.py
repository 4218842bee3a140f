#!/usr/bin/env python3
"""A second Ableton Link peer for jacktap's tests (PyPI aalink): joins the session (quantum 4), listens for
jacktap's OSC beats on 127.0.0.1, samples the session's beat and tempo every millisecond against the wall
clock, and at the end prints one JSON line measuring the session against jacktap's beats.

usage: link_peer.py PORTFILE SECONDS [--set-tempo-at SECONDS BPM]
  PORTFILE  the UDP port it listens on for OSC is written here
  --set-tempo-at S BPM   after S seconds this peer sets the session's tempo to BPM (as another app would)

Each jacktap beat arrives in a bundle whose timetag is the beat's instant (Unix time). At that instant the
session's beat b, on the timeline jacktap committed with that beat, should be whole: its distance to the nearest
whole beat, in ms at the session's tempo, is the phase error; round(b) mod 4 should be the beat's place in its
bar (from /bar) less one.
"""
import asyncio
import bisect
import json
import os
import socket
import sys
import time

import aalink
from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_packet import OscPacket


async def main():
    args = sys.argv[1:]
    port_file, seconds = args[0], float(args[1])
    set_at = set_bpm = None
    if "--set-tempo-at" in args:
        i = args.index("--set-tempo-at")
        set_at, set_bpm = float(args[i + 1]), float(args[i + 2])
    link = aalink.Link(120)
    link.quantum = 4
    link.enabled = True
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.setblocking(False)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(sock.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    walls, beats_at, tempos = [], [], []
    peers = 0
    beats = {}  # count -> {"t": timetag, "bpm": bpm}
    places = {}  # count -> beat in bar, from the /bar message of the same bundle
    start = time.time()
    set_wall = None
    while time.time() - start < seconds:
        walls.append(time.time())
        beats_at.append(link.beat)
        tempos.append(link.tempo)
        peers = max(peers, link.num_peers)
        if set_at is not None and set_wall is None and time.time() - start >= set_at:
            link.tempo = set_bpm
            set_wall = time.time()
        while True:
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                break
            stamp = OscBundle(data).timestamp if OscBundle.dgram_is_bundle(data) else None
            for timed in OscPacket(data).messages:
                m = timed.message
                if m.address == "/jacktap/in_1/beat" and stamp is not None:
                    beats[int(m.params[0])] = {"t": stamp, "bpm": float(m.params[1])}
                if m.address == "/jacktap/in_1/bar":
                    count = max(beats) if beats else None
                    if count is not None:
                        places[count] = int(m.params[1])
        await asyncio.sleep(0.001)

    def committed(t, bpm, until):
        """The session's beat and tempo at wall time t on the timeline jacktap committed with the beat at t (at
        its tempo, bpm): the first sample from t on that is on that tempo, before `until` (the next beat), taken
        back to t at its tempo. The commit may reach this process after t (Link's messages, and this process
        getting the CPU, can take more than a beat's lead on a loaded machine), and a sample from before t may
        hold the previous beat's timeline; without a sample on that tempo, the first from t on."""
        first = bisect.bisect_left(walls, t)
        if first >= len(walls):
            return None
        chosen = next((j for j in range(first, bisect.bisect_left(walls, until)) if abs(tempos[j] - bpm) < 1e-3), first)
        return beats_at[chosen] - (walls[chosen] - t) * tempos[chosen] / 60, tempos[chosen]

    measured = []
    ordered = sorted(beats.items())
    for i, (count, beat) in enumerate(ordered):
        until = ordered[i + 1][1]["t"] if i + 1 < len(ordered) else walls[-1] + 1
        at = committed(beat["t"], beat["bpm"], until)
        if at is None:
            continue
        b, tempo = at
        whole = round(b)
        measured.append({"count": count, "t": beat["t"] - start, "bpm": beat["bpm"], "session_tempo": tempo,
                         "phase_ms": (b - whole) * 60 / tempo * 1000, "place": int(whole) % 4,
                         "beat_in_bar": places.get(count)})
    after_set = None
    if set_wall is not None:
        # Every 50th sample, and every sample whose tempo differs from the one before: the instant the session's
        # tempo changed is kept to the loop turn, however far apart a loaded machine spaces the turns.
        after_set = [{"t": w - start, "tempo": tp} for i, (w, tp) in enumerate(zip(walls, tempos))
                     if w >= set_wall and (i % 50 == 0 or tp != tempos[i - 1])]
    print(json.dumps({"peers": peers, "beats": measured, "set_at": None if set_wall is None else set_wall - start,
                      "tempo_after_set": after_set, "final_tempo": tempos[-1]}), flush=True)


asyncio.run(main())
