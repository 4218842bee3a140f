"""A tiny Standard MIDI File writer: format 0, one track, enough for the evaluation corpus.

Times are given in seconds and written at a fixed tempo (one quarter = 0.5 s, 480 ticks per quarter, so one tick
is 1/960 s ~ 1.04 ms), which keeps every event within half a tick (0.5 ms) of the time the ground truth uses.
"""

import struct

TICKS_PER_QUARTER = 480
MICROSECONDS_PER_QUARTER = 500_000
TICKS_PER_SECOND = TICKS_PER_QUARTER * 1_000_000 / MICROSECONDS_PER_QUARTER


def _variable_length(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def ticks(seconds):
    """The tick nearest to `seconds` at the file's fixed tempo."""
    return int(round(seconds * TICKS_PER_SECOND))


def seconds(tick):
    """The time in seconds of `tick` (what the synthesiser will play)."""
    return tick / TICKS_PER_SECOND


class Song:
    """Collects program changes and notes (times in seconds) and writes them as one SMF track."""

    def __init__(self):
        self.events = []  # (tick, order, bytes): note-offs sort before note-ons at the same tick

    def program(self, channel, program, at=0.0):
        self.events.append((ticks(at), 0, bytes([0xC0 | channel, program])))

    def note(self, channel, key, start, end, velocity=100):
        """A note from `start` to `end` seconds; returns the (start, end) actually written, in seconds."""
        on, off = ticks(start), max(ticks(end), ticks(start) + 1)
        self.events.append((on, 2, bytes([0x90 | channel, key, velocity])))
        self.events.append((off, 1, bytes([0x80 | channel, key, 0])))
        return seconds(on), seconds(off)

    def write(self, path, end=None):
        track = bytearray()
        track += b"\x00\xff\x51\x03" + MICROSECONDS_PER_QUARTER.to_bytes(3, "big")
        now = 0
        for tick, _, data in sorted(self.events, key=lambda e: (e[0], e[1])):
            track += _variable_length(tick - now) + data
            now = tick
        final = max(now, ticks(end)) if end is not None else now
        track += _variable_length(final - now) + b"\xff\x2f\x00"
        with open(path, "wb") as f:
            f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, TICKS_PER_QUARTER))
            f.write(b"MTrk" + struct.pack(">I", len(track)) + track)
