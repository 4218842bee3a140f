#!/usr/bin/env python3
"""One table from several `eval/real --tag` runs: beat F and tempo within 4 % per source, each run's trackers side
by side, on one part of the corpus (the docs' tables are this script's output).

    eval/real_compare.py PART [--seed S] [--songs GLOB ...] LABEL=TAG[:TRACKER] ...

PART is train, held-out or validation; TAG names eval/out/real-results-TAG.json; TRACKER (default jacktap) picks
one tracker of that run, e.g. `"madmom online=peers-held:madmom"`.

validation: the training songs eval/train-beat-network keeps aside to pick its epoch (with its --seed, default
the script's), read from a run on the training part: what chooses between networks without the held-out part.
--songs GLOB (repeatable) keeps only the songs that match one of them (per source and in total, from the items).
"""

import argparse
import fnmatch
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_corpus  # noqa: E402

TRAINING_SEED = 20261126  # eval/train-beat-network's default --seed


def rows_of_items(data, tracker, keep):
    """Per source and in total, beat F and tempo of the items `keep` accepts (groups reported apart left out)."""
    chosen = [i for i in data["items"]
              if keep(i) and not i["group"].endswith(real_corpus.APART_SUFFIXES) and tracker in i]
    sets = [("source", source, [i for i in chosen if i["source"] == source])
            for source in dict.fromkeys(i["source"] for i in chosen)] + [("total", "total", chosen)]
    rows = {}
    for kind, key, sel in sets:
        figures = [i[tracker] for i in sel]
        tempo = [x["tempo_ok"] for x in figures if "tempo_ok" in x]
        rows[key] = {"kind": kind, "key": key, "items": len(sel),
                     "label": "total" if kind == "total" else key,
                     "trackers": {tracker: {"f": sum(x["f"] for x in figures) / len(figures) if figures else None,
                                            "tempo_ok": sum(tempo), "tempo_n": len(tempo)}}}
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=("train", "held-out", "validation"))
    parser.add_argument("--seed", type=int, default=TRAINING_SEED, help="the training's --seed (validation only)")
    parser.add_argument("--songs", action="append", metavar="GLOB", help="only these songs")
    parser.add_argument("columns", nargs="+", metavar="LABEL=TAG[:TRACKER]")
    args = parser.parse_args()
    part = args.part
    songs = None
    if part == "validation":
        songs = real_corpus.validation_songs(random.Random(args.seed))

    def keep(item):
        return (songs is None or item["song"] in songs) and \
            (not args.songs or any(fnmatch.fnmatch(item["song"], g) for g in args.songs))

    columns = []
    for spec in args.columns:
        label, _, rest = spec.partition("=")
        tag, _, tracker = rest.partition(":")
        tracker = tracker or "jacktap"
        data = json.load(open(os.path.join(HERE, "out", f"real-results-{tag}.json")))
        if songs is not None or args.songs:
            rows = rows_of_items({"items": [i for i in data["items"]
                                            if i["split"] == ("held-out" if part == "held-out" else "train")]},
                                 tracker, keep)
        else:
            rows = {row["key"]: row for row in data["summary"][part]}
        columns.append((label, tracker, rows))
    keys = list(columns[0][2])
    head = "| " + part + " | items | " + " | ".join(f"beat F {label}" for label, _, _ in columns) + " | " \
        + " | ".join(f"tempo ±4 % {label}" for label, _, _ in columns) + " |"
    print(head)
    print("|---|---:|" + "---:|" * (2 * len(columns)))
    for key in keys:
        first = columns[0][2][key]
        cells = []
        for _, tracker, rows in columns:
            t = rows.get(key, {}).get("trackers", {}).get(tracker)
            cells.append("–" if not t or t["f"] is None else f"{t['f']:.3f}")
        tempos = []
        for _, tracker, rows in columns:
            t = rows.get(key, {}).get("trackers", {}).get(tracker)
            tempos.append("–" if not t or not t["tempo_n"] else f"{t['tempo_ok']}/{t['tempo_n']}")
        label = f"**{first['label']}**" if first["kind"] == "total" else first["label"]
        print(f"| {label} | {first['items']} | " + " | ".join(cells) + " | " + " | ".join(tempos) + " |")


if __name__ == "__main__":
    main()
