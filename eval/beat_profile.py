#!/usr/bin/env python3
"""Where in the beat a learned activation peaks, on training items of eval/real's corpus: for each item, the
activation's 90th percentile over the frames at each of N phases of the true beat (phase 0 the beat, k/N the
frames nearest k/N of the way to the next one). A network that takes an off-beat for the beat shows its peak away
from phase 0: at 6/12 for the straight off-beat eighth, at 8/12 for the swung one.

    eval/beat_profile.py [--jacktap PATH] [--beat-model FILE]... [--bins N] ITEM...

ITEM names a rendered item of the training part (eval/out/real-v1/ITEM.wav, `python3 eval/real_corpus.py
--render`); a held-out item is refused, as eval/train-beat-network refuses to read one. --beat-model FILE
(repeatable): the networks to compare, each a row (default: the shipped one, `--beat-activation learned`).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import beat_weights  # noqa: E402
import real_corpus  # noqa: E402
import tools  # noqa: E402

PERCENTILE = 90


def phase_profile(instants, activation, beats, bins):
    """The activation's PERCENTILE-th percentile over the frames nearest each of `bins` phases of the true beat,
    over the frames between the first true beat and the last (all NaN with fewer than two beats)."""
    if len(beats) < 2:
        return [float("nan")] * bins
    inside, start, end = real_corpus.beat_intervals(instants, beats)
    phase = np.floor((instants[inside] - start[inside]) / (end[inside] - start[inside]) * bins + 0.5).astype(int) % bins
    values = activation[inside]
    return [float(np.percentile(values[phase == j], PERCENTILE)) if np.any(phase == j) else float("nan")
            for j in range(bins)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jacktap", default=tools.default_jacktap())
    parser.add_argument("--beat-model", action="append", default=[], metavar="FILE")
    parser.add_argument("--bins", type=int, default=12, help="phases of the beat (default 12: eighths and triplets)")
    parser.add_argument("items", nargs="+", metavar="ITEM")
    args = parser.parse_args()
    if not 2 <= args.bins <= 96:
        parser.error("--bins: 2 to 96")
    if not args.jacktap or not os.path.exists(args.jacktap):
        parser.error("no jacktap binary: build one (swift build -c release --product jacktap) or pass --jacktap")
    for model in args.beat_model:
        if not os.path.exists(model):
            parser.error(f"--beat-model: no file {model}")
    corpus = {item.name: item for item in real_corpus.items()}
    for name in args.items:
        item = corpus.get(name)
        if item is None:
            parser.error(f"{name}: not an item of eval/real's corpus")
        if real_corpus.split(item) != "train":
            parser.error(f"{name}: in the held-out part, which no tuning reads")
        if not os.path.exists(wav_path(name)):
            parser.error(f"{name}: not rendered ({wav_path(name)}; python3 eval/real_corpus.py --render)")
    models = args.beat_model or [None]
    print("| item | network | " + " | ".join(f"{j}/{args.bins}" for j in range(args.bins)) + " |")
    print("|---|---|" + "---:|" * args.bins)
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.items:
            for model in models:
                out = os.path.join(scratch, "features.f32")
                chosen = ["--beat-model", model] if model else ["--beat-activation", "learned"]
                subprocess.run([args.jacktap, "beat-features", wav_path(name), out] + chosen, check=True,
                               stdout=subprocess.DEVNULL)
                rows = beat_weights.read_features(out)
                profile = phase_profile(rows[:, 0], rows[:, 1], corpus[name].beats, args.bins)
                label = os.path.basename(model) if model else "shipped"
                print(f"| {name} | {label} | " + " | ".join(f"{v:.2f}" for v in profile) + " |")


def wav_path(name):
    return os.path.join(HERE, "out", f"real-{real_corpus.VERSION}", f"{name}.wav")


if __name__ == "__main__":
    main()
