"""The results table (Markdown), jacktap beside aubio aligned fairly and aubio as its CLI prints, and the bars."""

import evaluate

TOOLS = ("jacktap", "aubio", "aubio as-is")


def _num(x, fmt="{:.3f}"):
    return "n/a" if x is None else fmt.format(x)


def _pct(x):
    return "n/a" if x is None else f"{100 * x:.2f} %"


def _ms(x):
    return "n/a" if x is None else f"{1000 * x:+.1f} ms"


def _count(x):
    return "n/a" if x is None else f"{x[0]}/{x[1]}"


def _lock(x):
    if x is None:
        return "n/a"
    median, worst, never = x
    text = "never" if median is None else f"{median:.2f} / {worst:.2f} s"
    return text + (f" ({never} never)" if never and median is not None else "")


def build(scored, rates, cpu):
    """scored: {tool: [(item, rate, score)]}; cpu: {tool: seconds or (total, detail)}. Returns Markdown."""
    figs = {t: evaluate.pool(scored.get(t, [])) for t in TOOLS}

    def fig(t, key, groups=None, rate=None):
        if groups is None and rate is None:
            return figs[t].get(key)
        return evaluate.pool(scored.get(t, []), groups, None if rate is None else {rate}).get(key)

    rows = []

    def row(label, key, fmt, bar="", groups=None, rate=None, tools=TOOLS):
        rows.append([label] + [fmt(fig(t, key, groups, rate)) if t in tools else "—" for t in TOOLS] + [bar])

    row("pitch: raw pitch accuracy ±50 c, all pitched", "rpa", _num, "≥ 0.95 (aubio 0.921)")
    row("  … instruments (fluidsynth)", "rpa", _num, "(aubio 0.888)", {"instrument"})
    row("  … sox sines, plucks, glides", "rpa", _num, "", {"synth"})
    row("  … sines in pink noise (20/10/3 dB)", "rpa", _num, "", {"noise-tone"})
    if len(rates) > 1:
        for r in rates:
            row(f"  … at {r} Hz", "rpa", _num, "", None, r)
    row("pitch: octave errors (share of voiced truth frames)", "octave", _pct, "≤ 1 %")
    row("pitch: truth-voiced frames called voiced", "recall", _pct, "")
    row("pitch: frames called voiced on pink noise", "noise_voiced", _pct, "≤ 2 % (aubio 0)")
    row("onsets: F ±50 ms at the time reported", "onset_f", _num, "≥ 0.95 (aubio 0.944)", tools=("jacktap", "aubio"))
    row("onsets: F ±50 ms at the time described", "onset_f_described", _num, "", tools=("jacktap",))
    row("onsets: F ±50 ms at aubio's printed time", "onset_f", _num, "", tools=("aubio as-is",))
    if len(rates) > 1:
        for r in rates:
            row(f"  … at {r} Hz (reported)", "onset_f", _num, "", None, r, tools=("jacktap", "aubio"))
    row("onsets: median report delay (reported − truth)", "onset_delay", _ms, "≤ 20 ms (aubio +23 ms)",
        tools=("jacktap", "aubio"))
    row("beats: F ±70 ms (after 5 s, mir_eval)", "beat_f", _num, "≥ 0.94 (aubio 0.935)", tools=("jacktap", "aubio"))
    row("beats: F ±70 ms (whole item)", "beat_f_all", _num, "", tools=("jacktap", "aubio"))
    for r in rates:
        row(f"tempo ±4 % (median IBI) at {r} Hz", "tempo_ok", _count, "every item", None, r, tools=("jacktap", "aubio"))
    for r in rates:
        row(f"tempo ±4 % (tick tempo, last) at {r} Hz", "tick_tempo_ok", _count, "", None, r, tools=("jacktap",))
    row("beat lock, median / max (from first beat)", "lock", _lock, "≤ 2 s (aubio 1.5–3.6 s)",
        tools=("jacktap", "aubio"))
    cpu_row = ["CPU seconds, whole corpus"]
    for t in TOOLS:
        c = cpu.get(t)
        cpu_row.append("—" if c is None else (f"{c[0]:.1f} ({c[1]})" if isinstance(c, tuple) else f"{c:.1f}"))
    cpu_row.append("jacktap < aubio")
    rows.append(cpu_row)
    header = ["task", "jacktap", "aubio (aligned)", "aubio (CLI as-is)", "bar"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * 3 + ["---"]) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def details(scored):
    """Per item and rate, one line per tool (--verbose)."""
    lines = ["| item | rate | tool | RPA | oct % | noise voiced % | onset F | delay ms | beat F | tempo | lock s |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    keyed = {}
    for tool, entries in scored.items():
        for item, rate, s in entries:
            keyed.setdefault((item.name, rate), []).append((tool, item, s))
    for (name, rate), entries in keyed.items():
        for tool, item, s in entries:
            p, n, o, b = s.get("pitch"), s.get("noise"), s.get("onset"), s.get("beat")
            rpa = p["rpa"] / p["voiced"] if p and p["voiced"] else None
            octave = (p["rca"] - p["rpa"]) / p["voiced"] if p and p["voiced"] else None
            delays = sorted(o["delays"]) if o else []
            tempo = "" if not b or b["tempo"] is None else f"{b['tempo']:.1f}/{item.bpm:g}"
            if b and b.get("tick_tempo") is not None:
                tempo += f" (tick {b['tick_tempo']:.1f})"
            lines.append("| " + " | ".join([
                name, str(rate), tool, _num(rpa), _num(None if octave is None else 100 * octave, "{:.1f}"),
                _num(100 * n["voiced"] / n["frames"] if n else None, "{:.1f}"),
                _num(o["f"] if o else None), _num(1000 * delays[len(delays) // 2] if delays else None, "{:+.0f}"),
                _num(b["f"] if b else None), tempo or "", _num(b["lock"] if b else None, "{:.2f}")]) + " |")
    return "\n".join(lines)
