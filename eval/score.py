"""Scores one tool's output on one item with mir_eval, returning counts that pool across items.

- pitch: mir_eval.melody on the 10 ms truth grid (the estimate is resampled onto it by mir_eval). Raw pitch
  accuracy = truth-voiced frames whose estimate (voiced or not: a negative Hz still carries the candidate) is
  within 50 cents; octave errors = raw chroma accuracy - raw pitch accuracy (right pitch class, wrong octave).
- noise: the share of frames the tool calls voiced on an item that holds only pink noise.
- onsets: mir_eval.onset.f_measure with a 50 ms window, on the times given (reported or described); report
  delay = reported - truth over the matched pairs.
- beats: mir_eval.beat.f_measure with a 70 ms window, after mir_eval's usual trim of the first 5 s, and
  untrimmed; tempo = 60 / median inter-beat interval; lock = see lock_time.
"""

import warnings

import numpy as np
import mir_eval

warnings.filterwarnings("ignore", module="mir_eval")

ONSET_WINDOW = 0.05
BEAT_WINDOW = 0.07
TEMPO_TOLERANCE = 0.04
LOCK_RUN = 4


def pitch(ref_times, ref_freqs, est_times, est_freqs):
    """{"voiced": truth-voiced frames, "rpa": frames right within 50 c, "rca": right pitch class, "recall":
    truth-voiced frames the tool calls voiced}."""
    ref_t, ref_f = np.asarray(ref_times, float), np.asarray(ref_freqs, float)
    est_t, est_f = _clean(est_times, est_freqs)
    ref_v, ref_c, est_v, est_c = mir_eval.melody.to_cent_voicing(ref_t, ref_f, est_t, est_f)
    voiced = float(np.sum(ref_v))
    if voiced == 0:
        return {"voiced": 0, "rpa": 0, "rca": 0, "recall": 0}
    return {
        "voiced": voiced,
        "rpa": mir_eval.melody.raw_pitch_accuracy(ref_v, ref_c, est_v, est_c) * voiced,
        "rca": mir_eval.melody.raw_chroma_accuracy(ref_v, ref_c, est_v, est_c) * voiced,
        "recall": float(np.sum(ref_v * est_v)),
    }


def noise(duration, est_times, est_freqs, frame=0.01):
    """{"frames": frames, "voiced": frames called voiced} on the item's 10 ms grid."""
    ref_t = np.arange(int(duration / frame)) * frame
    est_t, est_f = _clean(est_times, est_freqs)
    _, _, est_v, _ = mir_eval.melody.to_cent_voicing(ref_t, np.zeros_like(ref_t), est_t, est_f)
    return {"frames": float(len(ref_t)), "voiced": float(np.sum(est_v > 0.5))}


def _clean(times, freqs):
    t, f = np.asarray(times, float), np.asarray(freqs, float)
    keep = t >= 0
    t, f = t[keep], f[keep]
    if len(t) == 0:
        return np.array([0.0]), np.array([0.0])
    order = np.argsort(t, kind="stable")
    return t[order], f[order]


def onsets(ref, est_times, reported=None):
    """{"f": F, "ref": n, "est": n, "hits": n, "delays": [reported - truth of matched pairs]}."""
    ref = np.asarray(ref, float)
    est = np.sort(np.asarray(est_times, float))
    if len(ref) == 0:
        return None
    f = mir_eval.onset.f_measure(ref, est, window=ONSET_WINDOW)[0] if len(est) else 0.0
    matches = mir_eval.util.match_events(ref, est, ONSET_WINDOW) if len(est) else []
    delays = []
    if reported is not None:
        order = np.argsort(np.asarray(est_times, float), kind="stable")
        rep = np.asarray(reported, float)[order]
        delays = [float(rep[e] - ref[r]) for r, e in matches]
    return {"f": f, "ref": len(ref), "est": len(est), "hits": len(matches), "delays": delays}


def beats(ref, bpm, est_times, est_reported):
    """{"f": F after 5 s, "f_all": F, "tempo": BPM from the median IBI or None, "tempo_ok": bool, "lock": s}."""
    ref = np.asarray(ref, float)
    est = np.sort(np.asarray(est_times, float))
    f = mir_eval.beat.f_measure(mir_eval.beat.trim_beats(ref), mir_eval.beat.trim_beats(est), BEAT_WINDOW)
    f_all = mir_eval.beat.f_measure(ref, est, BEAT_WINDOW)
    tempo = median_ibi_tempo(est)
    return {"f": f, "f_all": f_all, "tempo": tempo, "tempo_ok": tempo_ok(tempo, bpm),
            "lock": lock_time(ref, est_times, est_reported)}


def median_ibi_tempo(times):
    times = np.sort(np.asarray(times, float))
    if len(times) < 2:
        return None
    return 60.0 / float(np.median(np.diff(times)))


def tempo_ok(tempo, bpm):
    return tempo is not None and abs(tempo / bpm - 1.0) <= TEMPO_TOLERANCE


def lock_time(ref, est_times, est_reported):
    """Seconds from the first true beat to the moment the tool reported the first of LOCK_RUN consecutive beats
    that each fall within 70 ms of consecutive true beats (so phase and tempo are both right); None if never."""
    ref = np.asarray(ref, float)
    pairs = sorted(zip(est_times, est_reported))
    if len(ref) == 0 or len(pairs) < LOCK_RUN:
        return None
    index = []
    for t, _ in pairs:
        j = int(np.argmin(np.abs(ref - t)))
        index.append(j if abs(ref[j] - t) <= BEAT_WINDOW else None)
    for i in range(len(pairs) - LOCK_RUN + 1):
        run = index[i:i + LOCK_RUN]
        if run[0] is not None and run == list(range(run[0], run[0] + LOCK_RUN)):
            return max(0.0, pairs[i][1] - ref[0])
    return None


def beat_hits(ref, est):
    """For each true beat, whether an estimate lies within 70 ms of it."""
    est = np.asarray(est)
    return [len(est) > 0 and np.min(np.abs(est - r)) <= BEAT_WINDOW for r in ref]


def beats_until_followed(ref, est, change):
    """True beats from the change on until 4 in a row each have an estimate within 70 ms (None: never)."""
    hit = beat_hits(ref[change:], est)
    for k in range(len(hit) - 3):
        if all(hit[k:k + 4]):
            return k
    return None
