#!/usr/bin/env python3
"""A look at the real corpus' truth against its audio, without any beat tracker: for each truth beat, the nearest
energy onset of the rendered file (the steepest rise of the log energy in 1 ms frames, a peak of it within
±50 ms), and the same for the beats moved by half a beat (a null: off-beat positions of the same grid).

    eval/real_truth_check.py [--items GLOB] [--out DIR]

Per item: beats with an onset within 20 ms (on the grid, and at the half-beat null), and the median signed
offset (audio onset - truth beat) of those within 20 ms. Drum-heavy material should be near 100 % with a median
offset of a few ms; the null lower (it counts off-beat eighth notes).
"""

import argparse
import fnmatch
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import real_corpus  # noqa: E402

FRAME = 44  # samples: 1 ms at 44.1 kHz


def read(path):
    """Mono float samples and the rate, through sox (the renders are WAVE_FORMAT_EXTENSIBLE, 24-bit)."""
    rate = int(subprocess.run(["soxi", "-r", path], capture_output=True, text=True, check=True).stdout)
    raw = subprocess.run(["sox", path, "-t", "f32", "-c", "1", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.float32).astype(np.float64), rate


def onsets(x, rate):
    """Onset times: peaks of the rise of log energy (1 ms frames, over 5 ms), above its 90th percentile."""
    n = len(x) // FRAME
    energy = (x[:n * FRAME].reshape(n, FRAME) ** 2).mean(axis=1)
    log = 10 * np.log10(energy + 1e-10)
    smooth = np.convolve(log, np.ones(3) / 3, mode="same")
    rise = np.zeros(n)
    rise[5:] = smooth[5:] - smooth[:-5]
    threshold = max(3.0, np.percentile(rise, 90))
    peaks = [k for k in range(1, n - 1) if rise[k] > threshold and rise[k] >= rise[k - 1] and rise[k] > rise[k + 1]]
    # The onset is where the rise starts to be steep: 2.5 ms before the middle of the 5 ms difference.
    return np.array(peaks) * FRAME / rate - 0.0025


def match(beats, times, window=0.05):
    offsets = []
    for b in beats:
        if len(times) == 0:
            break
        k = np.searchsorted(times, b)
        near = [times[j] - b for j in (k - 1, k) if 0 <= j < len(times)]
        best = min(near, key=abs)
        if abs(best) <= window:
            offsets.append(best)
    return np.array(offsets)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", default="*")
    parser.add_argument("--out", default=os.path.join(HERE, "out"))
    args = parser.parse_args()
    print("| item | beats | onset within 20 ms | at the half-beat null | median offset ms |")
    print("|---|---:|---:|---:|---:|")
    for item in real_corpus.items():
        if not fnmatch.fnmatch(item.name, args.items):
            continue
        path = os.path.join(args.out, f"real-{real_corpus.VERSION}", item.name + ".wav")
        if not os.path.exists(path):
            continue
        x, rate = read(path)
        times = onsets(x, rate)
        beats = np.array(item.beats)
        beats = beats[beats < len(x) / rate - 0.05]
        half = (beats[:-1] + beats[1:]) / 2
        on = match(beats, times)
        null = match(half, times)
        close = on[np.abs(on) <= 0.02]
        print(f"| {item.name} | {len(beats)} | {len(close) / len(beats):.0%} | "
              f"{np.mean(np.abs(null) <= 0.02) * len(null) / max(1, len(half)):.0%} | "
              f"{1000 * np.median(close) if len(close) else float('nan'):+.1f} |")


if __name__ == "__main__":
    sys.exit(main())
