#!/usr/bin/env python3
"""An sACN receiver built on the `sacn` package (PyPI), a second implementation of E1.31 beside OLA: prints one
JSON line per data packet of UNIVERSE as the package decodes it (arrival time, sequence, priority, source name,
CID, stream-terminated bit, the first SLOTS slots), whether or not the package then passes it on (it hands its
callbacks only packets whose slots changed, so every packet is taken where the package's socket hands it over),
and one line per availability change ("available", or "timeout", which the package reports at a
stream-terminated packet or 2.5 s of silence).

    sacn_receiver.py UNIVERSE [BIND_ADDRESS] [SLOTS] [--multicast]

The first line is {"listening": 5568} once the socket is bound. Stops at SIGTERM or SIGINT.
"""
import json
import signal
import sys
import threading
import time

import sacn
from sacn.messages.data_packet import DataPacket

universe = int(sys.argv[1])
arguments = [a for a in sys.argv[2:] if not a.startswith("--")]
bind = arguments[0] if arguments else "0.0.0.0"
slots = int(arguments[1]) if len(arguments) > 1 else 16
lock = threading.Lock()


def emit(record):
    with lock:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


receiver = sacn.sACNreceiver(bind_address=bind)


handle = receiver._handler.on_data


def on_data(data, current_time):
    try:
        packet = DataPacket.make_data_packet(data)
    except TypeError:
        emit({"t": current_time, "bad": len(data)})
    else:
        if packet.universe == universe:
            emit({"t": current_time, "sequence": packet.sequence, "priority": packet.priority,
                  "source": packet.sourceName, "cid": list(packet.cid),
                  "terminated": bool(packet.option_StreamTerminated), "slots": list(packet.dmxData[:slots])})
    handle(data, current_time)


receiver._handler.on_data = on_data


@receiver.listen_on("availability")
def on_availability(universe, changed):
    emit({"t": time.time(), "availability": changed, "universe": universe})


receiver.start()
if "--multicast" in sys.argv:
    receiver.join_multicast(universe)
emit({"listening": 5568})
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
signal.signal(signal.SIGINT, lambda *_: stop.set())
stop.wait()
receiver.stop()
