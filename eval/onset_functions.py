#!/usr/bin/env python3
"""Which onset function: jacktap's SuperFlux beside plain spectral flux, HFC and complex domain, on the eval corpus.

    eval/onset_functions.py [--rates 48000] [--out eval/out]

Every function is computed on jacktap's framing (2.9 ms hop, ~23 ms Hann window, bins 30 Hz-16 kHz) and picked by a
numpy copy of jacktap's picker (`OnsetPicker`: twice the mean of the last 100 ms plus a threshold, a peak with one
hop of look-ahead or a run of three hops over the threshold, a 50 ms gap, no onset while the newest hop is
silent). The threshold is in each function's own units, so each is scored at six thresholds (multiples of its mean
over the corpus) and its best is printed; SuperFlux also at jacktap's own 0.005 and with its strong-rise test.
Scored as eval/run scores onsets: mir_eval F, ±50 ms, at the time reported, mean over items; median delay.
Uses the corpus eval/run renders (it renders what is missing).
"""

import argparse
import os
import statistics
import sys

import numpy as np
import scipy.io.wavfile
from numpy.lib.stride_tricks import sliding_window_view

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import corpus  # noqa: E402
import score  # noqa: E402


def load(path):
    rate, x = scipy.io.wavfile.read(path)
    scale = {np.dtype(np.int32): 2.0**31, np.dtype(np.int16): 2.0**15}.get(x.dtype, 1.0)
    return rate, (x.astype(np.float64) / scale).astype(np.float32)


class Framing:
    """RhythmFraming: 128/44100 s hop, 1024/44100 s window rounded to 32 samples."""

    def __init__(self, rate):
        self.rate = rate
        self.hop = max(1, round(rate * 128 / 44100))
        self.window = max(64, round(rate * (1024 / 44100) / 32) * 32)
        self.frame_rate = rate / self.hop


def windows(x, fr):
    """Frame k is the `window` samples ending at sample (k + 1) * hop (zeros before the stream)."""
    padded = np.concatenate([np.zeros(fr.window, np.float32), x])
    starts = (np.arange(len(x) // fr.hop) + 1) * fr.hop
    return sliding_window_view(padded, fr.window)[starts]


def spectra(frames, fr):
    """Complex spectra over 30 Hz-16 kHz, scaled so a full-scale sine reads 1, and the first bin's index."""
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(fr.window) / fr.window)
    bin_hz = fr.rate / fr.window
    lo, hi = max(1, round(30 / bin_hz)), min(fr.window // 2, round(16000 / bin_hz))
    out = [np.fft.rfft(frames[s:s + 2048] * w, axis=1)[:, lo:hi + 1].astype(np.complex64)
           for s in range(0, len(frames), 2048)]
    return np.concatenate(out) * (2 / w.sum()), lo, bin_hz


def superflux(X, lo, bin_hz):
    """jacktap's SpectralFlux: log(1 + 1000|X|), ±3 % maximum filter, lag 2, picking bins from 200 Hz, strong test."""
    mag = np.abs(X)
    L = np.log1p(1000 * mag)
    M = L.copy()
    radius = np.maximum(1, np.round((lo + np.arange(L.shape[1])) * 0.03)).astype(int)
    for i, r in enumerate(radius):
        M[:, i] = L[:, max(0, i - r):i + r + 1].max(axis=1)
    old = np.zeros_like(M)
    old[2:] = M[:-2]
    first = min(L.shape[1] - 1, max(0, round(200 / bin_hz) - lo))
    rise = np.clip(L[:, first:] - old[:, first:], 0, None).sum(axis=1)
    floor = np.log1p(1000 * mag.max(axis=1) * 10 ** (-40 / 20))[:, None]
    strong_rise = np.clip(np.maximum(L[:, first:], floor) - np.maximum(old[:, first:], floor), 0, None).sum(axis=1)
    return rise / L.shape[1], strong_rise >= 0.2 * rise


def onset_functions(X, lo, bin_hz):
    """{name: (function, strong or None)}."""
    mag = np.abs(X)
    previous = np.vstack([np.zeros_like(mag[:1]), mag[:-1]])
    k = np.arange(lo, lo + mag.shape[1]) + 1.0
    hfc = (mag * k).sum(axis=1)  # aubio's hfc: sum of (k + 1) |X_k|
    phase = np.angle(X)
    predicted_phase = np.zeros_like(phase)
    predicted_phase[2:] = 2 * phase[1:-1] - phase[:-2]
    target = previous * np.exp(1j * predicted_phase)
    deviation = np.abs(X - target)
    flux, strong = superflux(X, lo, bin_hz)
    return {
        "SuperFlux (jacktap)": (flux, strong),
        "SuperFlux, no strong-rise test": (flux, None),
        "spectral flux (linear, lag 1)": (np.clip(mag - previous, 0, None).sum(axis=1), None),
        "HFC (aubio's)": (hfc, None),
        "HFC rise": (np.clip(np.diff(hfc, prepend=0), 0, None), None),
        "complex domain (Bello 2004)": (deviation.sum(axis=1), None),
        "rectified complex domain (Dixon 2006)": ((deviation * (mag >= previous)).sum(axis=1), None),
    }


def silent_newest_hop(frames, fr):
    """SpectralFlux.newestHopIsSilent: the newest hop 40 dB below the rest of the window."""
    power = frames.astype(np.float64) ** 2
    older = power[:, :fr.window - fr.hop].mean(axis=1)
    newest = power[:, fr.window - fr.hop:].mean(axis=1)
    return newest < 1e-4 * older


def pick(values, strong, silent, fr, threshold, gap=0.050, early=3):
    """OnsetPicker: the frames at which an onset is known."""
    mean_frames = max(2, round(0.1 * fr.frame_rate))
    max_frames = max(1, round(0.03 * fr.frame_rate))
    gap_frames = max(1, round(gap * fr.frame_rate))
    sums = np.concatenate([[0.0], np.cumsum(values, dtype=np.float64)])

    def over(k):
        span = min(mean_frames, k)
        return 2 * (sums[k] - sums[k - span]) / span + threshold if span else threshold

    last, run, reported, out = -10**9, 0, False, []
    for k in range(1, len(values)):
        found = False
        c = values[k - 1]
        if (c > values[k] and k - 1 - last >= gap_frames and not (run and reported) and (strong is None or strong[k - 1])
                and not silent[k] and values[max(0, k - 1 - max_frames):k - 1].max(initial=-1.0) <= c
                and c > over(k - 1)):
            last, reported, found = k - 1, True, True
            out.append(k)
        if values[k] > over(k):
            reported = reported if run else False
            run += 1
        else:
            run = 0
        if not found and run >= early and not reported and k - last >= gap_frames and not silent[k]:
            last, reported = k, True
            out.append(k)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rates", default="48000", help="sample rates, comma-separated (default 48000)")
    parser.add_argument("--out", default=os.path.join(HERE, "out"), help="eval/run's cache directory")
    args = parser.parse_args()
    items = [i for i in corpus.items() if "onset" in i.tasks]
    for rate in (int(r) for r in args.rates.split(",")):
        per_item = []
        for item in items:
            sr, x = load(corpus.ensure_rendered(item, rate, args.out))
            fr = Framing(sr)
            frames = windows(x, fr)
            X, lo, bin_hz = spectra(frames, fr)
            per_item.append((item, fr, onset_functions(X, lo, bin_hz), silent_newest_hop(frames, fr)))
            print(f"\r{len(per_item)}/{len(items)} items at {rate} Hz", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        print(f"\n{rate} Hz, {len(items)} items: mean onset F (±50 ms, at the time reported) at each function's best "
              "threshold\n")
        print("| onset function | threshold | F | median delay |\n|---|---:|---:|---:|")
        for name in per_item[0][2]:
            scale = statistics.mean(float(np.mean(functions[name][0])) for _, _, functions, _ in per_item)
            thresholds = [scale * m for m in (0.25, 0.5, 1, 2, 4, 8)] + ([0.005] if name.startswith("SuperFlux") else [])
            best = None
            for threshold in thresholds:
                fs, delays = [], []
                for item, fr, functions, silent in per_item:
                    values, strong = functions[name]
                    known = pick(values, strong, silent, fr, threshold)
                    reported = [(k + 1) * fr.hop / fr.rate for k in known]
                    scored = score.onsets(item.onsets, reported, reported)
                    fs.append(scored["f"])
                    delays += scored["delays"]
                result = (statistics.mean(fs), threshold, statistics.median(delays) if delays else float("nan"))
                best = max(best or result, result)
            f, threshold, delay = best
            print(f"| {name} | {threshold:.4g} | {f:.3f} | {1000 * delay:+.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
