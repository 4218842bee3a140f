"""eval/run --selftest: checks the harness itself before its figures are trusted.

1. The scorer gives 1.0 for the ground truth against itself, and fails shifted copies exactly where the
   tolerances say it must (50 cents, 50 ms, 70 ms, 4 %).
2. aubiopitch's CLI rows equal the python3-aubio helper's rows (so the helper's confidence belongs to them).
3. The report times reconstructed from aubioonset's / aubiotrack's printed times equal the block ends that
   python3-aubio sees when it runs the same objects block by block.
4. The yin time alignment puts aubio's estimates on a sox glide's sweep law.
5. The jacktap parser reads the contract's JSON lines.
"""

import subprocess

import numpy as np

import corpus
import score
import tools

failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")
    if not ok:
        failures.append(name)


def scorer():
    piano = corpus.instrument_item(*corpus.INSTRUMENTS[0])
    t, f = piano.f0_truth()
    f = np.asarray(f)
    check("pitch: truth vs itself = 1.0", score.pitch(t, f, t, f)["rpa"] == score.pitch(t, f, t, f)["voiced"])
    for cents, expect in ((40, 1.0), (60, 0.0)):
        s = score.pitch(t, f, t, f * 2 ** (cents / 1200))
        check(f"pitch: +{cents} cents scores {expect}", abs(s["rpa"] / s["voiced"] - expect) < 1e-9)
    s = score.pitch(t, f, t, -f)
    check("pitch: unvoiced candidates still count for RPA", abs(s["rpa"] / s["voiced"] - 1) < 1e-9
          and s["recall"] == 0)
    s = score.pitch(t, f, t, f * 2)
    check("pitch: an octave up is an octave error", s["rpa"] == 0 and abs(s["rca"] / s["voiced"] - 1) < 1e-9)
    n = score.noise(10.0, [0.0, 10.0], [0.0, 0.0])
    check("noise: silence is 0 voiced frames", n["voiced"] == 0 and n["frames"] == 1000)
    n = score.noise(10.0, np.arange(0, 10, 0.01), -np.full(1000, 300.0))
    check("noise: unvoiced candidates are not voiced", n["voiced"] == 0)

    drums = corpus.loop_item(120, False)
    ref = np.asarray(drums.onsets)
    check("onsets: truth vs itself = 1.0", score.onsets(ref, ref, ref)["f"] == 1.0)
    for shift, expect in ((0.04, 1.0), (0.06, 0.0)):
        s = score.onsets(ref, ref + shift, ref + shift)
        check(f"onsets: +{shift * 1000:.0f} ms scores {expect}", abs(s["f"] - expect) < 1e-9)
    s = score.onsets(ref, ref, ref + 0.012)
    check("onsets: delay = reported - truth", abs(np.median(s["delays"]) - 0.012) < 1e-9)

    beats = np.asarray(drums.beats)
    s = score.beats(beats, drums.bpm, beats, beats)
    check("beats: truth vs itself = 1.0, tempo ok, lock 0", s["f"] == 1.0 and s["tempo_ok"] and s["lock"] == 0.0)
    for shift, expect in ((0.06, 1.0), (0.08, 0.0)):
        s = score.beats(beats, drums.bpm, beats + shift, beats + shift)
        check(f"beats: +{shift * 1000:.0f} ms scores {expect}", abs(s["f"] - expect) < 1e-9)
    check("tempo: 3 % off is ok, 5 % is not", score.tempo_ok(120 * 1.03, 120) and not score.tempo_ok(120 * 1.05, 120))
    half = beats[::2]
    s = score.beats(beats, drums.bpm, half, half)
    check("beats: half tempo fails tempo and never locks", not s["tempo_ok"] and s["lock"] is None)
    late = np.concatenate([beats[:3] + 0.2, beats[3:]])
    s = score.beats(beats, drums.bpm, late, late)
    check("beats: lock at the first of 4 right beats", abs(s["lock"] - (beats[3] - beats[0])) < 1e-9)


def aubio(out_dir):
    rate = 44100
    glides = corpus.glides_item()
    drums = corpus.loop_item(120, False)
    piano = corpus.instrument_item(*corpus.INSTRUMENTS[0])
    paths = {i.name: corpus.ensure_rendered(i, rate, out_dir) for i in (glides, drums, piano)}
    raw, _ = tools.run_aubio(paths["piano"], rate)
    same = len(raw["pitch_cli"]) == len(raw["pitch_conf"]) and all(
        a[0] == b[0] and abs(a[1] - b[1]) <= 1e-3 * max(1.0, a[1]) for a, b in zip(raw["pitch_cli"], raw["pitch_conf"]))
    check("aubiopitch CLI rows = python3-aubio helper rows", same, f"{len(raw['pitch_cli'])} rows")

    py = tools.aubio_python()
    for kind, name, (b, h) in (("onset", "piano", (1024, 128)), ("onset", "drums-120", (1024, 128)),
                               ("beat", "drums-120", (512, 256))):
        out = subprocess.run([py, f"{tools.HERE}/aubio_blocks.py", kind, paths[name], str(b), str(h)],
                             capture_output=True, text=True, check=True).stdout
        rows = [tuple(map(int, line.split())) for line in out.splitlines()]
        rebuild = tools.aubio_onset_reported if kind == "onset" else tools.aubio_beat_reported
        # aubio clamps onsets found in the first `delay` samples to 0: their block cannot be recovered.
        wrong = [(p, r) for p, r in rows if p > 0 and rebuild(p, h) != r]
        check(f"aubio {kind} report times rebuilt on {name}", not wrong and rows, f"{len(rows)} detections, {wrong[:3]}")

    raw, _ = tools.run_aubio(paths["glides"], rate)
    t_ref, f_ref = glides.f0_truth()
    b, h = raw["sizes"]["pitch"]
    for label, times in (("as-is", [s / rate for s, _, _ in raw["pitch_conf"]]),
                         ("aligned", [tools.aubio_yin_centre(s, f, b, h) / rate for s, f, _ in raw["pitch_conf"]])):
        freqs = [f for _, f, _ in raw["pitch_conf"]]
        est = np.interp(t_ref, times, freqs)
        ref = np.asarray(f_ref)
        sel = (ref > 0) & (est > 0)
        cents = 1200 * np.log2(est[sel] / ref[sel])
        inner = np.abs(cents) < 600
        print(f"     glide, aubio {label}: median |error| {np.median(np.abs(cents[inner])):.1f} cents, "
              f"median error {np.median(cents[inner]):+.1f} cents")
        if label == "aligned":
            check("aubio yin alignment follows the sweep", np.median(np.abs(cents[inner])) < 10)


def jacktap_parser():
    text = "\n".join([
        '{"t": 1.2345, "in_1": {"peak": -3, "pitch": {"t": 1.2213, "hz": 440.0, "confidence": 0.981, "voiced": true}, '
        '"note": ["A4", 69, 0.3], "tempo": 120.0, "phase": 0.25}}',
        '{"t": 1.2445, "in_1": {"pitch": {"t": 1.2313, "hz": 210.0, "confidence": 0.2, "voiced": false}, "tempo": null}}',
        '{"t": 1.2545, "in_1": {"pitch": null, "tempo": null}}',
        '{"t": 12.345, "port": "in_1", "event": "beat", "count": 17, "bpm": 120.0, "reported": 12.335}',
        '{"t": 3.210, "port": "in_1", "event": "onset", "strength": 0.8, "reported": 3.221}',
        '{"summary": {}}'])
    p = tools.parse_jacktap(text)
    check("jacktap parser: pitch at its own t, unvoiced negative, null = 0",
          p["pitch"] == [(1.2213, 440.0), (1.2313, -210.0), (1.2545, 0.0)], f"{p['pitch']}")
    check("jacktap parser: events", p["onsets"] == [(3.21, 3.221)] and p["beats"] == [(12.345, 12.335, 120.0)]
          and p["tempo_ticks"] == [(1.2345, 120.0)])


def main(out_dir):
    scorer()
    jacktap_parser()
    aubio(out_dir)
    print(f"{len(failures)} failure(s)" if failures else "all checks pass")
    return 1 if failures else 0
