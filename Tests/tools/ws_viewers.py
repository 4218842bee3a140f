#!/usr/bin/env python3
"""WebSocket viewers of jacktap's meter bridge (/ws), for the tests.

    ws_viewers.py HOST PORT SECONDS VIEWERS [STALLED] [TICKS]

VIEWERS viewers (the websockets library) read the stream for SECONDS or, given TICKS, until each has TICKS
tick lines (SECONDS then only bounds the wait: a loaded machine makes ticks slower, not fewer); STALLED more
complete the WebSocket handshake by hand over a socket with a 4 KiB receive buffer and then never read, so
that jacktap's sends to them block. Meanwhile GET /snapshot.json is asked once a second. Prints one JSON object: per reading viewer
the tick times it received (the `t` of each tick line), the event lines as received and the status lines;
the snapshot polls that answered 200 and those that did not.
"""
import asyncio, json, socket, sys, time, urllib.request

import websockets

from websocket_handshake import handshake

host, port, seconds, count = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
stalled_count = int(sys.argv[5]) if len(sys.argv) > 5 else 0
wanted = int(sys.argv[6]) if len(sys.argv) > 6 else None


def stalled_viewer():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, port))
    handshake(s, host, port, "/ws")
    return s


async def viewer(index, results):
    ticks, events, statuses = [], [], []
    async with websockets.connect(f"ws://{host}:{port}/ws", max_size=None, ping_interval=None) as ws:
        end = time.monotonic() + seconds
        while wanted is None or len(ticks) < wanted:
            left = end - time.monotonic()
            if left <= 0:
                break
            try:
                line = await asyncio.wait_for(ws.recv(), left)
            except asyncio.TimeoutError:
                break
            message = json.loads(line)
            if "status" in message:
                statuses.append(message["status"])
            elif "event" in message:
                events.append(line)
            elif "t" in message:
                ticks.append(message["t"])
    results[index] = {"ticks": ticks, "events": events, "statuses": statuses}


async def poll_snapshots(outcome, done):
    while not done.is_set():
        try:
            with await asyncio.to_thread(urllib.request.urlopen, f"http://{host}:{port}/snapshot.json", timeout=5) as r:
                json.loads(r.read())
                outcome["ok"] += 1
        except Exception as error:  # counted, and said
            outcome["failed"] += 1
            outcome["errors"].append(str(error))
        try:
            await asyncio.wait_for(done.wait(), 1)
        except asyncio.TimeoutError:
            pass


async def main():
    stalled = [stalled_viewer() for _ in range(stalled_count)]
    results, done = [None] * count, asyncio.Event()
    snapshots = {"ok": 0, "failed": 0, "errors": []}
    poller = asyncio.create_task(poll_snapshots(snapshots, done))
    await asyncio.gather(*(viewer(i, results) for i in range(count)))
    done.set()
    await poller
    for s in stalled:
        s.close()
    print(json.dumps({"viewers": results, "snapshots": snapshots}))


asyncio.run(main())
