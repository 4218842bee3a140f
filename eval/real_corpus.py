"""The real-recording beat corpus (issue 11): recorded drum kits and loops that Debian ships, and GM pieces with
tempo changes, each with its beats (and bars, where they are defined) derived exactly.

- Hydrogen's demo songs (hydrogen-data), rendered by h2cli with recorded kits (hydrogen-drumkits). A copy of each
  song has humanize and swing set to 0 and its pattern sequence cut after about 40 s; the beats are every 48 ticks
  of the pattern grid (48 per quarter note), a bar starts at every 192 ticks of a 4/4 pattern column. The same
  songs with their own kits and Hydrogen's humanize (time and velocity) at 0.5 and 1 are a group apart: the notes
  move at random about the grid, which stays the truth.
- Sonic Pi's recorded loops (sonic-pi-samples), tiled to about 30 s: the tempo is the beats in the loop over its
  length, beat 1 is the loop start, a bar is 4 beats from it.
- GM pieces through fluidsynth whose tempo steps, slows or speeds up: beats from the tempo map.

Everything is mono, 24-bit, 44.1 kHz (as eval/run's corpus); renders are cached under OUT/real-<VERSION>/.
"""

import json
import math
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field

import corpus
import smf

VERSION = "v1"
RATE = 44100
SONGS = "/usr/share/hydrogen/data/demo_songs"
KITS = "/usr/share/hydrogen/data/drumkits"
LOOPS = "/usr/share/sonic-pi/samples"
SONG_SECONDS = 40.0
LOOP_SECONDS = 30.0

# Recorded kits whose instruments follow the GM demo songs' order (kick, stick, snare, clap, rimshot, tom, hat…):
# a song keeps its voices with them. None is the song's own kit.
GM_KITS = (None, "The Black Pearl 1.0", "ColomboAcousticDrumkit")
# (song, kits, ambiguous): GM_kit_Jazzy's pulse is ambiguous (pedal hat on the off-beats); the TR808
# demo is written for its own kit's layout.
HYDROGEN = [("GM_kit_demo1", GM_KITS, False), ("GM_kit_demo2", GM_KITS, False), ("GM_kit_demo3", GM_KITS, False),
            ("GM_kit_Diddley", GM_KITS, False), ("tutorial_georgyporgy", GM_KITS, False),
            ("TR808kit-demo", (None,), False), ("GM_kit_Jazzy", (None,), True)]
# Hydrogen's humanize settings of the humanised group (0…1).
HUMANIZE = (0.5, 1)
# Beats per loop of Sonic Pi's loop_* samples. The 97 BPM group and tabla are metrically ambiguous: reported apart.
SONIC_PI = {"amen": 4, "amen_full": 16, "breakbeat": 4, "compus": 16, "garzul": 16, "industrial": 2, "mika": 16,
            "safari": 16}
SONIC_PI_AMBIGUOUS = {"tabla": 16, "electric": 4, "mehackit1": 4, "mehackit2": 4, "perc1": 4, "perc2": 4,
                      "weirdo": 8}


@dataclass
class RealItem:
    name: str
    group: str  # hydrogen | sonicpi | midi, with "-ambiguous" (or "-humanized") for items reported apart
    render: object  # function(path)
    beats: list = field(default_factory=list)
    downbeats: list = None  # None where the truth has no bars
    bpm: float = None  # the steady tempo, None where it changes
    changes: list = field(default_factory=list)  # indices into beats where the tempo changes

    @property
    def duration(self):
        return self.beats[-1] + 1.0 if self.beats else 30.0


def run(args, **kwargs):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)


def mono(raw, path, seconds=None):
    cmd = ["sox", raw, "-r", str(RATE), "-b", "24", "-c", "1", path, "remix", "-"]
    if seconds is not None:
        cmd += ["trim", "0", f"{seconds:.6f}"]
    run(cmd)


# ---------------------------------------------------------------- Hydrogen


def hydrogen_song(song, seconds=SONG_SECONDS, humanize=0):
    """The song's text with swing off, humanize (time and velocity) at `humanize` and the sequence cut after
    `seconds`; its BPM, beats, downbeats."""
    text = open(os.path.join(SONGS, song + ".h2song")).read()
    bpm = float(re.search(r"<bpm>([^<]*)</bpm>", text).group(1))
    for tag, value in (("humanize_time", humanize), ("humanize_velocity", humanize), ("swing_factor", 0)):
        text = re.sub(f"<{tag}>[^<]*</{tag}>", f"<{tag}>{value}</{tag}>", text)
    sizes = {m.group(1): int(m.group(2))
             for m in re.finditer(r"<pattern>\s*<name>([^<]*)</name>.*?<size>(\d+)</size>", text, re.S)}
    start, end = text.index("<patternSequence>"), text.index("</patternSequence>")
    groups = re.findall(r"<group>(.*?)</group>", text[start:end], re.S)
    kept, ticks = [], 0
    for g in groups:
        ids = re.findall(r"<patternID>([^<]*)</patternID>", g)
        # A column lasts as long as its longest pattern (an empty column, one 4/4 bar).
        length = max([sizes[i] for i in ids] or [192])
        kept.append((g, length))
        ticks += length
        if ticks / 48 * 60 / bpm >= seconds:
            break
    sequence = "<patternSequence>" + "".join(f"<group>{g}</group>" for g, _ in kept) + "</patternSequence>"
    text = text[:start] + sequence + text[end + len("</patternSequence>"):]
    beats, downbeats, t = [], [], 0
    for _, length in kept:
        for k in range(0, length, 48):
            beats.append((t + k) / 48 * 60 / bpm)
            if length % 192 == 0 and k % 192 == 0:
                downbeats.append((t + k) / 48 * 60 / bpm)
        t += length
    return text, bpm, beats, downbeats


def with_kit(text, kit):
    """The song with each instrument's samples taken from the same-numbered instrument of `kit`. (h2cli's own -k
    leaves the render silent here: it tries to upgrade the old-format kits in place, in a read-only folder.)"""
    kit_xml = open(os.path.join(KITS, kit, "drumkit.xml")).read()
    layers = {}
    for m in re.finditer(r"<instrument>\s*<id>(\d+)</id>(.*?)</instrument>", kit_xml, re.S):
        found = re.findall(r"<layer>.*?</layer>", m.group(2), re.S)
        if found:
            layers[m.group(1)] = "".join(found)

    def replace(m):
        body = m.group(2)
        if m.group(1) not in layers:
            return m.group(0)
        body = re.sub(r"<drumkit>[^<]*</drumkit>", f"<drumkit>{kit}</drumkit>", body)
        body = re.sub(r"(<instrumentComponent>\s*<component_id>0</component_id>\s*<gain>[^<]*</gain>).*?"
                      r"(</instrumentComponent>)", lambda c: c.group(1) + layers[m.group(1)] + c.group(2), body,
                      count=1, flags=re.S)
        return f"<instrument>\n   <id>{m.group(1)}</id>{body}</instrument>"

    start, end = text.index("<instrumentList>"), text.index("</instrumentList>")
    listed = re.sub(r"<instrument>\s*<id>(\d+)</id>(.*?)</instrument>", replace, text[start:end], flags=re.S)
    return text[:start] + listed + text[end:]


def hydrogen_item(song, kit, ambiguous, humanize=0):
    text, bpm, beats, downbeats = hydrogen_song(song, humanize=humanize)
    kit_name = "own" if kit is None else re.sub(r"[^A-Za-z0-9]+", "", kit)
    if humanize:
        kit_name += f"-humanize{humanize}"
    if kit is not None:
        text = with_kit(text, kit)

    def render(path):
        with tempfile.TemporaryDirectory() as scratch:
            song_path = os.path.join(scratch, "song.h2song")
            open(song_path, "w").write(text)
            raw = os.path.join(scratch, "raw.wav")
            args = ["h2cli", "-s", song_path, "-o", raw]
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
            subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
            mono(raw, path)

    group = "hydrogen" + ("-ambiguous" if ambiguous else "-humanized" if humanize else "")
    return RealItem(f"h2-{song}-{kit_name}", group, render, beats, downbeats, bpm)


# ---------------------------------------------------------------- Sonic Pi


def loop_seconds(name):
    out = subprocess.run(["soxi", "-D", os.path.join(LOOPS, f"loop_{name}.flac")], capture_output=True, text=True)
    return float(out.stdout)


def sonic_pi_item(name, beats_per_loop, ambiguous):
    length = loop_seconds(name)
    repeats = max(1, math.ceil(LOOP_SECONDS / length))
    step = length / beats_per_loop
    beats = [k * step for k in range(int(repeats * beats_per_loop))]
    # Bars of 4 beats from the loop start (a 2-beat loop makes one bar of two loops).
    downbeats = beats[0::4]

    def render(path):
        with tempfile.TemporaryDirectory() as scratch:
            raw = os.path.join(scratch, "raw.wav")
            run(["sox", os.path.join(LOOPS, f"loop_{name}.flac"), raw, "repeat", str(repeats - 1)])
            mono(raw, path)

    return RealItem(f"sp-{name}", "sonicpi" + ("-ambiguous" if ambiguous else ""), render, beats, downbeats,
                    60 / step)


# ---------------------------------------------------------------- GM pieces with tempo changes

KICK, SNARE, HAT = 36, 38, 42


def tempo_map_beats(segments, start=corpus.LEAD_IN):
    """Beat instants of [(bpm_from, bpm_to, beats)]: each segment's tempo moves linearly from beat to beat."""
    beats, changes, t = [start], [], start
    for bpm_from, bpm_to, count in segments:
        if beats and len(beats) > 1:
            changes.append(len(beats) - 1)
        for k in range(count):
            bpm = bpm_from + (bpm_to - bpm_from) * (k + 1) / count if bpm_to != bpm_from else bpm_from
            t += 60 / bpm
            beats.append(t)
    return beats, changes


def groove_item(name, segments, beats_per_bar=4):
    """Drums (kick on 1 (and 3), snare on the others in 3/4, on 2 and 4 in 4/4, hats on eighths), a finger bass
    on every beat from E1 and piano chords on 1: a band playing to the tempo map."""
    beats, changes = tempo_map_beats(segments)
    song = smf.Song()
    song.program(0, 33)
    song.program(1, 0)
    roots, chords = (28, 36, 31, 38), ((52, 55, 59), (52, 55, 60), (50, 55, 59), (50, 54, 57))
    for n, (b, nb) in enumerate(zip(beats, beats[1:])):
        in_bar = n % beats_per_bar
        bar = n // beats_per_bar
        if beats_per_bar == 4:
            drum = KICK if in_bar in (0, 2) else SNARE
        else:
            drum = KICK if in_bar == 0 else SNARE
        song.note(9, drum, b, b + 0.1, 110 if in_bar == 0 else 100)
        song.note(9, HAT, b, b + 0.05, 70)
        song.note(9, HAT, (b + nb) / 2, (b + nb) / 2 + 0.05, 55)
        song.note(0, roots[bar % 4] + (12 if in_bar == beats_per_bar - 1 else 0), b, b + 0.9 * (nb - b), 95)
        if in_bar == 0:
            for key in chords[bar % 4]:
                song.note(1, key, b, b + 0.9 * beats_per_bar * (nb - b), 75)
    end = beats[-1] + 0.5
    steady = segments[0][0] if all(s[0] == s[1] == segments[0][0] for s in segments) else None

    def render(path):
        with tempfile.TemporaryDirectory() as scratch:
            mid, raw = os.path.join(scratch, "in.mid"), os.path.join(scratch, "raw.wav")
            song.write(mid, end=end)
            run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(RATE), "-T", "wav", corpus.SOUNDFONT, mid])
            corpus.finish(raw, path, end, RATE)

    return RealItem(name, "midi", render, beats[:-1], beats[:-1][0::beats_per_bar], steady, changes)


# ---------------------------------------------------------------- the corpus


def items():
    out = [hydrogen_item(song, kit, ambiguous) for song, kits, ambiguous in HYDROGEN for kit in kits]
    out += [hydrogen_item(song, None, False, humanize) for song, _, ambiguous in HYDROGEN if not ambiguous
            for humanize in HUMANIZE]
    out += [sonic_pi_item(n, b, False) for n, b in SONIC_PI.items()]
    out += [sonic_pi_item(n, b, True) for n, b in SONIC_PI_AMBIGUOUS.items()]
    out += [groove_item("midi-step-100-130", [(100, 100, 16), (130, 130, 32)]),
            groove_item("midi-rit-120-90", [(120, 120, 12), (120, 90, 16), (90, 90, 16)]),
            groove_item("midi-accel-90-140", [(90, 90, 12), (90, 140, 16), (140, 140, 24)]),
            groove_item("midi-waltz-150", [(150, 150, 72)], beats_per_bar=3)]
    return out


def ensure_rendered(item, out_dir):
    directory = os.path.join(out_dir, f"real-{VERSION}")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{item.name}.wav")
    if not os.path.exists(path):
        tmp = path + ".tmp.wav"
        item.render(tmp)
        os.replace(tmp, path)
    truth = path[:-4] + ".truth.json"
    json.dump({"beats": item.beats, "downbeats": item.downbeats, "bpm": item.bpm, "changes": item.changes},
              open(truth, "w"))
    return path
