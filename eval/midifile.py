"""Standard MIDI File reading for the real-recording corpus: every event with its absolute tick, the tempo map, the
time signatures, and the beats and bars they define; and writing a modified copy (cut, drums muted, programs
replaced) for fluidsynth.

Beats are the time signature's beat: a quarter note for n/4, a half note for n/2, a dotted quarter for 6/8, 9/8
and 12/8. Other x/8 signatures (3/8, 5/8, 7/8) and anything else are refused (`UnsupportedMeter`): their beat is
not defined by the signature alone. A bar starts at every time-signature event and every bar length after it.
"""

import bisect
import struct

from smf import _variable_length  # MIDI's variable-length quantity, written once


class UnsupportedMeter(Exception):
    pass


def _varlen(data, i):
    value = 0
    while True:
        b = data[i]
        i += 1
        value = (value << 7) | (b & 0x7F)
        if not b & 0x80:
            return value, i


class MidiFile:
    """`events`: (tick, track, order, status, data bytes) with running status expanded; meta events have status 0xFF
    and data = bytes([type]) + payload; sysex status 0xF0/0xF7 with the raw payload."""

    def __init__(self, path):
        data = open(path, "rb").read()
        if data[:4] != b"MThd":
            raise ValueError(f"{path}: not a Standard MIDI File")
        length, self.format, ntracks, self.division = struct.unpack(">IHHH", data[4:14])
        if self.division & 0x8000:
            raise ValueError(f"{path}: SMPTE time division")
        i = 8 + length
        self.events = []
        order = 0
        for track in range(ntracks):
            while data[i:i + 4] != b"MTrk":  # skip unknown chunks
                i += 8 + struct.unpack(">I", data[i + 4:i + 8])[0]
            size = struct.unpack(">I", data[i + 4:i + 8])[0]
            j, end, tick, status = i + 8, i + 8 + size, 0, None
            while j < end:
                delta, j = _varlen(data, j)
                tick += delta
                b = data[j]
                if b == 0xFF:
                    kind = data[j + 1]
                    n, k = _varlen(data, j + 2)
                    self.events.append((tick, track, order, 0xFF, bytes([kind]) + data[k:k + n]))
                    j = k + n
                    if kind == 0x2F:
                        break
                elif b in (0xF0, 0xF7):
                    n, k = _varlen(data, j + 1)
                    self.events.append((tick, track, order, b, data[k:k + n]))
                    j = k + n
                else:
                    if b & 0x80:
                        status = b
                        j += 1
                    size_of = 1 if status & 0xF0 in (0xC0, 0xD0) else 2
                    self.events.append((tick, track, order, status, bytes(data[j:j + size_of])))
                    j += size_of
                order += 1
            i = end
        self.events.sort(key=lambda e: (e[0], e[2]))
        self.ntracks = ntracks

    # ------------------------------------------------------------ tempo map and meter

    def tempos(self):
        """[(tick, microseconds per quarter)], starting at tick 0 (120 BPM until the first tempo event)."""
        out = [(0, 500_000)]
        for tick, _, _, status, data in self.events:
            if status == 0xFF and data[0] == 0x51 and len(data) == 4:
                value = int.from_bytes(data[1:4], "big")
                if out and out[-1][0] == tick:
                    out[-1] = (tick, value)
                else:
                    out.append((tick, value))
        return out

    def signatures(self):
        """[(tick, numerator, denominator)], 4/4 at tick 0 until the first time signature."""
        out = [(0, 4, 4)]
        for tick, _, _, status, data in self.events:
            if status == 0xFF and data[0] == 0x58 and len(data) >= 3:
                entry = (tick, data[1], 2 ** data[2])
                if out[-1][0] == tick:
                    out[-1] = entry
                else:
                    out.append(entry)
        return out

    def seconds(self, tick):
        """The time of `tick` in seconds, through the tempo map."""
        if not hasattr(self, "_map"):
            self._map, t, last_tick, last_tempo = [], 0.0, 0, 500_000
            for at, tempo in self.tempos():
                t += (at - last_tick) * last_tempo / 1e6 / self.division
                self._map.append((at, t, tempo))
                last_tick, last_tempo = at, tempo
            self._ticks = [m[0] for m in self._map]
        at, t, tempo = self._map[bisect.bisect_right(self._ticks, tick) - 1]
        return t + (tick - at) * tempo / 1e6 / self.division

    def beat_ticks(self, first_tick, end_tick):
        """(beats, downbeats) as ticks up to `end_tick`, from the time signatures. A signature whose beat is not
        defined (see the module's doc) raises UnsupportedMeter if it is in force anywhere from `first_tick` on;
        before that (a pickup bar of 1/8 before the first note) it only gives no beats."""
        sigs = self.signatures()
        beats, downbeats = [], []
        for n, (start, num, den) in enumerate(sigs):
            stop = min(sigs[n + 1][0] if n + 1 < len(sigs) else end_tick + 1, end_tick + 1)
            if den == 8 and num in (6, 9, 12):
                beat, per_bar = self.division * 3 // 2, num // 3
            elif den in (2, 4):
                beat, per_bar = self.division * 4 // den, num
            elif stop <= first_tick:
                continue
            else:
                raise UnsupportedMeter(f"{num}/{den}")
            k = 0
            while start + k * beat < stop:
                beats.append(start + k * beat)
                if k % per_bar == 0:
                    downbeats.append(start + k * beat)
                k += 1
        return beats, downbeats

    def notes(self):
        """[(tick, channel, key, velocity)] of the note-ons."""
        return [(tick, status & 0x0F, data[0], data[1]) for tick, _, _, status, data in self.events
                if status & 0xF0 == 0x90 and data[1] > 0]

    # ------------------------------------------------------------ writing a modified copy

    def write(self, path, end_tick=None, mute_channels=(), program=None):
        """A format 1 copy: events from `end_tick` on dropped (every sounding note off there), notes and controllers of
        `mute_channels` dropped, and every program change (and the start of every other channel) set to `program`
        when given. Tempo and time-signature events are kept as they are."""
        tracks, sounding = {}, set()
        for tick, track, _, status, data in self.events:
            if end_tick is not None and tick >= end_tick:
                continue
            if status & 0xF0 == 0x90 and data[1] > 0:
                sounding.add((status & 0x0F, data[0]))
            elif status & 0xF0 == 0x80 or status & 0xF0 == 0x90:
                sounding.discard((status & 0x0F, data[0]))
            if status == 0xFF and data[0] == 0x2F:
                continue
            if status < 0xF0:
                channel = status & 0x0F
                if channel in mute_channels:
                    continue
                if program is not None and status & 0xF0 == 0xC0:
                    data = bytes([program])
                # Bank selects would move the replaced program to another bank.
                if program is not None and status & 0xF0 == 0xB0 and data[0] in (0, 32):
                    continue
            tracks.setdefault(track, []).append((tick, status, data))
        extra = []
        if program is not None:
            extra += [(0, 0xC0 | ch, bytes([program])) for ch in range(16) if ch != 9 and ch not in mute_channels]
        if end_tick is not None:
            extra += [(end_tick, 0x80 | ch, bytes([key, 0])) for ch, key in sorted(sounding)
                      if ch not in mute_channels]
            extra += [(end_tick, 0xB0 | ch, bytes([123, 0])) for ch in range(16)]
        tracks.setdefault(-1, []).extend(extra)
        chunks = []
        for track in sorted(tracks):
            body, now = bytearray(), 0
            for tick, status, data in sorted(tracks[track], key=lambda e: e[0]):
                body += _variable_length(tick - now)
                now = tick
                if status == 0xFF:
                    body += bytes([0xFF, data[0]]) + _variable_length(len(data) - 1) + data[1:]
                elif status in (0xF0, 0xF7):
                    body += bytes([status]) + _variable_length(len(data)) + data
                else:
                    body += bytes([status]) + data
            body += b"\x00\xff\x2f\x00"
            chunks.append(b"MTrk" + struct.pack(">I", len(body)) + bytes(body))
        with open(path, "wb") as f:
            f.write(b"MThd" + struct.pack(">IHHH", 6, 1, len(chunks), self.division))
            for c in chunks:
                f.write(c)
