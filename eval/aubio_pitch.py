"""aubiopitch's yin, hop by hop, through Debian's python3-aubio, printing what the CLI cannot: the confidence.

Usage: aubio_pitch.py FILE BUFSIZE HOPSIZE -> lines "printed_sample Hz confidence", the printed sample being
what `aubiopitch -T samples` prints for the same hop (blocks * hop), so the two outputs line up row for row.
"""

import sys

import aubio

path, bufsize, hop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
source = aubio.source(path, 0, hop)
pitch = aubio.pitch("yin", bufsize, hop, source.samplerate)
pitch.set_unit("Hz")
blocks = 0
out = []
while True:
    samples, read = source()
    hz = pitch(samples)[0]
    out.append(f"{blocks * hop} {hz:.6f} {pitch.get_confidence():.6f}")
    blocks += 1
    if read < hop:
        break
print("\n".join(out))
