#!/usr/bin/env python3
"""One table from several `eval/real --tag` runs: beat F and tempo within 4 % per source, each run's trackers side
by side, on one part of the corpus (the docs' tables are this script's output).

    eval/real_compare.py PART [--seed S] [--validation-items FILE] [--songs GLOB]... [--not-in FILE]
                         [--without-source SOURCE]... LABEL=TAG[:TRACKER] ...

PART is train, held-out or validation; TAG names eval/out/real-results-TAG.json; TRACKER (default jacktap) picks
one tracker of that run, e.g. `"madmom online=peers-held:madmom"`.

validation: the training songs eval/train-beat-network keeps aside to pick its epoch (with its --seed, default
the script's), read from a run on the training part (`eval/real --split train`, or `--split validation` for those
songs alone): what chooses between networks without the held-out part.
They are drawn from the corpus as it is now (real_corpus.validation_songs): a network trained on an older corpus
kept other songs aside, and may have trained on some of these. --songs GLOB (repeatable) keeps only the songs that
match one of them. --validation-items FILE: the songs a training on the items FILE names kept aside (the training's
--items; eval/real's option of that name). --not-in FILE keeps only the items FILE does not name, and
--without-source SOURCE leaves out a source's items: on the training part, the items a network trained on FILE
(and nothing of SOURCE) never read. The rows of all are eval/real's own, over the items kept.
"""

import argparse
import fnmatch
import functools
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_corpus  # noqa: E402


@functools.lru_cache(maxsize=None)
def real_summary():
    """eval/real's own summary(), loaded once: the rows of a filtered part are built as its tables' are (labels,
    the groups reported apart, a tracker that did not run on an item)."""
    from importlib.machinery import SourceFileLoader
    return SourceFileLoader("real", os.path.join(HERE, "real")).load_module().summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=("train", "held-out", "validation"))
    parser.add_argument("--seed", type=int, default=real_corpus.TRAINING_SEED,
                        help="the training's --seed (validation only)")
    parser.add_argument("--songs", action="append", metavar="GLOB", help="only these songs")
    parser.add_argument("--validation-items", metavar="FILE", help="validation: the songs kept aside from these items")
    parser.add_argument("--not-in", metavar="FILE", help="only the items this file does not name")
    parser.add_argument("--without-source", action="append", default=[], metavar="SOURCE",
                        help="without this source's items")
    parser.add_argument("columns", nargs="+", metavar="LABEL=TAG[:TRACKER]")
    args = parser.parse_intermixed_args()
    part = args.part
    songs = None
    if part == "validation":
        try:
            drawn_from = real_corpus.training_items_named(args.validation_items) if args.validation_items else None
        except ValueError as error:
            parser.error(f"--validation-items: {error}")
        songs = real_corpus.validation_songs(random.Random(args.seed), drawn_from)
    excluded = set(real_corpus.item_names(args.not_in)) if args.not_in else set()
    filtered = songs is not None or args.songs or excluded or args.without_source

    def keep(item):
        return (songs is None or item["song"] in songs) and \
            (not args.songs or any(fnmatch.fnmatch(item["song"], g) for g in args.songs)) and \
            item["name"] not in excluded and item.get("source") not in args.without_source

    columns = []
    for spec in args.columns:
        label, _, rest = spec.partition("=")
        tag, _, tracker = rest.partition(":")
        tracker = tracker or "jacktap"
        data = json.load(open(os.path.join(HERE, "out", f"real-results-{tag}.json")))
        if filtered:
            side = "held-out" if part == "held-out" else "train"
            chosen = [i for i in data["items"] if i["split"] == side and keep(i)]
            if not chosen:
                parser.error(f"{tag}: no {side} item of that run is among the songs asked for")
            rows = {row["key"]: row for row in real_summary()(chosen, [tracker])[side]}
        else:
            rows = {row["key"]: row for row in data["summary"][part]}
        columns.append((label, tracker, rows))
    keys = list(dict.fromkeys(key for _, _, rows in columns for key in rows))
    head = "| " + part + " | items | " + " | ".join(f"beat F {label}" for label, _, _ in columns) + " | " \
        + " | ".join(f"tempo ±4 % {label}" for label, _, _ in columns) + " |"
    print(head)
    print("|---|---:|" + "---:|" * (2 * len(columns)))
    for key in keys:
        first = next(rows[key] for _, _, rows in columns if key in rows)
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
