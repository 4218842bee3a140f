"""Runs aubio's onset or tempo object block by block (Debian's python3-aubio) and prints, for every detection,
what the CLI prints (get_last, samples) and the stream sample at which it was known (the end of that block).
The self-test uses it to check the reconstruction of report times from the CLI's printed times in tools.py.

Usage: aubio_blocks.py onset|beat FILE BUFSIZE HOPSIZE
"""

import sys

import aubio

kind, path, bufsize, hop = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
source = aubio.source(path, 0, hop)
detector = (aubio.onset("hfc", bufsize, hop, source.samplerate) if kind == "onset"
            else aubio.tempo("default", bufsize, hop, source.samplerate))
blocks = 0
while True:
    samples, read = source()
    if detector(samples)[0]:
        print(detector.get_last(), (blocks + 1) * hop)
    blocks += 1
    if read < hop:
        break
