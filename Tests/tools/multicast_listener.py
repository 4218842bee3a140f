#!/usr/bin/env python3
"""Listens for Ableton Link's discovery datagrams (multicast 224.76.78.75, UDP 20808) on the loopback interface
of the network namespace it runs in, and writes a line for each to OUT, so a test can tell whether a process
announced itself to a Link session at all, however briefly (a peer joins and leaves in a couple of datagrams).

usage: multicast_listener.py READYFILE OUT
  READYFILE  created once the listener has joined the group
Runs until killed.
"""
import os
import socket
import struct
import sys
import time

LINK_GROUP, LINK_PORT = "224.76.78.75", 20808


def main():
    ready_file, out_path = sys.argv[1], sys.argv[2]
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("0.0.0.0", LINK_PORT))
    membership = struct.pack("4s4s", socket.inet_aton(LINK_GROUP), socket.inet_aton("127.0.0.1"))
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
    out = open(out_path, "a", buffering=1)
    open(ready_file, "w").close()
    while True:
        data, sender = sock.recvfrom(65536)
        out.write(f"{time.time():.6f} {sender[0]}:{sender[1]} {len(data)}\n")


if __name__ == "__main__":
    main()
