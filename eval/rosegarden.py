"""Rosegarden's example compositions as Standard MIDI Files, for the real-recording corpus.

Debian's rosegarden package (1:22.12.1-1) has no data files for its examples: they are compiled into the binary as
Qt resources (examples/*.rg, gzip-compressed Rosegarden XML). They are written music with an exact tempo map and
time signatures, so their beats are known exactly. This module finds them through the binary's Qt resource tables,
reads each composition the way Rosegarden itself does, and writes what Rosegarden's sequencer would play as a
format 1 SMF (960 ticks per quarter, Rosegarden's own time unit, so its times are the file's ticks). midifile.py
then derives the beats from the tempo map and the time signatures as for any other MIDI file.

The Rosegarden semantics followed here were read in Rosegarden's source (github tedfelix/rosegarden, a 2021 snapshot;
the functions named in the comments). Known departures from Rosegarden's playback:
- a note that triggers an ornament (a triggered segment) sounds as the plain note: the ornament is not expanded;
- soft-synth (plugin) instruments get a free General MIDI channel and no program change; a percussion instrument
  is moved to channel 9 and gets no bank select, for a General MIDI synthesiser;
- only notes, controllers, pitch bends and program changes are played (no text, sysex or aftertouch), and the
  instruments' static controllers, bank and program are sent once at tick 0.

`python3 eval/rosegarden.py [BINARY] [--out DIR]` lists the examples (and writes DIR/NAME.mid).
"""

import hashlib
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from smf import _variable_length  # noqa: E402

BINARY = "/usr/bin/rosegarden"
DIVISION = 960  # Rosegarden's duration of a crotchet (Note(Note::Crotchet).getDuration() in NotationTypes.cpp)
SHORTEST = 60  # Note(Note::Shortest): a 64th note
RAMP_STEP = 60  # ticks per tempo step written for a tempo ramp
DEFAULT_TEMPO = 12_000_000  # Composition::getTempoForQpm(120.0): Rosegarden's tempo unit is 1/100000 quarter per minute
PERCUSSION = 9


# ---------------------------------------------------------------- Qt resources in the binary

def _qt_hash(name):
    """qt_hash() of a resource name, as rcc stores it before the name."""
    h = 0
    for c in name:
        h = (h << 4) + ord(c)
        h ^= (h & 0xF0000000) >> 23
        h &= 0x0FFFFFFF
    return h


def _name_record(name):
    """A name as rcc writes it in qt_resource_name: 2-byte length, 4-byte hash, UTF-16BE characters."""
    return struct.pack(">HI", len(name), _qt_hash(name)) + name.encode("utf-16-be")


def _read_name(data, at):
    """The name of the record at `at`, or None if no valid record is there."""
    if at < 0 or at + 6 > len(data):
        return None
    n, h = struct.unpack_from(">HI", data, at)
    try:
        name = data[at + 6:at + 6 + 2 * n].decode("utf-16-be")
    except UnicodeDecodeError:
        return None
    return name if len(name) == n and _qt_hash(name) == h else None


class _Tree:
    """One rcc tree (qt_resource_struct) in the binary: entries of 14 bytes (format 1) or 22 (formats 2 and 3, with
    a last-modified time): name offset u32, flags u16 (2 = directory, 1 = zlib-compressed), then for a directory
    its child count u32 and first child u32, for a file country u16, language u16, data offset u32."""

    def __init__(self, data, at, size):
        self.data, self.at, self.size = data, at, size

    def entry(self, k):
        name, flags, a, b = struct.unpack_from(">IHII", self.data, self.at + self.size * k)
        if flags & 2:
            return name, flags, a, b  # child count, first child
        return name, flags, b, None  # (country and language in a), data offset

    def children(self, k):
        _, flags, count, first = self.entry(k)
        if flags & 2 and (count > 100_000 or first <= k):
            raise ValueError("not an rcc tree")  # garbage read as a tree: children always come after their parent
        return range(first, first + count) if flags & 2 else range(0)

    def files(self, name_base, k=0, prefix=""):
        """{path: (flags, data offset)} below entry `k`, names read from the name table at `name_base`."""
        out = {}
        for child in self.children(k):
            name, flags, offset, _ = self.entry(child)
            path = prefix + "/" + _read_name(self.data, name_base + name)
            if flags & 2:
                out.update(self.files(name_base, child, path))
            else:
                out[path] = (flags, offset)
        return out


def _trees(data):
    """Every plausible rcc tree: a root entry (name 0, directory, first child 1), in either entry size."""
    for m in re.finditer(rb"\x00\x00\x00\x00\x00\x02(.{4})\x00\x00\x00\x01", data, re.S):
        if 0 < int.from_bytes(m.group(1), "big") < 4096:
            for size in (22, 14):
                yield _Tree(data, m.start(), size)


def _name_base(tree, anchors):
    """The start of the tree's name table: one of the root's children is a directory named "examples" whose name
    record is at one of `anchors`; the base must then give every entry a name with a valid hash."""
    for k in tree.children(0):
        name, flags, _, _ = tree.entry(k)
        for anchor in anchors:
            base = anchor - name
            try:
                if _read_name(tree.data, base + name) == "examples" and tree.files(base):
                    return base
            except (TypeError, ValueError, struct.error, RecursionError):
                continue
    return None


def _data_base(data, files, gzip_starts):
    """The start of qt_resource_data: each file's data is a 4-byte big-endian length and its bytes, and every
    examples/*.rg file is a gzip stream (found at one of `gzip_starts`)."""
    rg = [offset for path, (flags, offset) in files.items() if path.startswith("/examples/") and path.endswith(".rg")]
    if not rg:
        return None
    first = min(rg)
    for start in gzip_starts:
        base = start - 4 - first
        if all(data[base + o + 4:base + o + 7] == b"\x1f\x8b\x08" for o in rg):
            return base
    return None


def resources(binary=BINARY):
    """{resource path: bytes} of the Qt resource tree that holds the examples (paths like /examples/Romanza.rg).
    Raises ValueError if the binary has no such tree."""
    with open(binary, "rb") as f:
        data = f.read()
    anchors = [m.start() for m in re.finditer(re.escape(_name_record("examples")), data)]
    gzip_starts = [m.start() for m in re.finditer(rb"\x1f\x8b\x08", data)]
    for tree in _trees(data):
        base = _name_base(tree, anchors)
        if base is None:
            continue
        files = tree.files(base)
        data_base = _data_base(data, files, gzip_starts)
        if data_base is None:
            continue
        out = {}
        for path, (flags, offset) in files.items():
            at = data_base + offset
            length = struct.unpack_from(">I", data, at)[0]
            blob = data[at + 4:at + 4 + length]
            if flags & 1:  # qCompress: 4-byte uncompressed length, then a zlib stream
                blob = zlib.decompress(blob[4:])
            elif flags & ~2:
                continue  # zstd (Qt 6): not needed for the examples
            out[path] = blob
        return out
    raise ValueError(f"{binary}: no Qt resource tree with an examples directory found")


def documents(binary=BINARY):
    """[(resource path, XML text)] of every Rosegarden document among the resources (examples, templates,
    autoload, regression tests, device library), gunzipped."""
    out = []
    for path, blob in sorted(resources(binary).items()):
        if blob[:3] == b"\x1f\x8b\x08":
            blob = zlib.decompress(blob, 16 + 15)
        if b"<!DOCTYPE rosegarden-data>" in blob[:300]:
            out.append((path, blob.decode("utf-8")))
    return out


def examples(binary=BINARY):
    """[(name, XML text)] of the example compositions (resource examples/NAME.rg), identical contents once."""
    out, seen = [], set()
    for path, text in documents(binary):
        folder, _, file = path[1:].partition("/")
        digest = hashlib.sha1(text.encode("utf-8")).digest()
        if folder == "examples" and file.endswith(".rg") and digest not in seen:
            seen.add(digest)
            out.append((file[:-3], text))
    return out


# ---------------------------------------------------------------- reading a composition as Rosegarden does

def _qt_int(text, default=0):
    """QString::toInt: the integer, or `default` when the text is not one."""
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


class Event:
    """A segment's event: its type, time, duration, sub-ordering and properties (name: bool, int or str)."""

    def __init__(self, kind, time, duration, sub, props, order):
        self.kind, self.time, self.duration, self.sub, self.props, self.order = \
            kind, time, duration, sub, props, order

    def is_note(self):
        return self.kind == "note"

    def flag(self, name):
        """Event::get<Bool>: the property's value when it is a bool, else False."""
        return self.props.get(name) is True

    def notation_time(self):
        """Event::getNotationAbsoluteTime: the !notationtime property, else the time."""
        return self.props.get("!notationtime", self.time)

    def notation_duration(self):
        return self.props.get("!notationduration", self.duration)


def _generic_property(value):
    """An attribute that is not one of the event's own, as XmlStorableEvent stores it: bool, int, else string."""
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    try:
        return int(value)
    except ValueError:
        return value


def _read_event(element, now, order):
    """(Event, the running time after its attributes). XmlStorableEvent::XmlStorableEvent: the event starts at the
    running time; absoluteTime="T" sets the running time to T (composition time, not relative to the segment),
    timeOffset="D" adds D to it; both change the running time itself, which matters inside a chord. Then
    XmlStorableEvent::setPropertyFromAttributes for each <property>/<nproperty> (the first of bool, int, string)."""
    kind, duration, sub, props = "", 0, 0, {}
    for name, value in element.attrib.items():
        if name == "type":
            kind = value
        elif name == "subordering":
            sub = _qt_int(value)
        elif name == "duration":
            if not re.fullmatch(r"-?\d+", value):
                raise ValueError(f"note-name duration {value!r} not supported")
            duration = int(value)
        elif name == "absoluteTime":
            now = _qt_int(value, now)
        elif name == "timeOffset":
            now += _qt_int(value)
        elif name != "package":
            props[name] = _generic_property(value)
    for child in element:
        if child.tag in ("property", "nproperty") and child.get("name"):
            for kind_of in ("bool", "int", "string"):
                value = child.get(kind_of)
                if value is not None:
                    props[child.get("name")] = (value.lower() == "true" if kind_of == "bool" else
                                                _qt_int(value) if kind_of == "int" else value)
                    break
    return Event(kind, now, duration, sub, props, order), now


class Segment:
    """A <segment>: its events in Rosegarden's order and the timing attributes the sequencer uses."""

    def __init__(self, element):
        a = element.attrib
        self.track = _qt_int(a.get("track"), -1)
        self.label = a.get("label", "")
        self.audio = a.get("type", "").lower() == "audio"
        self.triggered = "triggerid" in a  # an ornament, played only through the notes that trigger it
        self.repeating = a.get("repeat", "").lower() == "true"
        self.delay = _qt_int(a.get("delay"))
        self.transpose = _qt_int(a.get("transpose"))
        # Segment::setRealTimeDelay from rtdelaysec with rtdelaynsec (or rtdelayusec), as RoseXmlHandler reads it
        if "rtdelaysec" in a and ("rtdelaynsec" in a or "rtdelayusec" in a):
            fraction = _qt_int(a["rtdelaynsec"]) / 1e9 if "rtdelaynsec" in a else _qt_int(a["rtdelayusec"]) / 1e6
            self.real_delay = _qt_int(a["rtdelaysec"]) + fraction
        else:
            self.real_delay = 0.0
        start = _qt_int(a.get("start"))
        self.events = self._read_events(element, start)
        # Segment::insert: the first event inserted sets the start time, an earlier one moves it back; the end time
        # is the latest end (for notes the greater of the performed and the notated duration).
        self.start = min((e.time for e in self.events), default=start)
        self.end = max((e.time + (max(e.duration, e.notation_duration()) if e.is_note() else e.duration)
                        for e in self.events), default=0)
        # RoseXmlHandler::endElement("segment"): an end marker at or before the start is moved to start + a 64th
        # (Segment::setEndMarkerTime first raises it to the start).
        self.end_marker = None
        if "endmarker" in a:
            self.end_marker = max(_qt_int(a["endmarker"]), self.start)
            if self.end_marker <= self.start:
                self.end_marker = self.start + SHORTEST

    @staticmethod
    def _read_events(element, start):
        """RoseXmlHandler::startElement/endElement: the running time starts at the segment's start and each event
        outside a chord moves it to the event's end. Inside a <chord> every event starts at the running time and
        the chord moves it on by the shortest non-zero duration among its events. <group> (deprecated) only tags
        beamed groups; <resync time=T> (deprecated) sets the running time. The events are then kept in
        Segment order: by time, then sub-ordering, equal ones in insertion order (a std::multiset)."""
        events, now, order = [], start, 0

        def visit(parent, in_chord):
            nonlocal now, order
            shortest = 0
            for child in parent:
                if child.tag == "event":
                    event, now = _read_event(child, now, order)
                    order += 1
                    events.append(event)
                    if not in_chord:
                        now = event.time + event.duration
                    elif event.duration != 0 and (shortest == 0 or event.duration < shortest):
                        shortest = event.duration
                elif child.tag == "chord":
                    chord = visit(child, True)  # (visit moves `now` itself: add after it returns)
                    now += chord
                elif child.tag == "group":
                    shortest = min(filter(None, (shortest, visit(child, in_chord))), default=0)
                elif child.tag == "resync" and re.fullmatch(r"-?\d+", child.get("time", "")):
                    now = int(child.get("time"))
            return shortest

        visit(element, False)
        events.sort(key=lambda e: (e.time, e.sub, e.order))
        return events


class Composition:
    """A Rosegarden document's composition and the studio's instruments, as RoseXmlHandler reads them."""

    def __init__(self, xml_text):
        root = ET.fromstring(xml_text)
        comp = root.find("composition")
        if comp is None:
            raise ValueError("no <composition>")
        meta = comp.find("metadata")
        titles = [p.get("value", "") for p in (meta if meta is not None else []) if p.get("name") == "title"]
        self.title = titles[0] if titles else ""
        self.start_marker = _qt_int(comp.get("startMarker"))
        self.default_tempo = (_qt_int(comp.get("compositionDefaultTempo")) if comp.get("compositionDefaultTempo")
                              else int(float(comp.get("defaultTempo", "120")) * 100000 + 0.01))
        self.tracks = {}
        for t in comp.iter("track"):
            self.tracks[_qt_int(t.get("id"))] = {
                "label": t.get("label", ""), "position": _qt_int(t.get("position")),
                "instrument": _qt_int(t.get("instrument")), "muted": t.get("muted") == "true",
                "archived": t.get("archived") == "true", "solo": t.get("solo") == "true"}
        # Composition::addTimeSignature / addTempoAtTime go into a ReferenceSegment, where a later event at the
        # same time replaces the earlier one.
        self.signatures = dict(sorted(
            (_qt_int(s.get("time")), (_qt_int(s.get("numerator"), 4), _qt_int(s.get("denominator"), 4)))
            for s in comp.iter("timesignature")))
        self.tempos = {}
        for t in comp.iter("tempo"):
            self.tempos[_qt_int(t.get("time"))] = self._tempo(t)
        self.tempos = dict(sorted(self.tempos.items()))
        self.segments = [Segment(s) for s in root.iter("segment")]
        ends = [s.end_marker if s.end_marker is not None else s.end for s in self.segments]
        self.end_marker = _qt_int(comp.get("endMarker"), max(ends, default=0))
        self.instruments = {}
        for i in root.iter("instrument"):
            self.instruments[_qt_int(i.get("id"))] = self._instrument(i)

    @staticmethod
    def _tempo(element):
        """RoseXmlHandler's <tempo>: `tempo` in 1/100000 quarter per minute, else `bph` (quarters per hour) / 60
        as quarters per minute; `target` only on ramps (Composition::toXmlString writes it when >= 0): 0 ramps to
        the next tempo, > 0 ramps to that tempo (Composition::getTempoTarget)."""
        if element.get("tempo"):
            tempo = _qt_int(element.get("tempo"))
        elif element.get("bph"):
            tempo = int(_qt_int(element.get("bph")) / 60 * 100000 + 0.01)
        else:
            tempo = DEFAULT_TEMPO
        return tempo, _qt_int(element.get("target"), -1) if element.get("target") is not None else -1

    @staticmethod
    def _instrument(element):
        """An <instrument>: type, natural channel, bank and program with their send flags (absent send means
        send, for files older than 1.6), percussion (from its <bank>) and static controllers."""
        bank, program = element.find("bank"), element.find("program")
        controls = [(_qt_int(c.get("type")), _qt_int(c.get("value"))) for c in element.iter("controlchange")]
        if not controls:  # the deprecated <volume> and <pan> (RoseXmlHandler::endElement("instrument"))
            for tag, number in (("volume", 7), ("pan", 10)):
                if element.find(tag) is not None:
                    controls.append((number, _qt_int(element.find(tag).get("value"))))
        return {
            "type": element.get("type"), "channel": _qt_int(element.get("channel")),
            "percussion": bank is not None and bank.get("percussion", "").lower() == "true",
            "bank": ((_qt_int(bank.get("msb")), _qt_int(bank.get("lsb")))
                     if bank is not None and bank.get("send", "").lower() != "false" else None),
            "program": (_qt_int(program.get("id"))
                        if program is not None and program.get("send", "").lower() != "false" else None),
            "controls": [(n, v) for n, v in controls if 0 <= n < 128 and 0 <= v < 128]}

    # ------------------------------------------------------------ tempo

    def ramp(self, times, k):
        """(target tempo, target time) of the k-th tempo change if it ramps, else None. Composition::getTempoTarget:
        target 0 ramps to the next change's tempo (no ramp on the last one), target > 0 ramps to it, until the next
        change or, on the last one, the end marker."""
        tempo, target = self.tempos[times[k]]
        if target < 0:
            return None
        if k + 1 < len(times):
            if target == 0:
                target = self.tempos[times[k + 1]][0]
            until = times[k + 1]
        else:
            until = self.end_marker
            if until < times[k]:
                return None
        return (target, until) if target > 0 and until > times[k] and target != tempo else None

    def tempo_steps(self, origin, end):
        """[(time, seconds per tick)] from `origin` to `end`, constant until the next step. Before the first
        change the tempo is the default one, or for negative times the first change's when that is at or before 0
        (Composition::getElapsedRealTime, calculateTempoTimestamps). A ramp is linear in seconds per tick
        (Composition::time2RealTime with a target); it is written as steps of RAMP_STEP ticks, each with the
        ramp's mean over the step, so the time of every step boundary is exact (to the microsecond of a MIDI
        tempo) and a time within a step is off by at most |s1 - s0| / (ramp length) * RAMP_STEP ** 2 / 8 seconds
        (0.06 ms for a ramp from 120 to 60 BPM over a 4/4 bar)."""
        def spt(tempo):
            return 60.0 / (tempo / 100000.0) / DIVISION

        times = list(self.tempos)
        if not times:
            return [(origin, spt(self.default_tempo))]
        first = self.tempos[times[0]][0] if times[0] <= 0 else self.default_tempo
        steps = [(origin, spt(first))] if origin < times[0] else []
        for k, t in enumerate(times):
            if t >= end:
                break
            stop = times[k + 1] if k + 1 < len(times) else end
            ramp = self.ramp(times, k)
            tempo = self.tempos[t][0]
            if ramp is None:
                steps.append((t, spt(tempo)))
                continue
            target, until = ramp
            a, b = spt(tempo), spt(target)
            u = t
            while u < min(stop, end):
                v = min(u + RAMP_STEP, stop)
                middle = (u + v) / 2
                steps.append((u, a + (b - a) * (middle - t) / (until - t)))
                u = v
        before = [s for s in steps if s[0] <= origin]
        return ([(origin, before[-1][1])] if before else []) + [s for s in steps if s[0] > origin]

    # ------------------------------------------------------------ what the sequencer plays

    def segment_end(self, segment):
        """Segment::getEndMarkerTime(): the end marker, else the end time, no later than the composition's."""
        own = segment.end_marker if segment.end_marker is not None else segment.end
        return min(own, self.end_marker)

    def repeat_end(self, segment):
        """Segment::getRepeatEndTime: a repeating segment repeats until the start of the next segment on its
        track (one that ends after it), or the composition's end marker; not at all if such a segment starts
        before its end marker."""
        end_marker = self.segment_end(segment)
        if not segment.repeating:
            return end_marker
        until = self.end_marker
        for other in self.segments:
            if other.track != segment.track or other.triggered or other.audio:
                continue
            start, stop = other.start, self.segment_end(other)
            if stop > end_marker and start < until:
                if start < end_marker:
                    return end_marker
                until = start
        return until

    def playing_tracks(self):
        """{track id: track} of the tracks the sequencer plays: not muted or archived, and the soloed ones if any
        track is soloed."""
        tracks = {k: t for k, t in self.tracks.items() if not t["muted"] and not t["archived"]}
        if any(t["solo"] for t in tracks.values()):
            tracks = {k: t for k, t in tracks.items() if t["solo"]}
        return tracks

    def performance(self, segment):
        """[(time, duration, event, pitch)] of one segment as InternalSegmentMapper::fillBuffer plays it (times in
        composition ticks, before the segment's real-time delay): events up to the end marker
        (Segment::isBeforeEndMarker), rests skipped, each at its sounding time and for its sounding duration
        (SegmentPerformanceHelper: ties merged, grace notes), notes of zero sounding duration skipped, cut at the
        repeat end; repeated `repeat count` more times one segment length later each; then the segment's delay
        added and notes transposed."""
        end_marker = self.segment_end(segment)
        length = end_marker - segment.start
        repeat_end, repeats = end_marker, 0
        if segment.repeating and length > 0:  # SegmentMapper::getSegmentRepeatCount
            repeat_end = self.repeat_end(segment)
            repeats = 1 + (repeat_end - end_marker) // length
        helper = _Performer(segment.events)
        out = []
        for repeat in range(repeats + 1):
            shift = repeat * length
            for k, event in enumerate(segment.events):
                if not (event.time < end_marker or (event.time == end_marker and event.duration == 0)):
                    break
                if event.kind == "rest":
                    continue
                # A note with a triggersegmentid property is replaced by its ornament (TriggerSegmentRec::
                # ExpandInto); not expanded here: the note sounds plain.
                play = helper.sounding_time(k) + shift
                if play >= repeat_end:
                    break
                duration = helper.sounding_duration(k)
                if duration > 0 or not event.is_note():
                    duration = min(duration, repeat_end - play)
                    pitch = event.props.get("pitch")
                    if event.is_note() and isinstance(pitch, int):
                        pitch += segment.transpose
                    out.append((play + segment.delay, duration, event, pitch))
        return out


class _Performer:
    """SegmentPerformanceHelper over one segment's events (by index): sounding times and durations. Like
    Rosegarden's, it sets and clears properties as it goes (MayHaveGraceNotes, invalid ties), so it is asked in
    the sequencer's order."""

    def __init__(self, events):
        self.events = events

    def tied_notes(self, i):
        """SegmentPerformanceHelper::getTiedNotes: [] for a note validly tied back (it does not sound); else the
        note and the notes tied on from it: the next note of the same pitch starting at its notated end and tied
        back, and so on while tied forward. An invalid tie's property is cleared."""
        ev = self.events
        e = ev[i]
        if not e.is_note() or not isinstance(e.props.get("pitch"), int):
            return [i]
        pitch, t, d = e.props["pitch"], e.notation_time(), e.notation_duration()
        if e.flag("tiedback"):
            for j in range(i - 1, -1, -1):
                p = ev[j]
                if not p.is_note():
                    continue
                end = p.notation_time() + p.notation_duration()
                if end < t:
                    break
                if end > t or p.props.get("pitch") != pitch:
                    continue
                if p.flag("tiedforward"):
                    return []
                break
            e.props.pop("tiedback", None)
            return [i]
        if not e.flag("tiedforward"):
            return [i]
        chain, j = [i], i
        while True:
            j += 1
            while j < len(ev) and not ev[j].is_note():
                j += 1
            if j == len(ev):
                return chain
            n = ev[j]
            if n.notation_time() > t + d:
                break
            if n.notation_time() < t + d or n.props.get("pitch") != pitch:
                continue
            if not n.flag("tiedback"):
                break
            d += n.notation_duration()
            chain.append(j)
            if not n.flag("tiedforward"):
                return chain
        if len(chain) == 1:
            e.props.pop("tiedforward", None)
        return chain

    def grace_and_hosts(self, i):
        """SegmentPerformanceHelper::getGraceAndHostNotes: (grace notes, host notes, whether i is a host) of the
        grace-note group around note i, or None. Grace notes have negative sub-orderings and come before their
        host notes at the same notated time."""
        ev = self.events
        e = ev[i]
        if not e.is_note():
            return None
        host = i
        if e.flag("IsGraceNote"):
            for j in range(i + 1, len(ev)):
                if ev[j].notation_time() > e.notation_time():
                    break
                if ev[j].sub < 0:
                    continue
                if ev[j].is_note():
                    host = j
                    break
            if host == i:
                return None
        else:
            for j in range(i - 1, -1, -1):
                if ev[j].notation_time() < e.notation_time() or ev[j].sub < e.sub:
                    break
                if ev[j].is_note():
                    host = j
                    break
        if ev[host].sub < 0:
            return None
        first = i
        for j in range(host - 1, -1, -1):
            if ev[j].notation_time() < ev[host].notation_time():
                break
            if ev[j].sub >= 0 or not ev[j].is_note():
                continue
            if not ev[j].flag("IsGraceNote"):
                break
            first = j
        if first == host:
            return None
        graces, hosts, is_host = [], [], False
        for j in range(first, len(ev)):
            if ev[j].is_note():
                if ev[j].sub < 0:
                    if ev[j].flag("IsGraceNote"):
                        graces.append(j)
                else:
                    hosts.append(j)
                    is_host = is_host or j == i
            if ev[j].notation_time() > ev[host].notation_time():
                break
        return graces, hosts, is_host

    def grace_timing(self, i):
        """SegmentPerformanceHelper::getGraceNoteTimeAndDuration: (time, duration) of a grace note or its host, or
        None. The grace notes take a quarter of the host's notated duration (at most half its shortest performed
        duration) from the host's start, shared equally by the grace chords in order; the host starts that much
        later and is as much shorter."""
        found = self.grace_and_hosts(i)
        if found is None:
            return None
        graces, hosts, is_host = found
        ev = self.events
        if (not is_host and not ev[i].flag("IsGraceNote")) or not hosts or not graces:
            return None
        earliest = min(ev[j].time for j in hosts)
        shortest = min(ev[j].duration for j in hosts)
        notated = max(ev[j].notation_duration() for j in hosts)
        for j in hosts:
            ev[j].props["MayHaveGraceNotes"] = True
        span = min(_cdiv(notated, 4), _cdiv(shortest, 2))
        if is_host:
            return ev[i].time + span, ev[i].duration - span
        count = index = 0
        found_i, previous = False, 0
        for j in graces:
            new_chord = ev[j].sub != previous
            if new_chord:
                previous = ev[j].sub
                count += 1
            found_i = found_i or j == i
            if not found_i and new_chord:
                index += 1
        if index == count:
            index = 0
        d = _cdiv(span, max(count, 1))
        return earliest + d * index, d

    def sounding_time(self, i):
        """SegmentPerformanceHelper::getSoundingAbsoluteTime."""
        e = self.events[i]
        if "IsGraceNote" in e.props or "MayHaveGraceNotes" in e.props:
            timing = self.grace_timing(i)
            if timing:
                return timing[0]
        return e.time

    def sounding_duration(self, i):
        """SegmentPerformanceHelper::getSoundingDuration: grace timing, else 0 for a note validly tied back, the
        chain's total for one tied forward, else the event's own duration."""
        e = self.events[i]
        if "IsGraceNote" in e.props or "MayHaveGraceNotes" in e.props:
            timing = self.grace_timing(i)
            if timing:
                return timing[1]
        if "tiedback" in e.props and not self.tied_notes(i):
            return 0
        if "tiedforward" not in e.props or not e.is_note():
            return e.duration
        return sum(self.events[j].duration for j in self.tied_notes(i))


def _cdiv(a, b):
    """C++ integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


# ---------------------------------------------------------------- to MIDI

class _TempoMap:
    """Seconds from tick 0 through [(tick, microseconds per quarter)], and back."""

    def __init__(self, tempos):
        self.points, t = [], 0.0
        for k, (tick, usec) in enumerate(tempos):
            if k:
                previous_tick, previous_usec = tempos[k - 1]
                t += (tick - previous_tick) * previous_usec / 1e6 / DIVISION
            self.points.append((tick, t, usec))

    def seconds(self, tick):
        at, t, usec = max((p for p in self.points if p[0] <= tick), default=self.points[0], key=lambda p: p[0])
        return t + (tick - at) * usec / 1e6 / DIVISION

    def tick(self, seconds):
        at, t, usec = max((p for p in self.points if p[1] <= seconds), default=self.points[0], key=lambda p: p[1])
        return at + (seconds - t) * 1e6 * DIVISION / usec


def _channels(composition, instrument_ids):
    """{instrument id: (channel, instrument)}: percussion (flagged, or on channel 9) on 9; the others on their own
    channel when it is free, else the lowest free one. Instruments missing from the studio are General MIDI ones
    (ids from 2000 on channels id - 2000), soft synths get a free channel and no program."""
    found = {}
    for iid in instrument_ids:
        inst = composition.instruments.get(iid)
        if inst is None:
            inst = {"type": "midi" if iid >= 2000 else "softsynth", "channel": (iid - 2000) % 16,
                    "percussion": False, "bank": None, "program": None, "controls": []}
        if inst["type"] != "midi":
            inst = dict(inst, channel=-1, percussion=False, bank=None, program=None, controls=[])
        found[iid] = inst
    chosen, used = {}, set()
    for iid in sorted(found, key=lambda i: (found[i]["channel"] < 0, i)):  # MIDI instruments choose first
        inst = found[iid]
        if inst["percussion"] or inst["channel"] == PERCUSSION:
            chosen[iid] = (PERCUSSION, dict(inst, percussion=True))
            continue
        channel = inst["channel"]
        if not 0 <= channel < 16 or channel in used or channel == PERCUSSION:
            free = [c for c in range(16) if c not in used and c != PERCUSSION]
            if not free:
                raise ValueError("more than 15 melodic instruments")
            channel = free[0]
        used.add(channel)
        chosen[iid] = (channel, inst)
    return chosen


def render(xml_text, real_time_delays=True):
    """What the sequencer plays: {"title", "tempos": [(tick, usec per quarter)], "signatures": [(tick, num, den)],
    "tracks": [(label, channel, instrument, [(tick, order, bytes)])], "origin", "end": last tick}. Tick 0 is the
    composition's start marker when that is negative (a count-in or pickup bar), else its time 0; events before
    the start marker are not played. Without `real_time_delays`, segments' real-time delays (20 ms in
    ravel-pc-gmaj-adagio, 10 ms in the-rose-garden: they move the notes off the tempo map's grid) are left out."""
    comp = Composition(xml_text)
    origin = min(0, comp.start_marker)
    tracks = comp.playing_tracks()
    played = {}  # track id -> [(time, duration, event, pitch, real delay)]
    for segment in comp.segments:
        if segment.audio or segment.triggered or segment.track not in tracks:
            continue
        for time, duration, event, pitch in comp.performance(segment):
            if time >= comp.start_marker:
                delay = segment.real_delay if real_time_delays else 0.0
                played.setdefault(segment.track, []).append((time, duration, event, pitch, delay))
    played = {k: v for k, v in played.items() if any(p[2].is_note() for p in v)}
    last = max((p[0] + max(p[1], 0) for v in played.values() for p in v), default=0)
    end = max(comp.end_marker, last)
    steps = comp.tempo_steps(origin, end)
    tempos = []
    for time, spt in steps:
        usec = int(round(spt * DIVISION * 1e6))
        if not tempos or tempos[-1][1] != usec:
            tempos.append((time - origin, usec))
    tempo_map = _TempoMap(tempos)
    signatures = []
    for time, (num, den) in comp.signatures.items():
        tick = max(time - origin, 0)
        if signatures and signatures[-1][0] == tick:
            signatures.pop()
        signatures.append((tick, num, den))
    channels = _channels(comp, {tracks[k]["instrument"] for k in played})
    out_tracks = []
    for track_id in sorted(played, key=lambda k: (tracks[k]["position"], k)):
        channel, inst = channels[tracks[track_id]["instrument"]]
        events = _setup(channel, inst)
        for time, duration, event, pitch, real_delay in played[track_id]:
            events += _midi_events(channel, time - origin, duration, event, pitch, real_delay, tempo_map)
        out_tracks.append((tracks[track_id]["label"], channel, inst, sorted(events, key=lambda e: e[:2])))
    end_tick = max((e[0] for t in out_tracks for e in t[3]), default=0)
    return {"title": comp.title, "tempos": tempos, "signatures": signatures, "tracks": out_tracks,
            "origin": origin, "end": end_tick, "composition": comp}


def _setup(channel, inst):
    """An instrument's channel setup at tick 0 (the ChannelManager's before the first event): bank select (not for
    percussion), program change, static controllers."""
    out = []
    if inst["bank"] is not None and not inst["percussion"]:
        out += [(0, 1, bytes([0xB0 | channel, 0, inst["bank"][0] & 0x7F])),
                (0, 1, bytes([0xB0 | channel, 32, inst["bank"][1] & 0x7F]))]
    if inst["program"] is not None:
        out.append((0, 1, bytes([0xC0 | channel, inst["program"] & 0x7F])))
    out += [(0, 1, bytes([0xB0 | channel, n, v])) for n, v in inst["controls"]]
    return out


def _midi_events(channel, tick, duration, event, pitch, real_delay, tempo_map):
    """[(tick, order, bytes)] of one played event (order: note-offs, then controls, then note-ons at one tick, as
    the mapper sends note-offs first). A real-time delay moves the event by that many seconds through the tempo
    map (InternalSegmentMapper::toRealTime)."""
    def at(t):
        return int(round(tempo_map.tick(tempo_map.seconds(t) + real_delay))) if real_delay else t

    props = event.props
    if event.is_note():
        velocity = props.get("velocity", 127)  # MappedEvent: MidiMaxValue when absent
        if not isinstance(pitch, int) or not 0 <= pitch < 128 or not isinstance(velocity, int) or velocity <= 0:
            return []
        on, off = at(tick), at(tick + duration)
        return [(on, 2, bytes([0x90 | channel, pitch, min(velocity, 127)])),
                (max(off, on + 1), 0, bytes([0x80 | channel, pitch, 0]))]
    values = [props.get(k) for k in {"controller": ("number", "value"), "pitchbend": ("lsb", "msb"),
                                      "programchange": ("program",)}.get(event.kind, ())]
    if not values or not all(isinstance(v, int) for v in values):
        return []
    status = {"controller": 0xB0, "pitchbend": 0xE0, "programchange": 0xC0}[event.kind]
    return [(at(tick), 1, bytes([status | channel] + [v & 0x7F for v in values]))]


def _chunk(events):
    """An MTrk chunk of (tick, order, bytes) events (meta events as 0xFF bytes), with its end of track."""
    body, now = bytearray(), 0
    for tick, _, data in events:
        body += _variable_length(tick - now) + data
        now = tick
    body += b"\x00\xff\x2f\x00"
    return b"MTrk" + struct.pack(">I", len(body)) + bytes(body)


def _meta(kind, payload):
    return bytes([0xFF, kind]) + _variable_length(len(payload)) + payload


def smf_bytes(xml_text, real_time_delays=True):
    """(bytes, render()'s result): the composition as a format 1 SMF at 960 ticks per quarter: track 0 with the
    title, tempo and time signatures; then one track per played Rosegarden track with notes, on its instrument's
    channel."""
    song = render(xml_text, real_time_delays)
    conductor = [(0, 0, _meta(0x03, song["title"].encode("utf-8")))]
    for tick, num, den in song["signatures"]:
        if den & (den - 1) or den <= 0:
            raise ValueError(f"time signature {num}/{den}")
        conductor.append((tick, 1, _meta(0x58, bytes([num, den.bit_length() - 1, 24, 8]))))
    conductor += [(tick, 2, _meta(0x51, usec.to_bytes(3, "big"))) for tick, usec in song["tempos"]]
    chunks = [_chunk(sorted(conductor, key=lambda e: e[:2]))]
    for label, _, _, events in song["tracks"]:
        chunks.append(_chunk([(0, -1, _meta(0x03, label.encode("utf-8")))] + events))
    return b"MThd" + struct.pack(">IHHH", 6, 1, len(chunks), DIVISION) + b"".join(chunks), song


def to_smf(xml_text, out_path, real_time_delays=True):
    """Write smf_bytes() to `out_path`; returns render()'s result."""
    data, song = smf_bytes(xml_text, real_time_delays)
    with open(out_path, "wb") as f:
        f.write(data)
    return song


# ---------------------------------------------------------------- listing

def summary(name, xml_text):
    """One line about an example: title, meters, tempo changes and ramps, tracks (channel:program), notes,
    length."""
    song = render(xml_text)
    comp = song["composition"]
    times = list(comp.tempos)
    ramps = sum(comp.ramp(times, k) is not None for k in range(len(times)))
    meters = []
    for _, num, den in song["signatures"]:
        if f"{num}/{den}" not in meters:
            meters.append(f"{num}/{den}")
    notes = sum(1 for t in song["tracks"] for e in t[3] if e[2][0] & 0xF0 == 0x90)
    tracks = " ".join(f"{label or '?'}={channel}:{'-' if inst['program'] is None else inst['program']}"
                      + ("(synth)" if inst["type"] != "midi" else "") for label, channel, inst, _ in song["tracks"])
    seconds = _TempoMap(song["tempos"]).seconds(song["end"])
    return (f"{name}: {comp.title!r}, {' '.join(meters) or '4/4'}, {len(times)} tempo events"
            + (f" ({ramps} ramps)" if ramps else "") + f", {notes} notes, {seconds:.1f} s; tracks {tracks}")


def main():
    import argparse
    parser = argparse.ArgumentParser(description="List Rosegarden's built-in examples (and write them as MIDI).")
    parser.add_argument("binary", nargs="?", default=BINARY)
    parser.add_argument("--out", help="write OUT/NAME.mid for each example")
    args = parser.parse_args()
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    for name, text in examples(args.binary):
        try:
            print(summary(name, text))
            if args.out:
                to_smf(text, os.path.join(args.out, name + ".mid"))
        except ValueError as e:
            print(f"{name}: skipped: {e}")


if __name__ == "__main__":
    main()
