#!/usr/bin/env python3
"""Where in the beat a learned activation peaks, on training items of eval/real's corpus: for each item, the
activation's 90th percentile over the frames at each of N phases of the true beat (phase 0 the beat, k/N the
frames nearest k/N of the way to the next one). A network that takes an off-beat for the beat shows its peak away
from phase 0: at 6/12 for the straight off-beat eighth, at 8/12 for the swung one.

    eval/beat_profile.py [--jacktap PATH] [--beat-model FILE]... [--bins N] [--calibration]
                         [--kept-aside FILE [--seed S]] [ITEM...]

ITEM names a rendered item of the training part (eval/out/real-v1/ITEM.wav, `python3 eval/real_corpus.py
--render`); a held-out item is refused, as eval/train-beat-network refuses to read one. --kept-aside FILE adds every
item of the songs a training on the items FILE names keeps aside (its --items; eval/real's --validation-items), with
the training's --seed S (by default eval/train-beat-network's).
--beat-model FILE (repeatable): the networks to compare, each a row (default: the shipped one, `--beat-activation
learned`).

--calibration prints, in place of the profiles, how the activation reads as a probability over all the items
together: for ranges of the activation, the share of their frames that lie in a beat state of the tracker's model
(the 1/16 of the true beat period centred on the beat, BeatModelSettings.learned), and the logistic fit of that share
on the activation's logit, a slope and an offset. The tracker takes a frame's activation a as the likelihood ratio
a(1 − n)/((1 − a)n) of a beat state, n its neutral level; for a network whose activation were that probability, the
ratio Bayes' rule gives (every frame taken as independent evidence) has n at the share of beat states, 1/16, and
slope 1. The fit says which n and slope would read this network's activation so: the n where the fitted probability
is 1/16.
"""

import argparse
import os
import random
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
    parser.add_argument("--calibration", action="store_true",
                        help="how the activation reads as the probability of a beat state, over the items together")
    parser.add_argument("--kept-aside", metavar="FILE",
                        help="and every item of the songs a training on the items this file names keeps aside")
    parser.add_argument("--seed", type=int, default=real_corpus.TRAINING_SEED,
                        help="--kept-aside: the training's --seed, which draws the songs it keeps aside")
    parser.add_argument("items", nargs="*", metavar="ITEM")
    args = parser.parse_args()
    if args.kept_aside:
        try:
            drawn_from = real_corpus.training_items_named(args.kept_aside)
        except ValueError as error:
            parser.error(f"--kept-aside: {error}")
        songs = real_corpus.validation_songs(random.Random(args.seed), drawn_from)
        args.items += [it.name for it in real_corpus.training_items() if it.song in songs]
    args.items = list(dict.fromkeys(args.items))  # an item named and kept aside is read once
    if not args.items:
        parser.error("no items: name some, or --kept-aside FILE")
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
    if args.calibration:
        print_calibration(args.jacktap, models, [corpus[name] for name in args.items])
        return
    print("| item | network | " + " | ".join(f"{j}/{args.bins}" for j in range(args.bins)) + " |")
    print("|---|---|" + "---:|" * args.bins)
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.items:
            for model in models:
                instants, activation = activation_of(args.jacktap, model, name, scratch)
                profile = phase_profile(instants, activation, corpus[name].beats, args.bins)
                print(f"| {name} | {model_label(model)} | " + " | ".join(f"{v:.2f}" for v in profile) + " |")


def activation_of(jacktap, model, name, scratch):
    """(instants, activation) of the network `model` (None: the shipped one) on the item `name`'s render."""
    out = os.path.join(scratch, "features.f32")
    chosen = ["--beat-model", model] if model else ["--beat-activation", "learned"]
    subprocess.run([jacktap, "beat-features", wav_path(name), out] + chosen, check=True, stdout=subprocess.DEVNULL)
    rows = beat_weights.read_features(out)
    return rows[:, 0].astype(np.float64), rows[:, 1].astype(np.float64)


def model_label(model):
    return os.path.basename(model) if model else "shipped"


# The share of a beat the tracker's model takes for beat states over the learned activation, and the floor it clips
# the activation to (BeatModelSettings.learned's beatFraction and activationFloor), and the activation ranges of the
# --calibration table.
BEAT_STATE_SHARE = 1 / 16
ACTIVATION_FLOOR = 1e-4
CALIBRATION_EDGES = (0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0001)


def beat_state_frames(instants, beats):
    """(scored, in a beat state) per frame: frames within half a beat of the first true beat and the last are scored;
    a frame is in a beat state when it lies within half the beat states' width (BEAT_STATE_SHARE of the period, at
    least one frame) of a true beat, the beat in their middle as the tracker puts it."""
    frame = float(np.median(np.diff(instants)))
    beats = np.asarray(beats, dtype=np.float64)
    periods = np.diff(beats)
    periods = np.append(periods, periods[-1])
    scored = (instants >= beats[0] - periods[0] / 2) & (instants <= beats[-1] + periods[-1] / 2)
    inside = np.zeros(len(instants), dtype=bool)
    for beat, period in zip(beats, periods):
        width = max(1, round(BEAT_STATE_SHARE * period / frame))
        inside |= np.abs(instants - beat) <= width / 2 * frame
    return scored, inside


def logistic_fit(x, y):
    """(slope, offset) of the logistic regression of the 0/1 `y` on `x`, by Newton's method."""
    design = np.stack([x, np.ones_like(x)], axis=1)
    w = np.array([1.0, 0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(design @ w)))
        step = np.linalg.solve((design * (p * (1 - p))[:, None]).T @ design, design.T @ (y - p))
        w += step
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(w[0]), float(w[1])


def print_calibration(jacktap, models, items):
    print(f"{len(items)} items")
    print()
    print("| network | frames | in beat states | " + " | ".join(
        f"activation {lo:g}–{min(hi, 1):g}" for lo, hi in zip(CALIBRATION_EDGES, CALIBRATION_EDGES[1:]))
        + " | slope | offset | n at 1/16 |")
    print("|---|---:|---:|" + "---:|" * (len(CALIBRATION_EDGES) + 2))
    with tempfile.TemporaryDirectory() as scratch:
        for model in models:
            values, states = [], []
            for item in items:
                if len(item.beats) < 2:
                    continue
                instants, activation = activation_of(jacktap, model, item.name, scratch)
                scored, inside = beat_state_frames(instants, item.beats)
                values.append(activation[scored])
                states.append(inside[scored])
            if not values:
                sys.exit("--calibration: no item with two beats or more")
            a = np.clip(np.concatenate(values), ACTIVATION_FLOOR, 1 - ACTIVATION_FLOOR)
            y = np.concatenate(states).astype(np.float64)
            slope, offset = logistic_fit(np.log(a / (1 - a)), y)
            # The n whose odds, raised to the slope, give the fitted odds over those of BEAT_STATE_SHARE.
            logit_n = (np.log(BEAT_STATE_SHARE / (1 - BEAT_STATE_SHARE)) - offset) / slope
            cells = []
            for lo, hi in zip(CALIBRATION_EDGES, CALIBRATION_EDGES[1:]):
                chosen = (a >= lo) & (a < hi)
                cells.append(f"{y[chosen].mean():.3f} of {int(chosen.sum())}" if chosen.any() else "–")
            print(f"| {model_label(model)} | {len(a)} | {y.mean():.3f} | " + " | ".join(cells)
                  + f" | {slope:.3f} | {offset:.3f} | {1 / (1 + np.exp(-logit_n)):.3f} |")


def wav_path(name):
    return os.path.join(HERE, "out", f"real-{real_corpus.VERSION}", f"{name}.wav")


if __name__ == "__main__":
    main()
