#!/usr/bin/env python3
"""A WLED audio-sync V2 receiver written from the audio-reactive usermod's packet layout (44 bytes, little-endian):
header[6] "00002\\0", 2 bytes gap, float sampleRaw, float sampleSmth, uint8 samplePeak, uint8 frameCounter,
uint8 fftResult[16], 2 bytes gap, float FFT_Magnitude, float FFT_MajorPeak. Prints, flushed, {"listening": PORT},
then one JSON line per packet, or {"bad": LENGTH} for a packet it cannot decode.

Usage: wled_receiver.py PORT [GROUP]   (GROUP: join that multicast group on the loopback interface)
"""
import json
import socket
import struct
import sys

LAYOUT = struct.Struct("<6s2xffBB16B2xff")
port = int(sys.argv[1])
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
if len(sys.argv) > 2:
    sock.bind((sys.argv[2], port))
    membership = struct.pack("4s4s", socket.inet_aton(sys.argv[2]), socket.inet_aton("127.0.0.1"))
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
else:
    sock.bind(("127.0.0.1", port))
print(json.dumps({"listening": sock.getsockname()[1]}), flush=True)
while True:
    data = sock.recv(2048)
    if len(data) != LAYOUT.size or not data.startswith(b"00002\x00"):
        print(json.dumps({"bad": len(data)}), flush=True)
        continue
    fields = LAYOUT.unpack(data)
    print(json.dumps({"raw": fields[1], "smooth": fields[2], "peak": fields[3], "frame": fields[4],
                      "bands": list(fields[5:21]), "magnitude": fields[21], "major_peak": fields[22]}), flush=True)
