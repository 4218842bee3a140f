"""Runs jacktap and aubio on one file and turns their output into plain lists, with each run's CPU time.

CPU time is the user + system time of the child process, from getrusage(RUSAGE_CHILDREN) before and after it:
each worker process runs its children one at a time, so the difference belongs to that one child.

Time conventions (all in seconds of audio from the file's first sample):
- pitch: (t, Hz) where t is the instant the estimate describes; Hz < 0 is an unvoiced candidate (mir_eval's
  convention), 0 means no candidate.
- onsets / beats: (t, reported) — the instant described and the stream time at which the tool knew it.
"""

import json
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(args):
    """(stdout, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
    return proc.stdout, cpu


# ---------------------------------------------------------------- jacktap


def default_jacktap():
    """A release build of jacktap in this working tree (.build-eval first), or None."""
    repo = os.path.dirname(HERE)
    for scratch in (".build-eval", ".build"):
        path = os.path.join(repo, scratch, "release", "jacktap")
        if os.path.exists(path):
            return path
    return None


def run_jacktap(binary, path, extra=()):
    out, cpu = timed([binary, "analyze", path, "--json", "--rate", "100", *extra])
    return parse_jacktap(out), cpu


def parse_jacktap(text):
    """The contract's JSON lines: ticks with a pitch object (its own t) and tempo, onset and beat event lines."""
    pitch, onsets, beats, tempo_ticks = {}, [], [], []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if "event" in obj:
            if obj.get("port", "in_1") != "in_1":
                continue
            t = float(obj["t"])
            reported = float(obj.get("reported", t))
            if obj["event"] == "onset":
                onsets.append((t, reported))
            elif obj["event"] == "beat":
                beats.append((t, reported, obj.get("bpm")))
            continue
        port = obj.get("in_1")
        if not isinstance(port, dict):
            continue
        p = port.get("pitch")
        if isinstance(p, dict) and p.get("t") is not None:
            hz = float(p.get("hz") or 0.0)
            pitch[round(float(p["t"]), 6)] = hz if p.get("voiced") else -abs(hz)
        elif "t" in obj and "pitch" in port and p is None:
            pitch.setdefault(round(float(obj["t"]), 6), 0.0)
        if port.get("tempo") is not None:
            tempo_ticks.append((float(obj["t"]), float(port["tempo"])))
    return {
        "pitch": sorted(pitch.items()),
        "onsets": sorted(onsets),
        "beats": sorted(beats),
        "tempo_ticks": tempo_ticks,
    }


# ---------------------------------------------------------------- aubio (Debian's aubio-tools)


def aubio_sizes(rate):
    """aubio's best settings (yin 2048/256, hfc 1024/128, tempo 512/256, scored with mir_eval) are in samples at
    44.1 kHz; at 88.2/96 kHz they are doubled so every window keeps its length in milliseconds (and the yin
    window its lowest note). 48 kHz keeps them as they are."""
    k = max(1, round(rate / 44100))
    return {"pitch": (2048 * k, 256 * k), "onset": (1024 * k, 128 * k), "beat": (512 * k, 256 * k)}


def run_aubio(path, rate, confidence=True):
    sizes = aubio_sizes(rate)
    result, cpu = {}, {}
    b, h = sizes["pitch"]
    # yin, not the CLI's default yinfft (raw pitch accuracy 0.877 against yin's 0.921, biased sharp below A#2).
    # The CLI prints every hop's best candidate and no confidence; voicing as-is is only its silence gate (-s,
    # default -90 dB).
    out, cpu["pitch"] = timed(["aubiopitch", "-p", "yin", "-B", str(b), "-H", str(h), "-T", "samples", "-i", path])
    result["pitch_cli"] = [(int(float(a)), float(f)) for a, f in (line.split() for line in out.splitlines() if line.strip())]
    # The same yin through Debian's python3-aubio, for its confidence (1 - the yin dip); not timed.
    result["pitch_conf"] = []
    if confidence:
        helper = [aubio_python(), os.path.join(HERE, "aubio_pitch.py"), path, str(b), str(h)]
        out, _ = timed(helper)
        result["pitch_conf"] = [(int(a), float(f), float(c)) for a, f, c in (line.split() for line in out.splitlines() if line.strip())]
    b, h = sizes["onset"]
    out, cpu["onset"] = timed(["aubioonset", "-O", "hfc", "-B", str(b), "-H", str(h), "-T", "samples", "-i", path])
    result["onsets_printed"] = [int(float(x)) for x in out.split()]
    b, h = sizes["beat"]
    out, cpu["beat"] = timed(["aubiotrack", "-B", str(b), "-H", str(h), "-T", "samples", "-i", path])
    result["beats_printed"] = [int(float(x)) for x in out.split()]
    result["sizes"] = sizes
    return result, cpu


def aubio_python():
    """A Python that can import aubio: Debian's python3-aubio lives in the system interpreter."""
    for candidate in ("/usr/bin/python3", sys.executable):
        if os.path.exists(candidate) and subprocess.run([candidate, "-c", "import aubio"],
                                                        capture_output=True).returncode == 0:
            return candidate
    raise RuntimeError("no python with the aubio module (apt-get install python3-aubio)")


def aubio_yin_centre(printed, hz, bufsize, hop):
    """The instant aubio's yin estimate describes. aubiopitch prints blocks*hop for the block it has just read,
    so the window is [printed + hop - B, printed + hop). yin compares x[j] with x[j + tau] for j < B/2 only,
    so the samples it uses span the window's first B/2 + tau; their centre is window start + (B/2 + tau)/2
    (checked on a sox glide: this puts aubio's estimates on the sweep law within a few cents)."""
    tau = 0.0 if hz == 0 else 1.0 / abs(hz)
    return printed + hop - bufsize + (bufsize / 2 + tau) / 2


def aubio_onset_reported(printed, hop):
    """The stream sample at which aubioonset knew an onset it printed at `printed` (samples).

    aubio_onset_do, at block b (b*hop samples already consumed before it, (b+1)*hop after), sets
    last_onset = b*hop + round(p*hop) with p the peak picker's interpolated position in [0.5, 1.5], and the CLI
    prints last_onset - delay, delay = (uint)(4.3*hop) for hfc. Hence b*hop lies in
    [printed + delay - 1.5 hop, printed + delay - 0.5 hop] and the detection is known at (b+1)*hop."""
    delay = int(4.3 * hop)
    x = printed + delay
    b = -(-(x - 3 * hop // 2) // hop)  # ceil
    return (b + 1) * hop


def aubio_beat_reported(printed, hop):
    """aubiotrack prints last_beat = b*hop + round(frac*hop) (delay 0) in the block b whose span holds the
    predicted beat, so it is announced when that block has been read: (b+1)*hop."""
    return (printed // hop + 1) * hop
