#!/usr/bin/env python3
"""An OS2L receiver for jacktap's tests: listens on 127.0.0.1, takes one connection at a time, and writes each
JSON message it reads as a line to OUT, with the connection's number and how many messages came in the same
read (QLC+ parses one read as one JSON document, so a message must arrive alone).

usage: os2l_receiver.py PORTFILE OUT [--restart-after N --down SECONDS] [--no-read] [--never-answer]
  PORTFILE       the bound port is written here once listening (the port is kept across restarts)
  --restart-after N --down S
                 after N messages, close the connection and the listener (the receiver "restarts"), and
                 listen again on the same port S seconds later
  --no-read      accept, then never read (a stalled receiver), with a small receive buffer
  --never-answer a listener that never accepts, its accept queue filled by connections of its own, so the
                 kernel leaves every further connection attempt unanswered (a hung host: connect blocks)
Runs until killed.
"""
import json
import os
import select
import socket
import sys
import time


def listen(port):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(1)
    return server


def main():
    args = sys.argv[1:]
    port_file, out_path = args[0], args[1]
    restart_after = int(args[args.index("--restart-after") + 1]) if "--restart-after" in args else None
    down = float(args[args.index("--down") + 1]) if "--down" in args else 0.0
    no_read = "--no-read" in args
    never_answer = "--never-answer" in args
    server = listen(0)
    port = server.getsockname()[1]
    if never_answer:
        # Linux queues backlog + 1 connections; beyond that it drops a SYN rather than refuse it.
        server.listen(0)
        fillers = []
        for _ in range(2):
            filler = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            filler.setblocking(False)
            try:
                filler.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            fillers.append(filler)
        # A filler is writable once its handshake is done, that is, once it sits in the accept queue; the queue
        # then holds all it can, and the other filler's attempt hangs as jacktap's will.
        _, connected, _ = select.select([], fillers, [], 10)
        if not connected:
            sys.exit("os2l_receiver: no connection of its own reached the accept queue")
        probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        probe.settimeout(0.5)
        try:
            probe.connect(("127.0.0.1", port))
            sys.exit("os2l_receiver: the accept queue did not fill; a connection was answered")
        except socket.timeout:
            pass
        probe.close()
    with open(port_file + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(port_file + ".tmp", port_file)
    while never_answer:
        time.sleep(3600)
    out = open(out_path, "a", buffering=1)
    decoder = json.JSONDecoder()
    connection_number = 0
    total = 0
    while True:
        connection, _ = server.accept()
        connection_number += 1
        if no_read:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            while True:
                time.sleep(3600)
        pending = ""
        restarted = False
        while True:
            data = connection.recv(65536)
            if not data:
                break
            pending += data.decode("utf-8")
            messages = []
            while pending.strip():
                pending = pending.lstrip()
                try:
                    message, end = decoder.raw_decode(pending)
                except json.JSONDecodeError:
                    break
                messages.append(message)
                pending = pending[end:]
            for message in messages:
                out.write(json.dumps({"connection": connection_number, "in_read": len(messages),
                                      "message": message}) + "\n")
                total += 1
            if restart_after is not None and total >= restart_after and connection_number == 1:
                connection.close()
                server.close()
                time.sleep(down)
                server = listen(port)
                restarted = True
                break
        if not restarted:
            connection.close()


if __name__ == "__main__":
    main()
