"""The evaluation corpus: what each item is, how it is rendered, and its ground truth.

Every item is defined here, deterministically (fixed seeds), so the ground truth comes from the definition itself:
MIDI note on/off times and key numbers, sox tone frequencies and sweep laws, drum-pattern beat grids. Rendering is
cached under out/corpus-<VERSION>/<rate>/ and only redone when the file is missing.
"""

import math
import os
import random
import subprocess
import tempfile
from dataclasses import dataclass, field

import smf

VERSION = "v1"
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
FRAME = 0.01  # ground-truth f0 hop, seconds (the MIREX melody convention)
LEAD_IN = 0.5  # every item starts with half a second of silence (or noise) before its first event
ONSET_MERGE = 0.03  # truth onsets closer than this are one onset (a chord, a kick with a hat)


def midi_hz(key):
    return 440.0 * 2.0 ** ((key - 69) / 12.0)


@dataclass
class Item:
    """One corpus item. Times in seconds from the file's first sample."""

    name: str
    group: str  # instrument | synth | noise-tone | noise | drums | mix
    duration: float
    tasks: tuple  # subset of ("pitch", "noise", "onset", "beat")
    render: object = None  # function(path, rate, scratch_dir)
    notes: list = field(default_factory=list)  # (start, end, hz) of a monophonic line, for f0 truth
    sweeps: list = field(default_factory=list)  # (start, end, f0, f1, law) with law "linear" or "exponential"
    onsets: list = field(default_factory=list)
    bpm: float = 0.0
    beats: list = field(default_factory=list)

    def f0_truth(self):
        """(times, Hz) on a 10 ms grid; 0 Hz where nothing is meant to sound."""
        n = int(math.floor(self.duration / FRAME))
        times = [i * FRAME for i in range(n)]
        freqs = [0.0] * n
        for start, end, hz in self.notes:
            for i in range(int(math.ceil(start / FRAME)), min(n, int(math.ceil(end / FRAME)))):
                freqs[i] = hz
        for start, end, f0, f1, law in self.sweeps:
            for i in range(int(math.ceil(start / FRAME)), min(n, int(math.ceil(end / FRAME)))):
                x = (times[i] - start) / (end - start)
                freqs[i] = f0 + (f1 - f0) * x if law == "linear" else f0 * (f1 / f0) ** x
        return times, freqs


def merge_onsets(times):
    out = []
    for t in sorted(times):
        if not out or t - out[-1] >= ONSET_MERGE:
            out.append(t)
    return out


def run(args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish(raw, path, duration, rate, normalise=-1.0):
    """Mono, the item's exact length, peak-normalised (sox), 24-bit at `rate`."""
    cmd = ["sox", raw, "-r", str(rate), "-b", "24", "-c", "1", path, "remix", "-", "trim", "0", f"{duration:.6f}",
           "pad", "0", f"{duration:.6f}", "trim", "0", f"{duration:.6f}"]
    if normalise is not None:
        cmd += ["norm", str(normalise)]
    run(cmd)


# ---------------------------------------------------------------- MIDI melodies (fluidsynth + FluidR3 GM)

INSTRUMENTS = [  # name, GM program (0-based), lowest key, highest key, seed
    ("piano", 0, 48, 84, 1),
    ("guitar", 24, 40, 76, 2),  # nylon
    ("bass", 33, 28, 52, 3),  # finger bass, down to E1 (41.2 Hz)
    ("violin", 40, 55, 88, 4),
    ("cello", 42, 36, 69, 5),
    ("voice", 53, 48, 72, 6),  # voice oohs
    ("trumpet", 56, 55, 82, 7),
    ("flute", 73, 60, 93, 8),
]
MAJOR = (0, 2, 4, 5, 7, 9, 11)


def melody(seed, low, high, duration, beat=0.6):
    """A monophonic scale-wise line with leaps (octaves included), rests and 90 % articulation."""
    rng = random.Random(seed)
    keys = [k for k in range(low, high + 1) if (k - low) % 12 in MAJOR]
    index = len(keys) // 2
    notes, t = [], LEAD_IN
    first = True
    while True:
        length = rng.choice((0.5, 0.5, 1.0, 1.0, 1.0, 1.5, 2.0)) * beat
        if t + length > duration - 0.5:
            break
        if not first and rng.random() < 0.12:
            t += 0.5 * beat  # a rest
            continue
        if first:
            index = 0 if low <= 28 else index  # the bass starts on its lowest E
        else:
            move = rng.choice((-2, -1, -1, 1, 1, 2, 3, -3, 7, -7))
            index = min(len(keys) - 1, max(0, index + move))
        first = False
        notes.append((t, t + 0.9 * length, keys[index]))
        t += length
    return notes


def instrument_item(name, program, low, high, seed, duration=12.0):
    raw_notes = melody(seed, low, high, duration)
    song = smf.Song()
    song.program(0, program)
    written = []
    for start, end, key in raw_notes:
        velocity = 70 + int(30 * random.Random(seed * 1000 + len(written)).random())
        s, e = song.note(0, key, start, end, velocity)
        written.append((s, e, midi_hz(key)))

    def render(path, rate, scratch):
        mid = os.path.join(scratch, "in.mid")
        raw = os.path.join(scratch, "raw.wav")
        song.write(mid, end=duration)
        run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(rate), "-T", "wav", SOUNDFONT, mid])
        finish(raw, path, duration, rate)

    return Item(name=name, group="instrument", duration=duration, tasks=("pitch", "onset"), render=render,
                notes=written, onsets=merge_onsets([n[0] for n in written]))


# ---------------------------------------------------------------- sox: sines, plucks, glides, noise


def sox_sequence(path, rate, scratch, duration, segments):
    """segments: (start, sox synth arguments) placed on silence; each rendered with sox, mixed with sox."""
    parts = []
    for i, (start, synth) in enumerate(segments):
        part = os.path.join(scratch, f"p{i}.wav")
        run(["sox", "-n", "-r", str(rate), "-b", "24", "-c", "1", part, "synth"] + synth + ["pad", f"{start:.6f}"])
        parts.append(part)
    raw = os.path.join(scratch, "raw.wav")
    if len(parts) == 1:
        os.replace(parts[0], raw)
    else:
        run(["sox", "-m"] + parts + [raw])
    finish(raw, path, duration, rate)


def sines_item():
    freqs = [55.0, 82.41, 110.0, 196.0, 261.63, 440.0, 659.26, 987.77, 1760.0, 3520.0]
    notes, segments, t = [], [], LEAD_IN
    for f in freqs:
        notes.append((t, t + 0.8, f))
        segments.append((t, ["0.8", "sine", f"{f}", "fade", "q", "0.005", "0.8", "0.005", "gain", "-6"]))
        t += 1.0
    duration = t + 0.5
    return Item("sines", "synth", duration, ("pitch", "onset"),
                render=lambda p, r, s: sox_sequence(p, r, s, duration, segments),
                notes=notes, onsets=[n[0] for n in notes])


def plucks_item():
    rng = random.Random(11)
    keys = [40, 45, 50, 55, 59, 64, 52, 57, 62, 67, 71, 76, 48, 60, 72, 43]
    notes, segments, t = [], [], LEAD_IN
    for key in keys:
        length = rng.choice((0.4, 0.5, 0.6))
        notes.append((t, t + length, midi_hz(key)))
        segments.append((t, [f"{length}", "pluck", f"{midi_hz(key):.3f}", "gain", "-6"]))
        t += length + 0.1
    duration = t + 0.5
    return Item("plucks", "synth", duration, ("pitch", "onset"),
                render=lambda p, r, s: sox_sequence(p, r, s, duration, segments),
                notes=notes, onsets=[n[0] for n in notes])


def glides_item():
    # sox sweeps: "a:b" is linear in Hz, "a/b" exponential (a fixed number of semitones per second).
    sweeps = [(LEAD_IN, LEAD_IN + 3.0, 110.0, 880.0, "linear"), (LEAD_IN + 3.5, LEAD_IN + 6.5, 1200.0, 60.0, "exponential")]
    segments = [(LEAD_IN, ["3", "sine", "110:880", "fade", "q", "0.005", "3", "0.005", "gain", "-6"]),
                (LEAD_IN + 3.5, ["3", "sine", "1200/60", "fade", "q", "0.005", "3", "0.005", "gain", "-6"])]
    duration = LEAD_IN + 7.0
    return Item("glides", "synth", duration, ("pitch",),
                render=lambda p, r, s: sox_sequence(p, r, s, duration, segments), sweeps=sweeps)


def noise_tone_item(snr_db, tones=((220.0, 1.0, 3.5), (660.0, 4.5, 7.0)), duration=8.0):
    """Sines in continuous pink noise; SNR = tone RMS over noise RMS (full band), both set by sox gains."""
    noise_rms_db = -26.0
    tone_peak_db = noise_rms_db + snr_db + 3.0103  # a sine's RMS is its peak - 3.01 dB

    def render(path, rate, scratch):
        noise = os.path.join(scratch, "noise.wav")
        run(["sox", "-R", "-n", "-r", str(rate), "-b", "24", "-c", "1", noise, "synth", f"{duration}", "pinknoise"])
        level = noise_rms(noise)
        segments = [(s, [f"{e - s}", "sine", f"{f}", "fade", "q", "0.005", f"{e - s}", "0.005",
                         "gain", f"{tone_peak_db:.3f}"]) for f, s, e in tones]
        run(["sox", noise, os.path.join(scratch, "n.wav"), "gain", f"{noise_rms_db - level:.3f}"])
        parts = [os.path.join(scratch, "n.wav")]
        for i, (start, synth) in enumerate(segments):
            part = os.path.join(scratch, f"t{i}.wav")
            run(["sox", "-n", "-r", str(rate), "-b", "24", "-c", "1", part, "synth"] + synth + ["pad", f"{start}"])
            parts.append(part)
        raw = os.path.join(scratch, "raw.wav")
        run(["sox", "-m", "-v", "1"] + [x for p in parts for x in (p, "-v", "1")][:-2] + [raw])
        finish(raw, path, duration, rate, normalise=None)

    return Item(f"tones-in-pink-{snr_db:g}dB", "noise-tone", duration, ("pitch",), render=render,
                notes=[(s, e, f) for f, s, e in tones])


def noise_rms(path):
    out = subprocess.run(["sox", path, "-n", "stats"], capture_output=True, text=True).stderr
    for line in out.splitlines():
        if line.startswith("RMS lev dB"):
            return float(line.split()[-1])
    raise RuntimeError(f"no RMS from sox stats for {path}")


def noise_item(level_db, duration=10.0):
    def render(path, rate, scratch):
        raw = os.path.join(scratch, "raw.wav")
        run(["sox", "-R", "-n", "-r", str(rate), "-b", "24", "-c", "1", raw, "synth", f"{duration}", "pinknoise"])
        run(["sox", raw, "-b", "24", path, "gain", f"{level_db - noise_rms(raw):.3f}"])

    return Item(f"pink-noise{level_db:g}dB", "noise", duration, ("noise",), render=render)


# ---------------------------------------------------------------- drum and mix loops (GM channel 10)

KICK, SNARE, CLOSED_HAT, OPEN_HAT = 36, 38, 42, 46
PATTERNS = {  # steps of a 16-step bar: kick, snare, closed hats, open hats; "alt" adds kicks every other bar
    "hiphop": dict(kick=(0, 7, 10), snare=(4, 12), hat=(0, 2, 4, 6, 8, 10, 12, 14), open=(), alt=(15,)),
    "rock": dict(kick=(0, 8), snare=(4, 12), hat=(0, 2, 4, 6, 8, 10, 12, 14), open=(14,), alt=(10,)),
    "four": dict(kick=(0, 4, 8, 12), snare=(4, 12), hat=(2, 6, 10, 14), open=(), alt=()),
    "dnb": dict(kick=(0, 10), snare=(4, 12), hat=(0, 2, 4, 6, 8, 10, 12, 14), open=(), alt=(7,)),
}
STYLE = {90: "hiphop", 100: "rock", 110: "rock", 120: "rock", 128: "four", 140: "rock", 174: "dnb"}
LOOP_SECONDS = 30.0


def loop_item(bpm, with_music):
    style = PATTERNS[STYLE[bpm]]
    step = 60.0 / bpm / 4
    song = smf.Song()
    rng = random.Random(bpm * 7 + with_music)
    hits = []
    bar = 0
    while LEAD_IN + bar * 16 * step < LOOP_SECONDS:
        for s in range(16):
            t = LEAD_IN + (bar * 16 + s) * step
            if t >= LOOP_SECONDS - 0.05:
                break
            voices = []
            if s in style["kick"] or (bar % 2 == 1 and s in style["alt"]):
                voices.append((KICK, 110))
            if s in style["snare"]:
                voices.append((SNARE, 105))
            if s in style["open"] and bar % 4 == 3:
                voices.append((OPEN_HAT, 80))
            elif s in style["hat"]:
                voices.append((CLOSED_HAT, 60 + rng.randrange(25)))
            for key, velocity in voices:
                start, _ = song.note(9, key, t, t + step * 0.9, velocity)
                hits.append(start)
        bar += 1
    if with_music:
        # E minor: Em C G D, a bar each; 8th-note bass roots from E1, piano chords on 1 and the "and" of 2.
        roots, chords = (28, 36, 31, 38), ((52, 55, 59), (52, 55, 60), (50, 55, 59), (50, 54, 57))
        song.program(0, 33)
        song.program(1, 0)
        for b in range(bar):
            for s in range(0, 16, 2):
                t = LEAD_IN + (b * 16 + s) * step
                if t >= LOOP_SECONDS - 0.05:
                    break
                start, _ = song.note(0, roots[b % 4] + (12 if s in (6, 14) else 0), t, t + 1.8 * step, 95)
                hits.append(start)
                if s in (0, 6):
                    for key in chords[b % 4]:
                        start, _ = song.note(1, key, t, t + 2.5 * step, 80)
                    hits.append(start)
    beats = []
    k = 0
    while LEAD_IN + k * 60.0 / bpm < LOOP_SECONDS - 0.05:
        beats.append(smf.seconds(smf.ticks(LEAD_IN + k * 60.0 / bpm)))
        k += 1

    def render(path, rate, scratch):
        mid = os.path.join(scratch, "in.mid")
        raw = os.path.join(scratch, "raw.wav")
        song.write(mid, end=LOOP_SECONDS)
        run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(rate), "-T", "wav", SOUNDFONT, mid])
        finish(raw, path, LOOP_SECONDS, rate)

    return Item(f"{'mix' if with_music else 'drums'}-{bpm}", "mix" if with_music else "drums", LOOP_SECONDS,
                ("onset", "beat"), render=render, onsets=merge_onsets(hits), bpm=float(bpm), beats=beats)


# ---------------------------------------------------------------- the corpus


def items(quick=False):
    if quick:
        return [instrument_item(*INSTRUMENTS[0]), instrument_item(*INSTRUMENTS[2]), plucks_item(), glides_item(),
                noise_tone_item(10), noise_item(-20), loop_item(120, False), loop_item(174, True)]
    out = [instrument_item(*spec) for spec in INSTRUMENTS]
    out += [sines_item(), plucks_item(), glides_item()]
    out += [noise_tone_item(snr) for snr in (20, 10, 3)]
    out += [noise_item(-20), noise_item(-40)]
    out += [loop_item(bpm, False) for bpm in sorted(STYLE)]
    out += [loop_item(bpm, True) for bpm in (90, 120, 174)]
    return out


def ensure_rendered(item, rate, out_dir):
    """The item's WAV at `rate`, rendering it first when it is not cached."""
    directory = os.path.join(out_dir, f"corpus-{VERSION}", str(rate))
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{item.name}.wav")
    if not os.path.exists(path):
        with tempfile.TemporaryDirectory(dir=directory) as scratch:
            tmp = os.path.join(scratch, "item.wav")
            item.render(tmp, rate, scratch)
            os.replace(tmp, path)
    return path
