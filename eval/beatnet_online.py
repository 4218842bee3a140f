#!/usr/bin/env python3
"""BeatNet's online beat and bar tracker on one file, for eval/real: prints one JSON object.

    beatnet_online.py FILE

BeatNet 1.1.3 (PyPI `BeatNet`, weights inside the wheel), `BeatNet(1, mode='online', inference_model='PF',
plot=[], thread=False).process(FILE)`: its causal CRNN (a unidirectional LSTM) over the whole file, then its
particle filter frame by frame (50 frames a second). The filter appends a beat at the time of the frame where it
decides it, so the times it returns are the times it reported them (online). A frame is centred on its time
(madmom's FramedSignal default), so each decision has seen 32 ms of audio past that time (half its 64 ms window).

Output: {"beats": [[t, 1 for a bar's first beat else 2], ...], "cpu": CPU seconds of process() alone (torch on
one thread; imports and model loading not counted), "version": BeatNet's version}.

Two shims, neither touching BeatNet's results: BeatNet imports pyaudio at the top but uses it only in its
'stream' mode (microphone), so a stand-in module is put in its place when pyaudio is missing; and NumPy 2.4
removed np.in1d, which its particle filter calls, so np.in1d becomes np.isin on flattened input (what in1d was).
The particle filter draws from NumPy's global generator and a module-level default_rng(): both are seeded, so a
file gives the same beats on every run.
"""

import json
import sys
import time
import types


def main():
    path = sys.argv[1]
    try:
        import pyaudio  # noqa: F401
    except ImportError:
        sys.modules["pyaudio"] = types.ModuleType("pyaudio")
    import numpy as np
    if not hasattr(np, "in1d"):
        np.in1d = lambda a, b, **kw: np.isin(np.ravel(a), b, **kw)
    import torch
    torch.set_num_threads(1)
    import BeatNet.particle_filtering_cascade as pf
    from BeatNet.BeatNet import BeatNet
    from importlib.metadata import version

    np.random.seed(1)
    pf.rng = np.random.default_rng(1)
    tracker = BeatNet(1, mode="online", inference_model="PF", plot=[], thread=False)
    start = time.process_time()
    out = tracker.process(path)
    cpu = time.process_time() - start
    beats = [[round(float(t), 6), int(k)] for t, k in np.asarray(out).reshape(-1, 2)]
    json.dump({"beats": beats, "cpu": cpu, "version": version("BeatNet")}, sys.stdout)
    print()


if __name__ == "__main__":
    sys.exit(main())
