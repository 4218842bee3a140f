#!/usr/bin/env python3
"""What a screenshot shows, for the tests: `png_colours.py FILE [#rrggbb ...]` prints one JSON object with the
image's size, its number of distinct colours and, for each colour asked, how many pixels are within 8 of it on
every channel. Reads 8-bit RGB and RGBA PNGs (what Chromium writes) with zlib alone.
"""
import json, struct, sys, zlib


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG (depth {depth}, colour {colour})"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, [tuple(row[x * channels:x * channels + 3]) for row in rows for x in range(width)]


width, height, image = pixels(sys.argv[1])
counts = {}
for colour in sys.argv[2:]:
    want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    counts[colour] = sum(1 for p in image if all(abs(p[k] - want[k]) <= 8 for k in range(3)))
print(json.dumps({"width": width, "height": height, "distinct": len(set(image)), "near": counts}))
