"""Per (item, rate): render, run both tools, score; then pool the scores into the figures of the table."""

import statistics
import traceback

import corpus
import score
import tools


def analyse(job):
    """Worker: (index, quick, rate, out_dir, jacktap, jacktap_args, use_aubio) -> raw outputs and CPU seconds."""
    index, quick, rate, out_dir, jacktap, jacktap_args, use_aubio = job
    item = corpus.items(quick)[index]
    result = {"index": index, "rate": rate, "errors": {}}
    try:
        path = corpus.ensure_rendered(item, rate, out_dir)
    except Exception as e:  # noqa: BLE001 - reported per item in the table
        result["errors"]["render"] = f"{e}"
        return result
    if jacktap:
        try:
            result["jacktap"], result["jacktap_cpu"] = tools.run_jacktap(jacktap, path, jacktap_args)
        except Exception as e:  # noqa: BLE001
            result["errors"]["jacktap"] = f"{e}"
    if use_aubio:
        try:
            result["aubio"], result["aubio_cpu"] = tools.run_aubio(path, rate, confidence="pitch" in item.tasks or "noise" in item.tasks)
        except Exception:  # noqa: BLE001
            result["errors"]["aubio"] = traceback.format_exc(limit=2)
    return result


def tool_views(item, raw):
    """The three scored views: jacktap; aubio aligned fairly; aubio exactly as its CLI prints."""
    views = {}
    if "jacktap" in raw:
        j = raw["jacktap"]
        views["jacktap"] = {
            "pitch": ([t for t, _ in j["pitch"]], [f for _, f in j["pitch"]]),
            "onsets": ([t for t, _ in j["onsets"]], [r for _, r in j["onsets"]]),
            "beats": ([b[0] for b in j["beats"]], [b[1] for b in j["beats"]]),
            "tick_tempo": j["tempo_ticks"][-1][1] if j["tempo_ticks"] else None,
        }
    if "aubio" in raw:
        a, rate = raw["aubio"], raw["rate"]
        b, h = a["sizes"]["pitch"]
        conf = a["pitch_conf"]
        aligned_t = [tools.aubio_yin_centre(s, f, b, h) / rate for s, f, _ in conf]
        # voiced when yin's confidence >= 0.8 (at that gate aubio's yin voiced no frame of pink noise); otherwise
        # the candidate is kept, negative.
        aligned_f = [f if c >= 0.8 else -f for _, f, c in conf]
        oh = a["sizes"]["onset"][1]
        bh = a["sizes"]["beat"][1]
        onset_rep = [tools.aubio_onset_reported(s, oh) / rate for s in a["onsets_printed"]]
        beat_t = [s / rate for s in a["beats_printed"]]
        beat_rep = [tools.aubio_beat_reported(s, bh) / rate for s in a["beats_printed"]]
        views["aubio"] = {
            "pitch": (aligned_t, aligned_f),
            "onsets": (onset_rep, onset_rep),
            "beats": (beat_t, beat_rep),
        }
        views["aubio as-is"] = {
            "pitch": ([s / rate for s, _ in a["pitch_cli"]], [f for _, f in a["pitch_cli"]]),
            "onsets": ([s / rate for s in a["onsets_printed"]], onset_rep),
            "beats": (beat_t, beat_rep),
        }
    return views


def score_item(item, raw):
    """{tool: {task: score dict}} for the tasks this item is meant for."""
    out = {}
    ref_t, ref_f = item.f0_truth() if "pitch" in item.tasks else (None, None)
    for tool, v in tool_views(item, raw).items():
        s = {}
        if "pitch" in item.tasks:
            s["pitch"] = score.pitch(ref_t, ref_f, *v["pitch"])
        if "noise" in item.tasks:
            s["noise"] = score.noise(item.duration, *v["pitch"])
        if "onset" in item.tasks:
            times, reported = v["onsets"]
            if tool == "jacktap":
                s["onset_described"] = score.onsets(item.onsets, times, reported)
                s["onset"] = score.onsets(item.onsets, reported, reported)
            else:
                s["onset"] = score.onsets(item.onsets, times, reported)
        if "beat" in item.tasks:
            s["beat"] = score.beats(item.beats, item.bpm, *v["beats"])
            if tool == "jacktap":
                s["beat"]["tick_tempo"] = v["tick_tempo"]
                s["beat"]["tick_tempo_ok"] = score.tempo_ok(v["tick_tempo"], item.bpm)
        out[tool] = s
    return out


def pool(entries, groups=None, rates=None):
    """Figures for one tool over entries [(item, rate, score dict)], optionally restricted to groups / rates."""
    sel = [(i, r, s) for i, r, s in entries if (groups is None or i.group in groups) and (rates is None or r in rates)]
    p = [s["pitch"] for _, _, s in sel if "pitch" in s]
    n = [s["noise"] for _, _, s in sel if "noise" in s]
    o = [s["onset"] for _, _, s in sel if s.get("onset")]
    od = [s["onset_described"] for _, _, s in sel if s.get("onset_described")]
    b = [(i, s["beat"]) for i, _, s in sel if "beat" in s]
    voiced = sum(x["voiced"] for x in p)
    fig = {}
    if voiced:
        fig["rpa"] = sum(x["rpa"] for x in p) / voiced
        fig["octave"] = (sum(x["rca"] for x in p) - sum(x["rpa"] for x in p)) / voiced
        fig["recall"] = sum(x["recall"] for x in p) / voiced
    frames = sum(x["frames"] for x in n)
    if frames:
        fig["noise_voiced"] = sum(x["voiced"] for x in n) / frames
    if o:
        fig["onset_f"] = statistics.mean(x["f"] for x in o)
        delays = [d for x in o for d in x["delays"]]
        fig["onset_delay"] = statistics.median(delays) if delays else None
    if od:
        fig["onset_f_described"] = statistics.mean(x["f"] for x in od)
    if b:
        fig["beat_f"] = statistics.mean(x["f"] for _, x in b)
        fig["beat_f_all"] = statistics.mean(x["f_all"] for _, x in b)
        fig["tempo_ok"] = (sum(1 for _, x in b if x["tempo_ok"]), len(b))
        if any("tick_tempo" in x for _, x in b):
            fig["tick_tempo_ok"] = (sum(1 for _, x in b if x.get("tick_tempo_ok")), len(b))
        locks = [x["lock"] for _, x in b]
        found = [x for x in locks if x is not None]
        fig["lock"] = (statistics.median(found) if found else None, max(found) if found else None,
                       len(locks) - len(found))
    return fig
