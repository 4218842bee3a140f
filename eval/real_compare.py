#!/usr/bin/env python3
"""One table from several `eval/real --tag` runs: beat F and tempo within 4 % per source, each run's trackers side
by side, on one part of the corpus (the docs' tables are this script's output).

    eval/real_compare.py PART LABEL=TAG[:TRACKER] ...

PART is train or held-out; TAG names eval/out/real-results-TAG.json; TRACKER (default jacktap) picks one tracker of
that run, e.g. `"madmom online=peers-held:madmom"`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("train", "held-out"):
        sys.exit(__doc__)
    part = sys.argv[1]
    columns = []
    for spec in sys.argv[2:]:
        label, _, rest = spec.partition("=")
        tag, _, tracker = rest.partition(":")
        data = json.load(open(os.path.join(HERE, "out", f"real-results-{tag}.json")))
        rows = {row["key"]: row for row in data["summary"][part]}
        columns.append((label, tracker or "jacktap", rows))
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
