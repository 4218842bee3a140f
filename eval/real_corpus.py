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
- MIDI files from Debian packages (midi-debian) through three soundfonts and a seeded sox augmentation: beats from
  their tempo map and time signatures (midifile.py).
- Tracker modules from Debian packages (tracker), rendered by eval/modrender.c with libopenmpt, which logs every
  row's start: beats every rows-per-beat rows from each pattern start.
- LMMS's demo projects (lmms), rendered by lmms: beats from the project's bpm and time signature.
- Pieces composed by eval/generated_music.py (generated), seeded: solo piano, strings, pads, guitars, choir,
  woodwinds, brass and small ensembles in 2/4, 3/4, 4/4 and 6/8, through the three soundfonts and the sox chain:
  beats from the tempo map they were written on.
- Popular-music pieces composed by eval/generated_popular.py (popular), seeded: rock, off-beat, swing, boogie,
  stride, Latin, funk, house, ballads, country, 12/8, jazz waltz, rendered the same way: beats from the tempo map.
- Songs on MMA's style library (mma): for each of its hand-written accompaniment styles, its first groove over a
  chord progression at a tempo drawn per song (60-180 BPM), written to MIDI by MMA and rendered as the composed
  pieces are: beats are MMA's quarter notes, a bar every Time of them. The styles whose notes ask for the tempo to
  be doubled or tripled are a group apart (mma-ambiguous). The drums alone of each other song whose drums play a
  note a beat, rendered again through a soundfont of their own, are a group apart too (mma-drums: copies of songs
  already counted).
- Freedoom's music (freedoom): the MIDI lumps of its two WADs, rendered and checked as the midi-debian files are.
- FreeDink's music (freedink): the MIDI files of freedink-data, rendered and checked as the midi-debian files are.
- Rosegarden's example compositions (rosegarden): the scores compiled into its binary, written to MIDI as its
  sequencer plays them (eval/rosegarden.py), rendered and checked as the midi-debian files are.

Every item has a `source` and a `song` (shared by all renders of one piece); split() gives its side of the
train / held-out split from eval/real_split.json (eval/real_split.py). LICENCES holds each source's packages and
licences. `python3 eval/real_corpus.py [--render]` lists (and renders) the corpus.

Everything is mono, 24-bit, 44.1 kHz (as eval/run's corpus); renders are cached under OUT/real-<VERSION>/.
"""

import fcntl
import functools
import glob
import json
import math
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import zlib
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402
import midifile  # noqa: E402
import smf  # noqa: E402

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
    # hydrogen | sonicpi | gm-pieces | midi-debian | tracker | lmms | generated | popular | mma | freedoom | freedink |
    # rosegarden
    source: str = None
    song: str = None  # shared by every render (kit, soundfont, augmentation, humanize) of one piece

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
    return RealItem(f"h2-{song}-{kit_name}", group, render, beats, downbeats, bpm, source="hydrogen",
                    song=f"h2-{song}")


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
                    60 / step, source="sonicpi", song=f"sp-{name}")


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


def groove_item(name, segments, beats_per_bar=4, group="midi"):
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

    return RealItem(name, group, render, beats[:-1], beats[:-1][0::beats_per_bar], steady, changes,
                    source="gm-pieces", song=name)


def compound_item(name, bpm, count, group="gm-pieces"):
    """6/8 at `bpm` dotted quarters: kick on beat 1, snare on beat 2, hats on every eighth (three to a beat), the
    bass on every beat and a piano chord on every bar of two beats."""
    beats, changes = tempo_map_beats([(bpm, bpm, count)])
    song = smf.Song()
    song.program(0, 33)
    song.program(1, 0)
    roots, chords = (28, 36, 31, 38), ((52, 55, 59), (52, 55, 60), (50, 55, 59), (50, 54, 57))
    for n, (b, nb) in enumerate(zip(beats, beats[1:])):
        in_bar, bar = n % 2, n // 2
        song.note(9, KICK if in_bar == 0 else SNARE, b, b + 0.1, 110 if in_bar == 0 else 100)
        for k in range(3):
            at = b + k * (nb - b) / 3
            song.note(9, HAT, at, at + 0.05, 70 if k == 0 else 50)
        song.note(0, roots[bar % 4] + (7 if in_bar else 0), b, b + 0.9 * (nb - b), 95)
        if in_bar == 0:
            for key in chords[bar % 4]:
                song.note(1, key, b, b + 1.8 * (nb - b), 75)
    end = beats[-1] + 0.5

    def render(path):
        with tempfile.TemporaryDirectory() as scratch:
            mid, raw = os.path.join(scratch, "in.mid"), os.path.join(scratch, "raw.wav")
            song.write(mid, end=end)
            run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(RATE), "-T", "wav", corpus.SOUNDFONT, mid])
            corpus.finish(raw, path, end, RATE)

    return RealItem(name, group, render, beats[:-1], beats[:-1][0::2], float(bpm), changes, source="gm-pieces",
                    song=name)


# ---------------------------------------------------------------- sox augmentation


def augment_effects(rng):
    """A seeded chain of sox effects that move no event in time: a band of EQ, sometimes a high- or low-pass
    (biquads), a compressor without look-ahead (compand's delay 0) and a room (reverb, pre-delay 0); and the noise
    to add: (colour, SNR in dB)."""
    effects = []
    if rng.random() < 0.4:
        effects += ["highpass", f"{rng.uniform(40, 250):.0f}"]
    if rng.random() < 0.4:
        effects += ["lowpass", f"{rng.uniform(3000, 12000):.0f}"]
    effects += ["equalizer", f"{math.exp(rng.uniform(math.log(80), math.log(8000))):.0f}", "1q",
                f"{rng.uniform(-8, 8):.1f}"]
    if rng.random() < 0.7:
        effects += ["compand", "0.005,0.15", f"6:-70,-70,-{rng.uniform(15, 30):.0f},-{rng.uniform(8, 14):.0f},0,-6",
                    "-3", "-90", "0"]
    if rng.random() < 0.8:
        effects += ["reverb", f"{rng.uniform(20, 80):.0f}", "50", f"{rng.uniform(20, 100):.0f}", "100", "0",
                    f"{rng.uniform(-6, 0):.1f}"]
    noise = (rng.choice(("pinknoise", "whitenoise", "brownnoise")), rng.uniform(12, 35)) if rng.random() < 0.7 \
        else None
    return effects, noise


def stats_rms_db(path):
    out = subprocess.run(["sox", path, "-n", "stats"], capture_output=True, text=True).stderr
    for line in out.splitlines():
        if line.startswith("RMS lev dB"):
            return float(line.split()[3])
    raise RuntimeError(f"no RMS from sox stats for {path}")


def finish_item(raw, path, start, length, seed=None, raw_args=()):
    """`length` seconds of `raw` from `start`, mono, 24-bit at RATE, peak at -1 dBFS; with `seed`, through the
    seeded augmentation (augment_effects) first. `raw_args` describe a headerless `raw` to sox."""
    with tempfile.TemporaryDirectory() as scratch:
        mid = os.path.join(scratch, "mid.wav")
        effects, noise = augment_effects(random.Random(seed)) if seed is not None else ([], None)
        # Headroom for the EQ and the room first (sox computes in fixed point).
        run(["sox", *raw_args, raw, "-r", str(RATE), "-c", "1", "-e", "floating-point", "-b", "32", mid,
             "remix", "-", "trim", f"{start:.6f}", f"{length:.6f}", "pad", "0", f"{length:.6f}", "trim", "0",
             f"{length:.6f}", "norm", "-12", *effects, "norm", "-3"])
        if noise is not None:
            colour, snr = noise
            level = stats_rms_db(mid)
            noise_path = os.path.join(scratch, "noise.wav")
            run(["sox", "-R", "-n", "-r", str(RATE), "-c", "1", "-e", "floating-point", "-b", "32", noise_path,
                 "synth", f"{length:.6f}", colour])
            gain = level - snr - stats_rms_db(noise_path)
            mixed = os.path.join(scratch, "mixed.wav")
            run(["sox", "-m", mid, "-v", f"{10 ** (gain / 20):.6f}", noise_path, mixed])
            mid = mixed
        run(["sox", mid, "-b", "24", path, "norm", "-1"])


# ---------------------------------------------------------------- MIDI files from Debian packages

SOUNDFONTS = {"fluidr3": "/usr/share/sounds/sf2/FluidR3_GM.sf2", "timgm6mb": "/usr/share/sounds/sf2/TimGM6mb.sf2",
              "musescore": "/usr/share/sounds/sf3/MuseScore_General_Full.sf3"}


def finish_midi(mid, font, start, length, seed, out_path):
    """The MIDI file `mid` through fluidsynth (32-bit float out) and SOUNDFONTS[font], then finish_item."""
    with tempfile.TemporaryDirectory() as scratch:
        raw = os.path.join(scratch, "raw.wav")
        run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(RATE), "-T", "wav", "-O", "float", SOUNDFONTS[font],
             mid], timeout=600)
        finish_item(raw, out_path, start, length, seed=seed)


# The timbre of the third render of each song: drums muted, every other channel on one GM program.
SOLO_PROGRAMS = {"piano": 0, "guitar": 24, "strings": 48, "choir": 52}
# (package, short name, glob). planetblupi's music004-009 are shifted off their grid (every note some 20 ticks
# late) and many simutrans songs are humanised: the grid check below drops them. (chuck-data's bwv772 is played,
# not sequenced: not used.)
MIDI_SOURCES = [("openttd-openmsx", "openttd", "/usr/share/games/openttd/baseset/openmsx/*.mid"),
                ("simutrans-data", "simutrans", "/usr/share/games/simutrans/music/*.mid"),
                ("planetblupi-music-midi", "blupi", "/usr/share/planetblupi/music/*.mid"),
                ("pianobooster", "pianobooster", "/usr/share/doc/pianobooster/courses/*/*.mid")]
MIDI_TARGET = 50.0  # seconds: the excerpt ends at the last bar line before this, and lasts at least MIN_SECONDS
MIN_SECONDS = 30.0
GRID_SHARE = 0.9  # note-ons within GRID_TOLERANCE of a 16th or 16th-triplet, at least this share of them
GRID_TOLERANCE = 0.012
TEMPO_RANGE = (40.0, 240.0)


def tempo_summary(beats):
    """(steady BPM or None, changes): a change is a beat whose next interval differs by more than 2 % from the
    one before it while that one equalled its predecessor (where a step or a ramp begins)."""
    ibi = [b - a for a, b in zip(beats, beats[1:])]
    if max(ibi) - min(ibi) < 1e-3:
        return 60 / statistics.mean(ibi), []
    changes = [k for k in range(1, len(ibi)) if abs(ibi[k] / ibi[k - 1] - 1) > 0.02
               and (k < 2 or abs(ibi[k - 1] / ibi[k - 2] - 1) <= 0.02)]
    return None, changes


def beat_intervals(instants, beats):
    """(inside, start, end) per instant (numpy arrays): whether it lies between the first true beat and the last,
    and the true beats before and after it (beats[k − 1] <= t < beats[k]; clamped to the first or last interval
    outside). Needs two beats or more."""
    import numpy as np
    beats = np.asarray(beats)
    k = np.searchsorted(beats, instants, side="right")
    inside = (k >= 1) & (k < len(beats))
    return inside, beats[np.clip(k - 1, 0, len(beats) - 2)], beats[np.clip(k, 1, len(beats) - 1)]


def midi_excerpt(path):
    """(start tick, end tick, beats, downbeats, in seconds from the start tick) of the song's excerpt, or the
    reason it is left out."""
    mf = midifile.MidiFile(path)
    notes = mf.notes()
    if not notes:
        return "no notes"
    first = min(n[0] for n in notes)
    last = max(n[0] for n in notes)
    try:
        beats, downbeats = mf.beat_ticks(first, last)
    except midifile.UnsupportedMeter as e:
        return f"meter {e}"
    start = max(d for d in downbeats if d <= first)
    t0 = mf.seconds(start)
    ends = [d for d in downbeats if d > start and mf.seconds(d) - t0 <= MIDI_TARGET]
    if not ends or mf.seconds(ends[-1]) - t0 < MIN_SECONDS:
        return "shorter than 30 s"
    end = ends[-1]
    window = [n[0] for n in notes if start <= n[0] < end]
    d = mf.division

    def on_grid(tick):
        seconds = mf.seconds(tick)
        for step in (d / 4, d / 6):
            nearest = round(tick / step) * step
            if abs(mf.seconds(int(round(nearest))) - seconds) <= GRID_TOLERANCE:
                return True
        return False

    share = sum(map(on_grid, window)) / len(window)
    if share < GRID_SHARE:
        return f"{share:.0%} of the notes on the grid"
    beat_ticks = [b for b in beats if start <= b < end]
    times = [mf.seconds(b) - t0 for b in beat_ticks]
    tempi = [60 / (b - a) for a, b in zip(times, times[1:])]
    if min(tempi) < TEMPO_RANGE[0] or max(tempi) > TEMPO_RANGE[1]:
        return f"beat tempo {min(tempi):.0f}-{max(tempi):.0f} BPM"
    bars = [mf.seconds(b) - t0 for b in downbeats if start <= b < end]
    channels = {n[1] for n in notes if start <= n[0] < end}
    return start, end, times, bars, channels


def source_files(sources, prefix):
    """(path, song) of every file of each (package, short name, glob) in `sources`, the song named
    PREFIX-SHORT-STEM; a glob that matches nothing names the package to install."""
    for package, short, pattern in sources:
        files = sorted(glob.glob(pattern))
        if not files:
            raise FileNotFoundError(f"{pattern}: install {package} (eval/install-dependencies)")
        for path in files:
            stem = re.sub(r"[^A-Za-z0-9]+", "_", os.path.splitext(os.path.basename(path))[0]).strip("_")
            yield path, f"{prefix}-{short}-{stem}"


def midi_debian_items():
    return midi_song_items(source_files(MIDI_SOURCES, "mid"), "midi-debian")


def midi_song_items(files, source):
    """Each (path, song) of `files` whose excerpt passes midi_excerpt, in three renders: two soundfonts, and a
    third with the drums muted and every other channel on one of SOLO_PROGRAMS (where it has such channels)."""
    out = []
    for path, song in files:
        excerpt = midi_excerpt(path)
        if isinstance(excerpt, str):
            continue
        start, end, beats, bars, channels = excerpt
        rng = random.Random(song)
        fonts = list(SOUNDFONTS)
        rng.shuffle(fonts)
        variants = [(fonts[0], None), (fonts[1], None)]
        if channels - {9}:
            variants.append((fonts[2], rng.choice(sorted(SOLO_PROGRAMS))))
        for font, solo in variants:
            name = f"{song}-{font}" + (f"-{solo}" if solo else "")
            out.append(midi_file_item(name, song, path, start, end, beats, bars, font, solo, source))
    return out


def midi_file_item(name, song, path, start, end, beats, bars, font, solo, source):
    steady, changes = tempo_summary(beats)

    render = functools.partial(finish_midi_excerpt, path, start, end, font, name, (9,) if solo else (),
                               SOLO_PROGRAMS[solo] if solo else None)
    return RealItem(name, source, render, beats, bars, steady, changes, source=source, song=song)


def finish_midi_excerpt(path, start, end, font, seed, mute_channels, program, out_path):
    """Ticks `start` to `end` of the MIDI file `path`, `mute_channels` silent and every other channel on `program`
    when given (MidiFile.write), through finish_midi."""
    mf = midifile.MidiFile(path)
    t0, t1 = mf.seconds(start), mf.seconds(end)
    with tempfile.TemporaryDirectory() as scratch:
        mid = os.path.join(scratch, "in.mid")
        mf.write(mid, end_tick=end, mute_channels=mute_channels, program=program)
        finish_midi(mid, font, t0, t1 - t0, seed, out_path)


# ---------------------------------------------------------------- Freedoom's music (its WADs' MIDI lumps)

# Freedoom's game data carries its music as standard MIDI files, one lump (D_*) per song; a song both WADs carry
# is read once, from the first.
FREEDOOM_WADS = [("freedoom", "1", "/usr/share/games/doom/freedoom1.wad"),
                 ("freedoom", "2", "/usr/share/games/doom/freedoom2.wad")]


def wad_midi_lumps(path):
    """[(lump name, bytes)] of a Doom WAD's music lumps (D_*) that are standard MIDI files. A WAD starts with its
    magic, lump count and directory offset (little-endian 32-bit); each directory entry is a lump's offset, size
    and eight-byte name."""
    data = open(path, "rb").read()
    magic, count, directory = struct.unpack_from("<4sii", data, 0)
    if magic not in (b"IWAD", b"PWAD"):
        raise ValueError(f"{path}: not a WAD")
    lumps = []
    for k in range(count):
        offset, size, name = struct.unpack_from("<ii8s", data, directory + 16 * k)
        name = name.rstrip(b"\0").decode("ascii")
        if name.startswith("D_") and data[offset:offset + 4] == b"MThd":
            lumps.append((name, data[offset:offset + size]))
    return lumps


def freedoom_files():
    """(path, song) of every distinct MIDI lump of Freedoom's WADs, written once into the cache; the song is
    freedoom-WAD-LUMP (freedoom-1-e1m1)."""
    seen = set()
    for package, wad, path in FREEDOOM_WADS:
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: install {package} (eval/install-dependencies)")
        for lump, data in wad_midi_lumps(path):
            if data in seen:
                continue
            seen.add(data)
            song = f"freedoom-{wad}-{lump[2:].lower()}"
            yield cached_midi(song, data), song


def freedoom_items():
    return midi_song_items(freedoom_files(), "freedoom")


# ---------------------------------------------------------------- FreeDink's music

# freedink-data's Sound/*.mid: Dink Smallwood's own files and the free replacements written for FreeDink (piano and
# strings arrangements sequenced in Rosegarden, game music). The grid check keeps only the replacements.
FREEDINK_SOURCES = [("freedink-data", "dink", "/usr/share/games/dink/dink/Sound/*.mid")]


def freedink_items():
    return midi_song_items(source_files(FREEDINK_SOURCES, "freedink"), "freedink")


# ---------------------------------------------------------------- Rosegarden's examples

# The binary whose Qt resources hold the examples (eval/rosegarden.py), and the examples left out: the one whose
# notes, tempo and meter are another's (the same Glazunov score with a cue staff).
ROSEGARDEN = ("rosegarden", "/usr/bin/rosegarden")
ROSEGARDEN_DUPLICATES = {"glazunov-for-solo-and-piano-with-cue"}


def rosegarden_files():
    """(path, song) of each of Rosegarden's examples, written as MIDI into the cache (again when what
    eval/rosegarden.py writes changes); the song is rosegarden-NAME (the example's file name)."""
    import rosegarden
    package, binary = ROSEGARDEN
    if not os.path.exists(binary):
        raise FileNotFoundError(f"{binary}: install {package} (eval/install-dependencies)")
    for name, text in rosegarden.examples(binary):
        if name in ROSEGARDEN_DUPLICATES:
            continue
        song = "rosegarden-" + re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")
        yield cached_midi(song, rosegarden.smf_bytes(text)[0]), song


def rosegarden_items():
    return midi_song_items(rosegarden_files(), "rosegarden")


# ---------------------------------------------------------------- tracker modules (libopenmpt)

# (package, short name, glob)
TRACKER_SOURCES = [("tecnoballz-data", "tecnoballz", "/usr/share/games/tecnoballz/musics/*.mod"),
                   ("heroes-sound-tracks", "heroes", "/usr/share/games/heroes/mod/*.xm"),
                   ("gl-117-data", "gl117", "/usr/share/games/gl-117/music/*.s3m"),
                   ("pingus-data", "pingus", "/usr/share/games/pingus/data/music/*"),
                   ("freedroid-data", "freedroid", "/usr/share/games/freedroid/sound/*.mod"),
                   ("biniax2-data", "biniax2", "/usr/share/games/biniax2/music/*.it")]
TRACKER_SECONDS = 70.0  # rendered and logged; the excerpt is cut at MIDI_TARGET
TEMPO_JUMP = 1.3  # a beat whose tempo differs from the last one's by this factor ends the excerpt


def out_cache():
    directory = os.path.join(HERE, "out", f"real-{VERSION}", "cache")
    os.makedirs(directory, exist_ok=True)
    return directory


def cached_midi(song, data):
    """The path of OUT/real-VERSION/cache/SONG.mid holding `data`, written (again) when it holds anything else."""
    midi = os.path.join(out_cache(), f"{song}.mid")
    if not os.path.exists(midi) or open(midi, "rb").read() != data:
        atomic_write(midi, lambda tmp: open(tmp, "wb").write(data))
    return midi


def atomic_write(path, make):
    """make(tmp) writes tmp; it then replaces `path`: parallel workers never see a half-written file."""
    tmp = f"{path}.{os.getpid()}.tmp"
    make(tmp)
    os.replace(tmp, path)
    return path


def modrender():
    """eval/modrender.c, compiled with gcc against libopenmpt into eval/out/ (once, by whichever worker comes
    first)."""
    binary = os.path.join(out_cache(), "modrender")
    source = os.path.join(HERE, "modrender.c")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        atomic_write(binary, lambda tmp: run(["gcc", "-O2", "-o", tmp, source, "-lopenmpt"]))
    return binary


def tracker_log(path, song):
    """modrender's row log of the module (cached): [(row start in s, order, pattern, row, speed, tempo,
    estimated BPM, rows in the pattern)], and the seconds rendered."""
    log = os.path.join(out_cache(), f"{song}.rows.txt")
    if not os.path.exists(log):
        atomic_write(log, lambda tmp: run([modrender(), path, os.devnull, tmp, str(RATE), str(TRACKER_SECONDS)]))
    lines = open(log).read().split("\n")
    rate, block = map(int, lines[0].split())
    rows, end = [], 0.0
    for line in lines[1:]:
        f = line.split()
        if not f:
            continue
        if f[0] == "end":
            end = int(f[1]) / rate
            continue
        # The row began within the block that starts at this frame: its middle is within block / 2 frames.
        rows.append(((int(f[0]) + block / 2) / rate, *map(int, f[1:6]), float(f[6]), int(f[7])))
    return rows, end


def tracker_excerpt(rows, end):
    """(rows per beat, beats, downbeats or None, cut in s) from the row log, or the reason the module is left
    out. Beats: every rows-per-beat rows from each pattern start. Rows per beat is the module's own, as libopenmpt's
    estimated BPM implies it (60 / (BPM x row length): IT's highlight, 4 for MOD, XM and S3M); bars of 4 beats
    from each pattern start where every pattern played holds whole bars."""
    lengths = [b[0] - a[0] for a, b in zip(rows, rows[1:])]
    estimates = sorted(60 / (r[6] * d) for r, d in zip(rows, lengths) if r[6] > 0 and d > 0)
    if not estimates:
        return "no rows"
    rpb_f = estimates[len(estimates) // 2]
    rpb = round(rpb_f) if abs(rpb_f - round(rpb_f)) < 0.05 and round(rpb_f) >= 1 else 4
    beats, rows_at, since = [], [], None
    cut = min(end, MIDI_TARGET)
    for k, r in enumerate(rows):
        t, row = r[0], r[3]
        if t >= cut:
            break
        if since is not None:
            since += 1
        if row % rpb == 0:
            if since is not None and since != rpb:  # a pattern break, loop or odd length moved the grid
                cut = t
                break
            if beats:
                bpm = 60 / (t - beats[-1])
                last = 60 / (beats[-1] - beats[-2]) if len(beats) > 1 else bpm
                if not TEMPO_RANGE[0] <= bpm <= TEMPO_RANGE[1] or max(bpm / last, last / bpm) > TEMPO_JUMP:
                    cut = beats[-1]
                    beats.pop()
                    rows_at.pop()
                    break
            beats.append(t)
            rows_at.append(r)
            since = 0
        elif since is None:
            return "does not start on a beat"
    if not beats or cut < MIN_SECONDS:
        return f"{cut:.0f} s of consistent beats"
    # End a beat after the last beat before the cut, or at the cut.
    beats = [b for b in beats if b < cut]
    rows_at = rows_at[:len(beats)]
    cut = min(cut, beats[-1] + (beats[-1] - beats[-2]), end)
    bar = 4 * rpb
    played = {r[7] for r in rows if r[0] < cut}
    downbeats = [b for b, r in zip(beats, rows_at) if r[3] % bar == 0] if all(p % bar == 0 for p in played) \
        else None
    return rpb, beats, downbeats, cut


def tracker_items():
    out = []
    for path, song in source_files(TRACKER_SOURCES, "mod"):
        excerpt = tracker_excerpt(*tracker_log(path, song))
        if isinstance(excerpt, str):
            continue
        rpb, beats, downbeats, cut = excerpt
        steady, changes = tempo_summary(beats)
        for augmented in (False, True):
            name = song + ("-room" if augmented else "")
            out.append(RealItem(name, "tracker", tracker_render(path, song, cut, name if augmented else None),
                                beats, downbeats, steady, changes, source="tracker", song=song))
    return out


def tracker_render(path, song, cut, seed):
    def render(out_path):
        with tempfile.TemporaryDirectory() as scratch:
            raw, log = os.path.join(scratch, "raw.f32"), os.path.join(scratch, "rows.txt")
            run([modrender(), path, raw, log, str(RATE), str(TRACKER_SECONDS)])
            if open(log).read() != open(os.path.join(out_cache(), f"{song}.rows.txt")).read():
                raise RuntimeError(f"{song}: the render's row log differs from the one the truth came from")
            finish_item(raw, out_path, 0.0, cut, seed=seed,
                        raw_args=("-t", "f32", "-r", str(RATE), "-c", "1"))

    return render


# ---------------------------------------------------------------- LMMS demo projects

LMMS_PROJECTS = "/usr/share/lmms/projects"
LMMS_DIRS = ("demos", "shorties")  # templates and tutorials are not music


def lmms_xml(path):
    """The project's XML: .mmpz is Qt's qCompress (a 4-byte big-endian length, then zlib)."""
    data = open(path, "rb").read()
    return (zlib.decompress(data[4:]) if path.endswith(".mmpz") else data).decode("utf-8", "replace")


def lmms_project(path):
    """(bpm, numerator, denominator, last tick) from the project's head and tracks, or the reason it is left
    out. LMMS counts 48 ticks to a quarter note; its bpm counts quarter notes."""
    text = lmms_xml(path)
    head = re.search(r"<head\b.*?(?:/>|</head>)", text, re.S).group(0)

    def value(key):
        m = re.search(fr'\b{key}="([\d.]+)"', head) or re.search(fr'<{key}\b[^>]*\bvalue="([\d.]+)"', head)
        return float(m.group(1)) if m else None

    bpm, num, den = value("bpm"), value("timesig_numerator") or 4, value("timesig_denominator") or 4
    for model in re.findall(r'<bpm\b[^>]*\bid="(\d+)"', head):
        if re.search(fr'<object id="{model}"', text):
            return "tempo automation"
    if den not in (1, 2, 4):
        return f"meter {num:g}/{den:g}"
    ends = []
    for m in re.finditer(r"<(pattern|bbtco|sampletco)\b([^>]*)>", text):
        pos, length = re.search(r'\bpos="(\d+)"', m.group(2)), re.search(r'\blen="(\d+)"', m.group(2))
        if pos and length:
            ends.append(int(pos.group(1)) + int(length.group(1)))
    return bpm, int(num), int(den), max(ends or [0])


def lmms_items():
    out = []
    paths = sorted(p for d in LMMS_DIRS for p in glob.glob(os.path.join(LMMS_PROJECTS, d, "**", "*.mmp*"),
                                                             recursive=True))
    if not paths:
        raise FileNotFoundError(f"{LMMS_PROJECTS}: install lmms (eval/install-dependencies)")
    for path in paths:
        project = lmms_project(path)
        if isinstance(project, str):
            continue
        bpm, num, den, last = project
        beat = 60 / bpm
        bar_ticks = 192 * num // den
        song_seconds = last / 48 * beat
        bar_seconds = bar_ticks / 48 * beat
        bars = int(min(MIDI_TARGET, song_seconds) / bar_seconds)
        if bars * bar_seconds < MIN_SECONDS:
            continue
        cut = bars * bar_seconds
        beats = [k * beat for k in range(bars * bar_ticks // 48)]
        downbeats = [k * bar_seconds for k in range(bars)]
        stem = re.sub(r"[^A-Za-z0-9]+", "_", os.path.basename(path).split(".")[0]).strip("_")
        song = f"lmms-{stem}"
        for augmented in (False, True):
            name = song + ("-room" if augmented else "")
            out.append(RealItem(name, "lmms", lmms_render(path, song, cut, name if augmented else None), beats,
                                downbeats, bpm, source="lmms", song=song))
    return out


def lmms_render(path, song, cut, seed):
    """LMMS renders the whole project once (cached for both items of the song); the item is its first `cut`
    seconds."""
    def render(out_path):
        raw = os.path.join(out_cache(), f"{song}.lmms.f32")
        with open(raw + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the song's other item waits for this render, not does it again
            if not os.path.exists(raw):
                lmms_render_whole(path, raw)
        finish_item(raw, out_path, 0.0, cut, seed=seed, raw_args=("-t", "f32", "-r", str(RATE), "-c", "2"))

    return render


def lmms_render_whole(path, raw):
    """LMMS's 32-bit float WAV, whose peaks pass 1.0 (sox would clip them on reading): its first MIDI_TARGET + 5
    seconds as raw stereo float, scaled to a peak of 0.5."""
    def make(tmp):
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=home)
            whole = os.path.join(home, "whole.wav")
            # LMMS 1.2.2 often crashes on exit after writing the file: the file decides.
            subprocess.run(["lmms", "--allowroot", "render", path, "-f", "wav", "-a", "-s", str(RATE), "-o", whole],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1200)
            data = open(whole, "rb").read()
            i, fmt, samples = 12, None, None
            while i + 8 <= len(data):
                kind, size = data[i:i + 4], int.from_bytes(data[i + 4:i + 8], "little")
                if kind == b"fmt ":
                    fmt = data[i + 8:i + 8 + size]
                elif kind == b"data":
                    samples = data[i + 8:i + 8 + size]
                i += 8 + size + (size & 1)
            tag, channels, rate = int.from_bytes(fmt[0:2], "little"), int.from_bytes(fmt[2:4], "little"), \
                int.from_bytes(fmt[4:8], "little")
            if tag != 3 or channels != 2 or rate != RATE:
                raise RuntimeError(f"{path}: LMMS wrote format {tag}, {channels} channels, {rate} Hz")
            import numpy as np
            x = np.frombuffer(samples, "<f4")[:int((MIDI_TARGET + 5) * RATE) * 2]
            (x * (0.5 / max(1e-9, float(np.abs(x).max())))).astype("<f4").tofile(tmp)
    atomic_write(raw, make)


# ---------------------------------------------------------------- generated pieces (generated_music.py)

GENERATED_COUNT = 240
POPULAR_COUNT = 240


def generated_items():
    """GENERATED_COUNT pieces composed by generated_music.py (solo piano, strings, pads, guitars, choir,
    woodwinds, brass, small ensembles; 2/4, 3/4, 4/4, 6/8; 40-240 BPM, some with a tempo step or ramp), one render
    each through a soundfont drawn per piece and, for three in four, the seeded sox chain (`-room`)."""
    return composed_items("generated", "gen", GENERATED_COUNT, composer("generated"))


def popular_items():
    """POPULAR_COUNT pieces composed by generated_popular.py (rock, off-beat, swing, boogie, stride, Latin,
    funk, house, ballads, country, 12/8, jazz waltz), rendered as the generated pieces are."""
    return composed_items("popular", "pop", POPULAR_COUNT, composer("popular"))


# The sources whose pieces jacktap composes (eval/generated_music.py, eval/generated_popular.py).
COMPOSED_SOURCES = ("generated", "popular")


def composer(source):
    """The class that composes a piece of `source` (one of COMPOSED_SOURCES) from its song name."""
    if source == "generated":
        import generated_music
        return generated_music.Piece
    if source == "popular":
        import generated_popular
        return generated_popular.PopularPiece
    raise ValueError(f"{source}: not a composed source ({', '.join(COMPOSED_SOURCES)})")


def composed_draws(song):
    """(soundfont, whether the sox chain follows) of a composed song's item, drawn per song."""
    rng = random.Random(f"render:{song}")
    font = rng.choice(sorted(SOUNDFONTS))
    return font, rng.random() < 0.75


def composed_items(source, prefix, count, compose):
    out = []
    for n in range(count):
        song = f"{prefix}-{n:03d}"
        piece = compose(song)
        font, augmented = composed_draws(song)
        name = f"{song}-{font}" + ("-room" if augmented else "")
        beats, downbeats, steady, changes = piece.truth()
        out.append(RealItem(name, source, generated_render(piece, font, name if augmented else None), beats,
                            downbeats, steady, changes, source=source, song=song))
    return out


def generated_render(piece, font, seed, solo=None):
    """The piece through `font` and, with a `seed`, the sox chain; with `solo` (a SOLO_PROGRAMS name) its drums
    muted and every other channel on that program, as the MIDI sources' third render."""
    def render(out_path):
        end = piece.end_seconds()
        with tempfile.TemporaryDirectory() as scratch:
            mid = os.path.join(scratch, "in.mid")
            piece.song().write(mid, end=end)
            if solo:
                written = os.path.join(scratch, "solo.mid")
                midifile.MidiFile(mid).write(written, mute_channels=(9,), program=SOLO_PROGRAMS[solo])
                mid = written
            finish_midi(mid, font, 0.0, end, seed, out_path)

    return render


def solo_render_item(item):
    """A training-only render of a composed item's piece (generated, popular) as the MIDI sources' third render is
    made: the drums muted, every other channel on one of SOLO_PROGRAMS, through a soundfont other than the item's
    and the sox chain (both drawn per song). The same piece, so the same truth; not a corpus item (eval/real never
    reads it), and on its song's side of the split."""
    if item.source not in COMPOSED_SOURCES:
        raise ValueError(f"{item.name}: only composed pieces ({', '.join(COMPOSED_SOURCES)}) have a solo render")
    rng = random.Random(f"solo:{item.song}")
    font = rng.choice(sorted(set(SOUNDFONTS) - {composed_draws(item.song)[0]}))
    solo = rng.choice(sorted(SOLO_PROGRAMS))
    name = f"{item.song}-{font}-{solo}"
    render = generated_render(composer(item.source)(item.song), font, name, solo)
    return RealItem(name, item.group, render, item.beats, item.downbeats, item.bpm, item.changes,
                    source=item.source, song=item.song)


# ---------------------------------------------------------------- MMA's accompaniment styles

# Musical MIDI Accompaniment's standard library: about a hundred styles (rock, swing, Latin, waltzes, marches,
# ballads, country, jazz), each a set of grooves written by hand for drums, bass, chords and arpeggios. A song per
# style: its first groove over a chord progression, at a tempo drawn per song; MMA writes the MIDI on its grid, so
# every beat and bar line is known.
MMA_STYLES = "/usr/share/mma/lib/stdlib"
MMA_SKIP = re.compile(r"^(metronome.*|none)$")  # a click and silence are no music
# A style whose own notes say the song's tempo must be doubled, tripled or multiplied is written in notes of
# half or a third of the beat: which pulse is its beat, its truth does not say.
MMA_AMBIGUOUS = re.compile(r"double|twice|three times|multiply", re.I)
MMA_TEMPO = (60.0, 180.0)  # drawn log-uniformly per song
# (root offset in semitones from the key, chord quality in MMA's names), one per bar
MMA_PROGRESSIONS = (
    ((0, ""), (9, "m"), (5, ""), (7, "")),
    ((0, ""), (7, ""), (9, "m"), (5, "")),
    ((2, "m7"), (7, "7"), (0, "M7"), (0, "M7")),
    ((0, "7"), (0, "7"), (0, "7"), (0, "7"), (5, "7"), (5, "7"), (0, "7"), (0, "7"), (7, "7"), (5, "7"), (0, "7"),
     (7, "7")),
    ((0, "m"), (8, ""), (3, ""), (10, "")),
    ((0, ""), (5, ""), (7, "7"), (0, "")),
)
MMA_KEYS = ("C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B")


def mma_styles():
    """(style, first groove, beats per bar, ambiguous) of every style file of the standard library."""
    files = sorted(glob.glob(os.path.join(MMA_STYLES, "*.mma")))
    if not files:
        raise FileNotFoundError(f"{MMA_STYLES}: install mma (eval/install-dependencies)")
    out = []
    for path in files:
        style = os.path.splitext(os.path.basename(path))[0]
        if MMA_SKIP.match(style):
            continue
        text = open(path, encoding="latin-1").read()
        doc = re.search(r"^Begin Doc(.*?)^End", text, re.M | re.S)
        grooves = re.findall(r"^\s*DefGroove\s+(\S+)", text, re.M | re.I)
        time = re.search(r"^\s*Time\s+(\d+)", text, re.M | re.I)
        if not grooves:
            continue
        out.append((style, grooves[0], int(time.group(1)) if time else 4,
                    bool(doc and MMA_AMBIGUOUS.search(doc.group(1)))))
    return out


def mma_song_text(song, groove, beats_per_bar):
    """The MMA source of `song`: a tempo, a key and a progression drawn with the song's seed, repeated for
    MIDI_TARGET seconds and a bar more."""
    rng = random.Random(f"mma:{song}")
    bpm = round(math.exp(rng.uniform(math.log(MMA_TEMPO[0]), math.log(MMA_TEMPO[1]))), 1)
    key = rng.randrange(12)
    progression = rng.choice(MMA_PROGRESSIONS)
    bars = math.ceil(MIDI_TARGET / (beats_per_bar * 60 / bpm)) + 1
    lines = [f"Tempo {bpm}", f"Groove {groove}"]
    for n in range(bars):
        offset, quality = progression[n % len(progression)]
        lines.append(f"{MMA_KEYS[(key + offset) % 12]}{quality}")
    return "\n".join(lines) + "\n"


def mma_midi(song, groove, beats_per_bar):
    """The song's MIDI file, made once into the cache."""
    path = os.path.join(out_cache(), f"{song}.mid")
    if not os.path.exists(path):
        with tempfile.TemporaryDirectory() as scratch:
            source = os.path.join(scratch, "song.mma")
            open(source, "w").write(mma_song_text(song, groove, beats_per_bar))
            atomic_write(path, lambda tmp: run(["mma", source, "-f", tmp]))
    return path


def mma_items():
    out = []
    for style, groove, beats_per_bar, ambiguous in mma_styles():
        song = f"mma-{style}"
        path = mma_midi(song, groove, beats_per_bar)
        mf = midifile.MidiFile(path)
        last = max(n[0] for n in mf.notes())
        # MMA counts a bar in quarter notes (its Time), whatever time signature the style writes into the file
        # (the Viennese waltz writes 4/4): the beats are the quarters, a bar every `beats_per_bar` of them.
        beats = list(range(0, last + 1, mf.division))
        downbeats = beats[::beats_per_bar]
        ends = [d for d in downbeats if 0 < mf.seconds(d) <= MIDI_TARGET]
        if not ends or mf.seconds(ends[-1]) < MIN_SECONDS:
            continue
        end = ends[-1]
        times = [mf.seconds(b) for b in beats if b < end]
        bars = [mf.seconds(b) for b in downbeats if b < end]
        steady, changes = tempo_summary(times)
        rng = random.Random(f"render:{song}")
        font = rng.choice(sorted(SOUNDFONTS))
        augmented = rng.random() < 0.75
        name = f"{song}-{font}" + ("-room" if augmented else "")
        out.append(RealItem(name, "mma-ambiguous" if ambiguous else "mma",
                            functools.partial(finish_midi, path, font, 0.0, mf.seconds(end),
                                              name if augmented else None),
                            times, bars, steady, changes, source="mma", song=song))
        # The same song's drums alone, through a soundfont drawn apart: the groove with nothing else to say where
        # the beat is, as in a drum machine's loop or a break (styles whose drums play less than a note a beat
        # have none).
        drum_hits = sum(1 for tick, channel, _, _ in mf.notes() if channel == 9 and tick < end)
        if not ambiguous and drum_hits >= len(times):
            rng = random.Random(f"render-drums:{song}")
            font = rng.choice(sorted(SOUNDFONTS))
            augmented = rng.random() < 0.75
            name = f"{song}-drums-{font}" + ("-room" if augmented else "")
            all_but_drums = tuple(channel for channel in range(16) if channel != 9)
            out.append(RealItem(name, "mma-drums", functools.partial(finish_midi_excerpt, path, 0, end, font,
                                                                     name if augmented else None, all_but_drums,
                                                                     None),
                                times, bars, steady, changes, source="mma", song=song))
    return out


# ---------------------------------------------------------------- the corpus

# The licences of the soundfonts every MIDI render goes through (SOUNDFONTS).
SOUNDFONT_LICENCES = {"fluid-soundfont-gm": "MIT", "timgm6mb-soundfont": "GPL-2",
                      "musescore-general-soundfont": "MIT (parts public domain or CC0)"}
# Where each source's material comes from, and its licence (from /usr/share/doc/PACKAGE/copyright): the beat
# network trained on the training part states these with its weights.
LICENCES = {
    "hydrogen": {"hydrogen-data": "GPL-2+ (demo songs)",
                 "hydrogen-drumkits": "GPL-2+, GPL-2, CC-BY-3.0, CC-BY-SA-3.0, CC0 (per kit)"},
    "sonicpi": {"sonic-pi-samples": "CC0 (the loops; a few other samples CC-BY-SA-4.0, MIT, Zlib)"},
    "gm-pieces": {"jacktap (eval/real_corpus.py)": "the project's own", "fluid-soundfont-gm": "MIT"},
    "midi-debian": {"openttd-openmsx": "GPL-2.0", "simutrans-data": "Artistic-1.0",
                    "planetblupi-music-midi": "GPL-3+", "pianobooster": "CC-BY (music/*)", **SOUNDFONT_LICENCES},
    "tracker": {"tecnoballz-data": "GPL-3+", "heroes-sound-tracks": "GPL-2+", "gl-117-data": "GPL-2",
                "pingus-data": "GPL-2+", "freedroid-data": "GPL-2+", "biniax2-data": "Zlib"},
    "lmms": {"lmms-common": "GPL-2+ (the demo projects; samples GPL-2+, LGPL, CC-BY-SA-3/4, per file)"},
    "generated": {"jacktap (eval/generated_music.py)": "the project's own", **SOUNDFONT_LICENCES},
    "popular": {"jacktap (eval/generated_popular.py)": "the project's own", **SOUNDFONT_LICENCES},
    "freedoom": {"freedoom": "BSD-3-Clause (freedoom-license)", **SOUNDFONT_LICENCES},
    "freedink": {"freedink-data": "GPL-3+ (Sound/7.mid, 18.mid), public domain (13.mid), GPL-3+ or Art Libre or "
                              "CC-BY-SA (104.mid, 105.mid): README-REPLACEMENTS", **SOUNDFONT_LICENCES},
    "rosegarden": {"rosegarden": "GPL-2+ (its examples, compiled into /usr/bin/rosegarden)", **SOUNDFONT_LICENCES},
    "mma": {"mma": "GPL-2+ (the style library)", **SOUNDFONT_LICENCES},
}

_ITEMS = None


def items():
    """Every item, the existing ones first in their order. Built once per process (the MIDI files are parsed
    and the tracker modules' row logs read, or made once into eval/out/real-v1/cache/)."""
    global _ITEMS
    if _ITEMS is not None:
        return _ITEMS
    out = [hydrogen_item(song, kit, ambiguous) for song, kits, ambiguous in HYDROGEN for kit in kits]
    out += [hydrogen_item(song, None, False, humanize) for song, _, ambiguous in HYDROGEN if not ambiguous
            for humanize in HUMANIZE]
    out += [sonic_pi_item(n, b, False) for n, b in SONIC_PI.items()]
    out += [sonic_pi_item(n, b, True) for n, b in SONIC_PI_AMBIGUOUS.items()]
    out += [groove_item("midi-step-100-130", [(100, 100, 16), (130, 130, 32)]),
            groove_item("midi-rit-120-90", [(120, 120, 12), (120, 90, 16), (90, 90, 16)]),
            groove_item("midi-accel-90-140", [(90, 90, 12), (90, 140, 16), (140, 140, 24)]),
            groove_item("midi-waltz-150", [(150, 150, 72)], beats_per_bar=3)]
    # More tempi, so the GM pieces span 48-240 BPM, and 6/8.
    out += [groove_item(f"midi-steady-{bpm}", [(bpm, bpm, round(bpm * 40 / 60))], group="gm-pieces")
            for bpm in (48, 60, 72, 200, 220, 240)]
    out += [groove_item("midi-step-180-220", [(180, 180, 48), (220, 220, 96)], group="gm-pieces"),
            groove_item("midi-rit-80-50", [(80, 80, 12), (80, 50, 12), (50, 50, 16)], group="gm-pieces"),
            groove_item("midi-waltz-90", [(90, 90, 60)], beats_per_bar=3, group="gm-pieces"),
            compound_item("midi-68-66", 66, 44), compound_item("midi-68-100", 100, 66)]
    out += midi_debian_items()
    out += tracker_items()
    out += lmms_items()
    out += generated_items()
    out += popular_items()
    out += mma_items()
    out += freedoom_items()
    out += freedink_items()
    out += rosegarden_items()
    names = [i.name for i in out]
    if len(set(names)) != len(names):
        raise RuntimeError("two items share a name")
    _ITEMS = out
    return out


# ---------------------------------------------------------------- the train / held-out split

SPLIT_FILE = os.path.join(HERE, "real_split.json")
# Groups eval/real reports apart from the sources' rows and totals (their truth is ambiguous, or they are
# copies of songs already counted: humanised, or the drums alone).
APART_SUFFIXES = ("-ambiguous", "-humanized", "-drums")
_SPLIT = None


def split(item):
    """"train" or "held-out", from eval/real_split.json (never from its seed: adding items cannot move the
    existing ones). A song the file does not list is an error: extend the file with `eval/real_split.py
    --write`."""
    global _SPLIT
    if _SPLIT is None:
        _SPLIT = json.load(open(SPLIT_FILE))
    side = _SPLIT["songs"].get(item.source, {}).get(item.song)
    if side is None:
        raise KeyError(f"{item.name}: song {item.song} ({item.source}) is not in {SPLIT_FILE}; "
                       "run eval/real_split.py --write to draw it (existing songs keep their side)")
    return side


def item_names(path):
    """The item names a file lists, one a line, '#' starting a comment (eval/shipped-network-items.txt)."""
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def training_items_named(path):
    """The training items `path` names (item_names), in its order; ValueError if it names none or any item that
    is not in the training part: the held-out part stays unread whatever the file says."""
    names = item_names(path)
    known = {it.name: it for it in training_items()}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"{path}: {len(unknown)} name(s) not in the training part ({', '.join(unknown[:5])})")
    if not names:
        raise ValueError(f"{path}: no item names")
    return [known[name] for name in names]


def training_items():
    """The items a network is trained on (eval/train-beat-network): the training part, but for the groups reported
    apart as ambiguous (their truth does not say which pulse is the beat)."""
    return [item for item in items() if split(item) == "train" and not item.group.endswith("-ambiguous")]


# eval/train-beat-network's default --seed: its batches and the songs it keeps aside (validation_songs).
TRAINING_SEED = 20261126


def validation_songs(rng, items=None):
    """The training songs eval/train-beat-network keeps aside to pick its epoch: 15 % of them, drawn by shuffling
    their sorted names with `rng` (the script's, seeded with its --seed, drawn from first). `items`: the training
    items it was given (--items), by default all of them."""
    songs = sorted({item.song for item in (training_items() if items is None else items)})
    rng.shuffle(songs)
    return set(songs[: max(1, round(0.15 * len(songs)))])


def ensure_rendered(item, out_dir):
    directory = os.path.join(out_dir, f"real-{VERSION}")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{item.name}.wav")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}.tmp.wav"
        item.render(tmp)
        os.replace(tmp, path)
    try:
        side = split(item)
    except (KeyError, FileNotFoundError):
        side = None
    truth = path[:-4] + ".truth.json"
    atomic_write(truth, lambda tmp: json.dump(
        {"beats": item.beats, "downbeats": item.downbeats, "bpm": item.bpm, "changes": item.changes,
         "source": item.source, "song": item.song, "split": side}, open(tmp, "w")))
    return path


def _render_one(index):
    item = items()[index]
    started = __import__("time").time()
    ensure_rendered(item, os.path.join(HERE, "out"))
    return item.name, __import__("time").time() - started


def main():
    import argparse
    import concurrent.futures
    import fnmatch
    import time
    parser = argparse.ArgumentParser(description="The real-recording corpus: list or render it.")
    parser.add_argument("--render", action="store_true", help="render every item missing from eval/out/real-v1/")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--items", default="*", help="only the items whose name matches this glob")
    args = parser.parse_args()
    chosen = [k for k, i in enumerate(items()) if fnmatch.fnmatch(i.name, args.items)]
    by_source = {}
    for k in chosen:
        i = items()[k]
        entry = by_source.setdefault(i.source, [0, set(), 0.0, []])
        entry[0] += 1
        entry[1].add(i.song)
        entry[2] += i.beats[-1] - i.beats[0]
        if i.bpm:
            entry[3].append(i.bpm)
    for source, (n, songs, seconds, bpms) in by_source.items():
        tempo = f", steady {min(bpms):.0f}-{max(bpms):.0f} BPM" if bpms else ""
        print(f"{source}: {n} items, {len(songs)} songs, {seconds / 60:.1f} min of beats{tempo}")
    if args.render:
        start = time.time()
        modrender()  # compiled once before the workers start
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            for name, seconds in pool.map(_render_one, chosen):
                print(f"{name}: {seconds:.1f} s", flush=True)
        print(f"{len(chosen)} items in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
