#!/usr/bin/env python3
"""The train / held-out split of the real-recording corpus (real_corpus.py), kept in eval/real_split.json.

    eval/real_split.py --write   # draw it (first time), or draw only the songs the file does not list yet
    eval/real_split.py --check   # every item's song is in the file, on one side; no song on both sides

The draw, made once before any tuning, with SEED: one whole source held out, chosen among the sources added
with the split (midi-debian, tracker, lmms); from every other source 30 % of its songs (rounded, at least one
where it has two or more), whole songs: every render of a song (kits, soundfonts, augmentations, humanize) is on
its song's side. The file lists every song of every source with its side, and the held-out source; split() reads
the file, never the seed, so adding items cannot move existing ones. Songs added later are drawn by --write one
by one: held out when random.Random(f"{SEED}:{song}").random() < 0.3 (every song of the held-out source held
out); the songs already in the file keep their side.
"""

import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import real_corpus  # noqa: E402

SEED = 20251126
HELD_OUT_SHARE = 0.3
HELD_OUT_SOURCE_CANDIDATES = ("midi-debian", "tracker", "lmms")


def songs_by_source(items):
    out = {}
    for item in items:
        out.setdefault(item.source, set()).add(item.song)
    return {source: sorted(songs) for source, songs in sorted(out.items())}


def draw(items):
    rng = random.Random(SEED)
    by_source = songs_by_source(items)
    held_source = rng.choice(sorted(s for s in HELD_OUT_SOURCE_CANDIDATES if s in by_source))
    songs = {}
    for source, names in by_source.items():
        if source == held_source:
            songs[source] = {song: "held-out" for song in names}
            continue
        count = round(HELD_OUT_SHARE * len(names))
        if len(names) >= 2:
            count = max(1, count)
        held = set(rng.sample(names, count))
        songs[source] = {song: "held-out" if song in held else "train" for song in names}
    return {"seed": SEED, "held_out_share": HELD_OUT_SHARE, "held_out_sources": [held_source],
            "rule": "eval/real_split.py: one source held out whole (drawn among midi-debian, tracker, lmms), 30 % "
                    "of every other source's songs; songs added later: held out when "
                    "random.Random(f'{seed}:{song}').random() < held_out_share",
            "songs": songs}


def extend(data, items):
    added = []
    for source, names in songs_by_source(items).items():
        known = data["songs"].setdefault(source, {})
        for song in names:
            if song in known:
                continue
            held = source in data["held_out_sources"] or \
                random.Random(f"{data['seed']}:{song}").random() < data["held_out_share"]
            known[song] = "held-out" if held else "train"
            added.append((source, song, known[song]))
    return added


def check(data, items):
    problems = []
    sides = {}
    for source, songs in data["songs"].items():
        for song, side in songs.items():
            if side not in ("train", "held-out"):
                problems.append(f"{song}: side {side!r}")
            if source in data["held_out_sources"] and side != "held-out":
                problems.append(f"{song}: its source {source} is held out, the song is not")
            sides.setdefault(song, set()).add(side)
    problems += [f"{song} is on both sides" for song, s in sides.items() if len(s) > 1]
    for item in items:
        side = data["songs"].get(item.source, {}).get(item.song)
        if side is None:
            problems.append(f"{item.name}: song {item.song} ({item.source}) not in the file")
    return problems


def summary(data, items):
    lines = []
    for source in sorted({i.source for i in items}):
        these = [i for i in items if i.source == source]
        for side in ("train", "held-out"):
            chosen = [i for i in these if data["songs"][source].get(i.song) == side]
            lines.append(f"{source:12s} {side:9s} {len(chosen):4d} items {len({i.song for i in chosen}):3d} songs "
                         f"{sum(i.beats[-1] - i.beats[0] for i in chosen) / 60:6.1f} min")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="draw the split, or the songs not in it yet")
    parser.add_argument("--check", action="store_true", help="check the file against the corpus")
    args = parser.parse_args()
    items = real_corpus.items()
    path = real_corpus.SPLIT_FILE
    if args.write:
        if os.path.exists(path):
            data = json.load(open(path))
            added = extend(data, items)
            for source, song, side in added:
                print(f"added {source} {song}: {side}")
        else:
            data = draw(items)
        with open(path, "w") as f:
            json.dump(data, f, indent=1, sort_keys=False)
            f.write("\n")
    if not os.path.exists(path):
        parser.error(f"{path} does not exist: --write draws it")
    data = json.load(open(path))
    problems = check(data, items)
    print(summary(data, items))
    print(f"held-out source: {', '.join(data['held_out_sources'])}")
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    if problems:
        print("eval/real_split.py --write adds the songs the file lacks", file=sys.stderr)
        return 1
    print("split ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
