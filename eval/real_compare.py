#!/usr/bin/env python3
"""One table from several `eval/real --tag` runs: beat F and tempo within 4 % per source, each run's trackers side
by side, on one part of the corpus (the docs' tables are this script's output).

    eval/real_compare.py PART [--seed S] [--validation-items FILE] [--songs GLOB]... [--items GLOB]...
                         [--without-items GLOB]... [--not-in FILE] [--without-source SOURCE]... [--style STYLE]...
                         [--levels] [--phase] [--offsets] [--intervals] LABEL=TAG[+TAG...][:TRACKER] ...

PART is train, held-out or validation; TAG names eval/out/real-results-TAG.json; TRACKER (default jacktap) picks
one tracker of that run, e.g. `"madmom online=peers-held:madmom"`. Several tags joined by `+` make one column of
several runs of one recipe (its trainings from different initialisations): each cell is their mean, and their
range in brackets, so that a candidate is read against the spread the initialisation alone gives, not against one
draw (the runs must cover the same items; --levels, --phase and --offsets take one run per column).

validation: the training songs eval/train-beat-network keeps aside to pick its epoch (with its --seed, default
the script's), read from a run on the training part (`eval/real --split train`, or `--split validation` for those
songs alone): what chooses between networks without the held-out part.
They are drawn from the corpus as it is now (real_corpus.validation_songs): a network trained on an older corpus
kept other songs aside, and may have trained on some of these. --songs GLOB (repeatable) keeps only the songs that
match one of them; --items GLOB (repeatable) keeps only the items (renders) whose name matches one, --without-items
GLOB leaves them out (e.g. '*-piano', '*-guitar', '*-strings', '*-choir': the MIDI sources' third renders, their drums
muted and every channel on one program). --validation-items FILE: the songs a training on the items FILE names kept
aside (the training's --items; eval/real's option of that name). --not-in FILE keeps only the items FILE does not
name, and --without-source SOURCE leaves out a source's items: on the training part, the items a network trained on
FILE (and nothing of SOURCE) never read. --style STYLE (repeatable) keeps only the `popular` source's pieces of that
style (eval/generated_popular.py's STYLES: boogie, swing, offbeat, …). The rows of all are eval/real's own, over the
items kept.

--intervals adds a table of how far each column after the first stands from the first (all of them must have read
the same items), per source, in total and per group reported apart: the difference in beat F and in tempi read
right, each with a 95 % interval from resampling the songs (every render of a song goes with it; the total resamples
each source's songs apart). A difference whose interval spans 0 is one these items cannot tell from chance; a row of
fewer than ten songs gets no interval. Each interval is 95 % on its own: of the twenty or thirty in a table, one may
exclude 0 by chance.
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
import score  # noqa: E402


@functools.lru_cache(maxsize=None)
def real_module():
    """eval/real itself, loaded once: the rows of a filtered part are built as its tables' are (its summary(): labels,
    the groups reported apart, a tracker that did not run on an item), and the rows of --intervals (its row_sets())."""
    from importlib.machinery import SourceFileLoader
    return SourceFileLoader("real", os.path.join(HERE, "real")).load_module()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=("train", "held-out", "validation"))
    parser.add_argument("--seed", type=int, default=real_corpus.TRAINING_SEED,
                        help="the training's --seed (validation only)")
    parser.add_argument("--songs", action="append", metavar="GLOB", help="only these songs")
    parser.add_argument("--items", action="append", default=[], metavar="GLOB",
                        help="only the items whose name matches one of these")
    parser.add_argument("--without-items", action="append", default=[], metavar="GLOB",
                        help="without the items whose name matches one of these")
    parser.add_argument("--validation-items", metavar="FILE", help="validation: the songs kept aside from these items")
    parser.add_argument("--not-in", metavar="FILE", help="only the items this file does not name")
    parser.add_argument("--without-source", action="append", default=[], metavar="SOURCE",
                        help="without this source's items")
    parser.add_argument("--style", action="append", default=[], metavar="STYLE",
                        help="only the popular source's pieces of this style (repeatable)")
    parser.add_argument("--levels", action="store_true",
                        help="and a second table: on the items of steady tempo, how many each tracker read at the "
                             "truth's tempo, twice or half it, 3/2 or 2/3 of it, or another (each within 4 %%)")
    parser.add_argument("--phase", action="store_true",
                        help="and a table of where beat F is lost: on the items of steady tempo, read at the truth's "
                             "tempo with beat F 0.5 or more, at it with beat F below 0.5 (off the beat), at another "
                             "tempo or none; and on the items whose tempo changes; each with the beat F those items "
                             "lose (their count less the sum of their F)")
    parser.add_argument("--offsets", action="store_true",
                        help="and a table of where the beats fall on the items read at the truth's tempo with beat F "
                             "below 0.5: half a beat off, early or late by part of a beat, or on it (eval/real's "
                             "per-item phase, the circular mean of every beat's place in its true beat; runs made "
                             "before it was recorded are classed by the median offset of the beats near a true one)")
    parser.add_argument("--intervals", action="store_true",
                        help="and a table of each column's difference from the first (beat F, tempi read right) "
                             "with 95 %% intervals from resampling the songs")
    parser.add_argument("columns", nargs="+", metavar="LABEL=TAG[+TAG...][:TRACKER]")
    args = parser.parse_intermixed_args()
    if args.intervals and len(args.columns) < 2:
        parser.error("--intervals: at least two columns (the first is what the others are measured from)")
    unknown = set(args.style) - set(popular_styles())
    if unknown:
        parser.error(f"--style: no such style {', '.join(sorted(unknown))} (eval/generated_popular.py has "
                     f"{', '.join(popular_styles())})")
    part = args.part
    songs = None
    if part == "validation":
        try:
            drawn_from = real_corpus.training_items_named(args.validation_items) if args.validation_items else None
        except ValueError as error:
            parser.error(f"--validation-items: {error}")
        songs = real_corpus.validation_songs(random.Random(args.seed), drawn_from)
    excluded = set(real_corpus.item_names(args.not_in)) if args.not_in else set()
    filtered = songs is not None or args.songs or excluded or args.without_source or args.style or args.items or \
        args.without_items

    def named(item, globs):
        return any(fnmatch.fnmatch(item["name"], g) for g in globs)

    def keep(item):
        return (songs is None or item["song"] in songs) and \
            (not args.songs or any(fnmatch.fnmatch(item["song"], g) for g in args.songs)) and \
            (not args.items or named(item, args.items)) and not named(item, args.without_items) and \
            item["name"] not in excluded and item.get("source") not in args.without_source and \
            (not args.style or (item.get("source") == "popular" and popular_style(item["song"]) in args.style))

    columns = []
    levels = []
    phases = []
    offsets = []
    per_item = []
    side = "held-out" if part == "held-out" else "train"
    for spec in args.columns:
        label, _, rest = spec.partition("=")
        tags, _, tracker = rest.partition(":")
        tracker = tracker or "jacktap"
        runs = []
        for tag in tags.split("+"):
            path = os.path.join(HERE, "out", f"real-results-{tag}.json")
            if not os.path.exists(path):
                parser.error(f"{tag}: no run of that tag ({path}: eval/real --tag {tag} writes it)")
            data = json.load(open(path))
            chosen = [i for i in data["items"] if i["split"] == side and keep(i)]
            if filtered:
                if not chosen:
                    parser.error(f"{tag}: no {side} item of that run is among the songs asked for")
                rows = {row["key"]: row for row in real_module().summary(chosen, [tracker])[side]}
            else:
                rows = {row["key"]: row for row in data["summary"][part]}
            runs.append((tag, chosen, rows))
        if len(runs) > 1:
            if args.levels or args.phase or args.offsets:
                parser.error(f"{label}: --levels, --phase and --offsets take one run per column")
            names = {tag: sorted(i["name"] for i in chosen if i.get(tracker)) for tag, chosen, _ in runs}
            if len({tuple(n) for n in names.values()}) > 1:
                parser.error(f"{label}: the runs {', '.join(names)} do not cover the same items")
        columns.append((label, tracker, [rows for _, _, rows in runs]))
        per_item.append((label, item_figures([chosen for _, chosen, _ in runs], tracker)))
        chosen = runs[0][1]
        levels.append((label, tempo_levels(chosen, tracker)))
        phases.append((label, phase_losses(chosen, tracker)))
        offsets.append((label, offset_classes(chosen, tracker)))
    keys = list(dict.fromkeys(key for _, _, runs in columns for rows in runs for key in rows))
    head = "| " + part + " | items | " + " | ".join(f"beat F {label}" for label, _, _ in columns) + " | " \
        + " | ".join(f"tempo ±4 % {label}" for label, _, _ in columns) + " |"
    print(head)
    print("|---|---:|" + "---:|" * (2 * len(columns)))
    for key in keys:
        first = next(rows[key] for _, _, runs in columns for rows in runs if key in rows)
        cells = []
        tempos = []
        for _, tracker, runs in columns:
            figures = [rows.get(key, {}).get("trackers", {}).get(tracker) for rows in runs]
            cells.append(spread([None if not t else t["f"] for t in figures], "{:.3f}".format))
            n = next((t["tempo_n"] for t in figures if t and t["tempo_n"]), None)
            tempos.append(spread([None if not t or not t["tempo_n"] else t["tempo_ok"] for t in figures],
                                 lambda count: f"{round(count, 1):g}", f"/{n}"))
        label = f"**{first['label']}**" if first["kind"] == "total" else first["label"]
        print(f"| {label} | {first['items']} | " + " | ".join(cells) + " | " + " | ".join(tempos) + " |")
    if args.intervals:
        reference_label, reference = per_item[0]
        for label, figures in per_item:
            if not figures:
                parser.error(f"--intervals: {label} read none of the items (no such tracker in its run?)")
            apart = set(figures) ^ set(reference)
            if apart:
                parser.error(f"--intervals: {label} and {reference_label} did not read the same items ({len(apart)} "
                             f"read by one only, e.g. {sorted(apart)[0]}): keep the items both read with --items, "
                             "--songs or --without-source")
        print()
        print_intervals(part, per_item)
    if args.levels:
        print()
        print("| " + part + " | items | " + " | ".join(LEVELS) + " |")
        print("|---|---:|" + "---:|" * len(LEVELS))
        for label, counts in levels:
            print(f"| {label} | {sum(counts.values())} | " + " | ".join(str(counts[k]) for k in LEVELS) + " |")
    if args.phase:
        print()
        print("| " + part + " | items | " + " | ".join(f"{k}: items, F lost" for k in PHASES) + " |")
        print("|---|---:|" + "---:|" * len(PHASES))
        for label, losses in phases:
            print(f"| {label} | {sum(n for n, _ in losses.values())} | "
                  + " | ".join(f"{losses[k][0]}, {losses[k][1]:.1f}" for k in PHASES) + " |")
    if args.offsets:
        print()
        print("| " + part + ", at the tempo, F < 0.5 | items | " + " | ".join(OFFSETS) + " |")
        print("|---|---:|" + "---:|" * len(OFFSETS))
        for label, classes in offsets:
            print(f"| {label} | {sum(map(len, classes.values()))} | "
                  + " | ".join(str(len(classes[k])) for k in OFFSETS) + " |")
        print()
        for label, classes in offsets:
            for k in ("early", "late"):
                if classes[k]:
                    print(f"{label}, {k}: " + ", ".join(f"{name} ({offset:+.3f})"
                                                        for name, offset in sorted(classes[k])) + ".")


def spread(values, form, unit=""):
    """One cell: the value of one run, written by `form`, and `unit` (a count's "/n"); of several, their mean,
    `unit`, and their range in brackets; "–" where a run has none."""
    if any(v is None for v in values):
        return "–"
    if len(values) == 1:
        return form(values[0]) + unit
    return f"{form(sum(values) / len(values))}{unit} ({form(min(values))}–{form(max(values))})"


def item_figures(runs, tracker):
    """{name: (item, beat F, tempo right)} of `tracker` over the items it read in every run of `runs` (their mean
    over the runs; tempo right None where the item has no steady tempo)."""
    figures = {}
    read = [{i["name"]: i for i in chosen if i.get(tracker)} for chosen in runs]
    for name in read[0]:  # in the run's order, which is eval/real's
        if not all(name in r for r in read):
            continue
        results = [r[name] for r in read]
        item = results[0]
        f = [r[tracker]["f"] for r in results]
        if any(v is None for v in f):
            continue
        ok = [r[tracker].get("tempo_ok") for r in results]
        figures[name] = (item, sum(f) / len(f), None if any(v is None for v in ok) else sum(ok) / len(ok))
    return figures


INTERVAL_DRAWS = 2000
INTERVAL_SEED = 1
# A percentile interval from resampling few songs is narrower than it should be (it never sees the songs between those
# drawn, and the same few come back draw after draw): below 10 songs a row gets none.
INTERVAL_SONGS = 10


def difference_interval(pairs, rng):
    """(beat F difference, its 95 % interval, tempo difference, its interval, steady items, songs) over `pairs`
    [(source, song, ΔF, Δtempo or None)]: the mean ΔF and the summed Δtempo, and the 2.5th and 97.5th percentiles of
    each over INTERVAL_DRAWS resamplings of the songs (the draws nearest them), each source's apart, every item of a
    drawn song drawn with it."""
    import numpy as np
    songs = {}
    for source, song, df, dt in pairs:
        songs.setdefault(source, {}).setdefault(song, []).append((df, dt))
    f_draws, t_draws = np.zeros(INTERVAL_DRAWS), np.zeros(INTERVAL_DRAWS)
    for draw in range(INTERVAL_DRAWS):
        f_sum, f_n, t_sum = 0.0, 0, 0.0
        for by_song in songs.values():
            names = sorted(by_song)
            for k in rng.integers(0, len(names), len(names)):
                for df, dt in by_song[names[k]]:
                    f_sum, f_n, t_sum = f_sum + df, f_n + 1, t_sum + (dt or 0)
        f_draws[draw], t_draws[draw] = f_sum / f_n, t_sum
    steady = [dt for _, _, _, dt in pairs if dt is not None]
    def percentiles(draws):
        return np.percentile(draws, [2.5, 97.5], method="nearest")
    return (sum(df for _, _, df, _ in pairs) / len(pairs), percentiles(f_draws), sum(steady), percentiles(t_draws),
            len(steady), sum(len(by_song) for by_song in songs.values()))


def print_intervals(part, per_item):
    """The --intervals table: each column after the first against the first (all of them read the same items), per
    source, in total and per group reported apart (eval/real's rows)."""
    import numpy as np
    reference_label, reference = per_item[0]
    head = "| " + part + " | items | " + " | ".join(
        f"beat F {label} − {reference_label} | tempo ±4 % {label} − {reference_label}" for label, _ in per_item[1:])
    print(head + " |")
    print("|---|---:|" + "---:|---:|" * (len(per_item) - 1))
    items = [figures[0] for figures in reference.values()]
    for kind, _, label, sel in real_module().row_sets(items):
        cells = []
        for _, figures in per_item[1:]:
            pairs = []
            for item in sel:
                _, f_ref, t_ref = reference[item["name"]]
                _, f, t = figures[item["name"]]
                pairs.append((item["source"], item["song"], f - f_ref,
                              None if t is None or t_ref is None else t - t_ref))
            f, f_range, t, t_range, steady, songs = difference_interval(pairs, np.random.default_rng(INTERVAL_SEED))
            enough = songs >= INTERVAL_SONGS
            f_within = f" ({signed(f_range[0], 3)} to {signed(f_range[1], 3)})" if enough else \
                f" ({songs} song{'s' if songs > 1 else ''})"
            t_within = f" ({signed(t_range[0], 1)} to {signed(t_range[1], 1)})" if enough else ""
            cells.append(f"{signed(f, 3)}{f_within}")
            cells.append(f"{signed(t, 1)}{t_within} of {steady}" if steady else "–")
        label = f"**{label}**" if kind == "total" else label
        print(f"| {label} | {len(sel)} | " + " | ".join(cells) + " |")


def signed(value, digits):
    """`value` with its sign, rounded to `digits` decimals and written without trailing zeros past the point for
    counts (digits 1: "+3", "-1.3"), with them for beat F (digits 3: "+0.020"); never "-0" of a value that rounds
    to zero."""
    rounded = round(value, digits)
    if rounded == 0:  # -0.0 too
        rounded = 0.0
    return f"{rounded:+.{digits}f}" if digits > 1 else f"{rounded:+g}"


def popular_styles():
    import generated_popular
    return list(generated_popular.STYLES)


@functools.lru_cache(maxsize=None)
def popular_style(song):
    """The style eval/generated_popular.py composed the `popular` piece `song` in (drawn from its name)."""
    import generated_popular
    return generated_popular.PopularPiece(song).style


# The metrical levels a tracker may lock to, as ratios of its tempo to the truth's, and the column names.
LEVEL_RATIOS = {"at the tempo": 1.0, "twice": 2.0, "half": 0.5, "3/2": 1.5, "2/3": 2 / 3}
LEVELS = list(LEVEL_RATIOS) + ["another", "none"]


PHASES = ["at the tempo, F ≥ 0.5", "at the tempo, F < 0.5", "another tempo or none", "tempo changes"]


def phase_of(item, tracker):
    """The PHASES key of `item` as `tracker` read it, or None if the totals do not count it (no result, or a group
    reported apart). An item read at the truth's tempo within score.TEMPO_TOLERANCE with beat F below 0.5 has most of
    its beats more than 70 ms from the true ones: off the beat, or at a steady offset."""
    result = item.get(tracker)
    if not result or result.get("f") is None or item["group"].endswith(real_corpus.APART_SUFFIXES):
        return None
    if not item.get("bpm"):
        return PHASES[3]
    if result.get("tempo_ok"):
        return PHASES[0] if result["f"] >= 0.5 else PHASES[1]
    return PHASES[2]


def phase_losses(items, tracker):
    """Per PHASES (phase_of), over the items the totals count: how many, and the beat F they lose (each item's
    1 − F, summed)."""
    losses = {k: [0, 0.0] for k in PHASES}
    for item in items:
        key = phase_of(item, tracker)
        if key is None:
            continue
        losses[key][0] += 1
        losses[key][1] += 1 - item[tracker]["f"]
    return losses


# Where the beats of an item read at the tempo and off it fall. eval/real's offset is the median share of the beat
# period by which the beats within 30 % of a period of a true beat miss it, None with fewer than four such beats: then
# the beats sit about half a beat off (between 30 % and 70 % of the way through the beat). Beyond a tenth of a period
# (50 ms at 120 BPM) they sit early or late by part of a beat, as on a sixteenth or a swung eighth; within it, on the
# beat, the beats too unsteady to land within 70 ms.
OFFSET_SHARE = 0.1
# A phase beyond this share of a beat is read as half a beat off (the off-beat, ±0.5); between OFFSET_SHARE and it,
# early or late by part of a beat (a sixteenth is 0.25, a swung eighth 1/3).
HALF_BEAT_SHARE = 0.4
OFFSETS = ["half a beat off", "early", "late", "on the beat"]


def offset_classes(items, tracker):
    """Per OFFSETS, the items of PHASES[1] (read at the truth's tempo with beat F below 0.5) whose beats sit there,
    each as (name, offset)."""
    classes = {k: [] for k in OFFSETS}
    for item in items:
        if phase_of(item, tracker) != PHASES[1]:
            continue
        result = item[tracker]
        # The phase (None: fewer than four beats within the truth's span); for runs before it was recorded, the
        # median offset of the beats within 30 % of a period of a true one (None when fewer than four are: then
        # most sit half a beat off, and none is read beyond 0.3).
        offset = result["phase"] if "phase" in result else result.get("offset")
        if offset is None or abs(offset) > HALF_BEAT_SHARE:
            key = "half a beat off"
        elif abs(offset) > OFFSET_SHARE:
            key = "early" if offset < 0 else "late"
        else:
            key = "on the beat"
        classes[key].append((item["name"], offset))
    return classes


def tempo_levels(items, tracker):
    """How many of the items of steady tempo (the groups reported apart left out, as in the totals) `tracker` read
    at each of LEVEL_RATIOS of the truth's tempo within score.TEMPO_TOLERANCE (4 %, eval/real's criterion), at
    another tempo, or at none."""
    counts = dict.fromkeys(LEVELS, 0)
    for item in items:
        result = item.get(tracker)
        if not item.get("bpm") or not result or item["group"].endswith(real_corpus.APART_SUFFIXES):
            continue
        tempo = result.get("tempo")
        if not tempo:
            counts["none"] += 1
            continue
        ratio = tempo / item["bpm"]
        level = next((k for k, r in LEVEL_RATIOS.items() if abs(ratio / r - 1) <= score.TEMPO_TOLERANCE), "another")
        counts[level] += 1
    return counts


if __name__ == "__main__":
    main()
