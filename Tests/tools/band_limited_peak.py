#!/usr/bin/env python3
"""Prints the true peak of each channel of an audio file as JSON, {"true_peak_dbtp": [...]}: the maximum of the
band-limited signal the samples stand for (ITU-R BS.1770-4 Annex 2 defines true peak as the peak of that
continuous signal; its 4x oversampler is one way of estimating it), with silence before and after the file,
as when the file is played into a JACK port.

The signal is rebuilt by FFT interpolation (numpy's FFT, 32x), in blocks of 65536 samples with 8192 samples
of context on each side (the block edges' wrap-around ringing has decayed below 0.001 dB that far in). On a
32x grid a 20 kHz sine at 48 kHz is read at most 0.007 dB low.

sox decodes the file, so anything sox reads will do."""
import json
import subprocess
import sys

import numpy as np

OVERSAMPLING = 32
BLOCK = 65536
CONTEXT = 8192


def channel_peak(samples: np.ndarray) -> float:
    # The signal around the file (its ringing before the first sample and after the last), then the context.
    region = np.concatenate([np.zeros(CONTEXT), samples, np.zeros(CONTEXT)])
    padded = np.concatenate([np.zeros(CONTEXT), region, np.zeros(CONTEXT + BLOCK)])
    peak = 0.0
    for start in range(CONTEXT, CONTEXT + len(region), BLOCK):
        segment = padded[start - CONTEXT:start + BLOCK + CONTEXT]
        spectrum = np.fft.rfft(segment)
        spectrum[-1] *= 0.5  # the Nyquist bin of an even-length block is shared by +fs/2 and -fs/2
        upsampled = np.fft.irfft(spectrum, len(segment) * OVERSAMPLING) * OVERSAMPLING
        core = upsampled[CONTEXT * OVERSAMPLING:(CONTEXT + BLOCK) * OVERSAMPLING]
        peak = max(peak, float(np.abs(core).max()))
    return peak


def main() -> None:
    path = sys.argv[1]
    channels = int(subprocess.run(["soxi", "-c", path], check=True, capture_output=True, text=True).stdout)
    raw = subprocess.run(["sox", path, "-t", "f32", "-"], check=True, capture_output=True).stdout
    frames = np.frombuffer(raw, dtype=np.float32).astype(np.float64).reshape(-1, channels)
    peaks = [channel_peak(frames[:, c]) for c in range(channels)]
    print(json.dumps({"true_peak_dbtp": [20 * np.log10(p) if p > 0 else -float("inf") for p in peaks]}))


if __name__ == "__main__":
    main()
