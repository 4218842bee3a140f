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

Link's messages reach this peer when both processes get the CPU, which on a saturated machine can be later than
the next beat. A commit is known by its tempo: the beat's BPM (jacktap commits the float32 it sends) as Link
carries it between peers, a whole number of microseconds per beat (`link_tempo` of each beat in `received`). A
beat whose tempo no beat of the 2 s before it carried is measured on the first sample of that tempo within 2 s of
its instant, however late the commit came; a beat whose tempo an earlier beat also carried, only on a sample of
that tempo before the next beat. A beat with no such sample is not measured (`unmeasured` lists its instant)
rather than measured on a sample of another tempo. (A later commit of the same tempo, or, for a shared tempo, the
earlier one still in place, can still stand in for a beat's own: their timelines differ by the tracker's phase
correction between them.) A sample is kept only when the wall clock read on both sides of reading the session
took under 2 ms (this process put off the CPU in between pairs the session with the wrong instant).
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
        before = time.time()
        beat, tempo = link.beat, link.tempo
        after = time.time()
        if after - before < 0.002:
            walls.append((before + after) / 2)
            beats_at.append(beat)
            tempos.append(tempo)
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

    def on_link(bpm):
        """`bpm` as Link carries it between peers: a whole number of microseconds per beat."""
        return 60e6 / round(60e6 / bpm)

    def committed(t, bpm, until):
        """The session's beat and tempo at wall time t on the timeline jacktap committed with the beat at t (at
        its tempo, bpm): the first sample from t on, before `until`, that is on that tempo, taken back to t at
        its tempo; None without one."""
        first = bisect.bisect_left(walls, t)
        for j in range(first, bisect.bisect_left(walls, until)):
            if abs(tempos[j] - on_link(bpm)) < 1e-9:
                return beats_at[j] - (walls[j] - t) * tempos[j] / 60, tempos[j]
        return None

    measured = []
    unmeasured = []
    ordered = sorted(beats.items())
    for i, (count, beat) in enumerate(ordered):
        t, bpm = beat["t"], beat["bpm"]
        next_beat = ordered[i + 1][1]["t"] if i + 1 < len(ordered) else (walls[-1] if walls else t) + 1
        # A tempo no recent beat carried can only be this beat's commit (or a later one's with the same tempo,
        # which then put this beat's instant on its own timeline).
        shared = any(on_link(b["bpm"]) == on_link(bpm) and t - 2 <= b["t"] < t for _, b in ordered[:i])
        at = committed(t, bpm, next_beat if shared else t + 2)
        if at is None:
            unmeasured.append(t - start)
            continue
        b, tempo = at
        whole = round(b)
        measured.append({"count": count, "t": t - start, "bpm": bpm, "session_tempo": tempo,
                         "phase_ms": (b - whole) * 60 / tempo * 1000, "place": int(whole) % 4,
                         "beat_in_bar": places.get(count)})
    after_set = None
    if set_wall is not None:
        # Every 50th sample, and every sample whose tempo differs from the one before: the instant the session's
        # tempo changed is kept to the loop turn, however far apart a loaded machine spaces the turns.
        after_set = [{"t": w - start, "tempo": tp} for i, (w, tp) in enumerate(zip(walls, tempos))
                     if w >= set_wall and (i % 50 == 0 or tp != tempos[i - 1])]
    received = [{"count": count, "t": b["t"] - start, "bpm": b["bpm"], "link_tempo": on_link(b["bpm"])}
                for count, b in ordered]
    print(json.dumps({"peers": peers, "beats": measured, "unmeasured": unmeasured, "received": received,
                      "set_at": None if set_wall is None else set_wall - start,
                      "tempo_after_set": after_set, "final_tempo": tempos[-1] if tempos else None}), flush=True)


asyncio.run(main())
