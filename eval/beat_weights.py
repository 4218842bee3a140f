"""The beat activation weights file jacktap reads (Sources/Analysis/Rhythm/BeatNetworkWeights.swift documents the
layout): written from a PyTorch GRU stack, read back for checks.
"""

import struct

import numpy as np

MAGIC = b"JTBEATNN"
FORMAT_VERSION = 1
AVERAGE_FORMAT_VERSION = 2  # several format-1 files whose activations jacktap averages
MAXIMUM_MEMBERS = 16
FEATURE_VERSION = 2  # BeatFeatures.newestVersion: what `jacktap beat-features` records without a network
# Inputs per frame of each version: version 1's 41 bands and their rises lead every version 2 record (version 3
# takes them from there too: eval/train-beat-network takes its values against their running means).
FEATURE_INPUTS = {1: 82, 2: 266, 3: 82}


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def _floats(a):
    return np.ascontiguousarray(np.asarray(a, dtype="<f4").ravel()).tobytes()


def _finish(path, body, out_weight, out_bias):
    """Appends the output layer and the checksum to `body`, writes the file and returns its length."""
    body += _floats(out_weight) + _floats([out_bias])
    body += struct.pack("<Q", fnv1a64(bytes(body)))
    with open(path, "wb") as f:
        f.write(body)
    return len(body)


def write(path, mean, scale, layers, out_weight, out_bias, provenance, feature_version=FEATURE_VERSION):
    """layers: [(weight_ih, weight_hh, bias_ih, bias_hh)] as numpy arrays in PyTorch's shapes and gate order."""
    inputs = len(mean)
    hidden = [int(w_hh.shape[1]) for _, w_hh, _, _ in layers]
    text = provenance.encode("utf-8")
    body = bytearray(MAGIC)
    assert inputs == FEATURE_INPUTS[feature_version], (inputs, feature_version)
    body += struct.pack("<4I", FORMAT_VERSION, feature_version, inputs, len(layers))
    body += struct.pack(f"<{len(hidden)}I", *hidden)
    body += struct.pack("<I", len(text)) + text
    body += _floats(mean) + _floats(scale)
    previous = inputs
    for (w_ih, w_hh, b_ih, b_hh), h in zip(layers, hidden):
        assert w_ih.shape == (3 * h, previous) and w_hh.shape == (3 * h, h), (w_ih.shape, w_hh.shape)
        body += _floats(w_ih) + _floats(w_hh) + _floats(b_ih) + _floats(b_hh)
        previous = h
    assert np.asarray(out_weight).size == previous
    return _finish(path, body, out_weight, out_bias)


def read_provenance(data):
    """The feature version and text of a format-1 or format-3 file's bytes (the checksum checked)."""
    if data[:8] != MAGIC or fnv1a64(data[:-8]) != struct.unpack("<Q", data[-8:])[0]:
        raise ValueError("not a jacktap beat weights file, or its checksum does not match")
    format_version, feature_version = struct.unpack("<2I", data[8:16])
    if format_version == FORMAT_VERSION:
        (layers,) = struct.unpack("<I", data[20:24])
        at = 24 + 4 * layers
    elif format_version == TCN_FORMAT_VERSION:
        (layers,) = struct.unpack("<I", data[28:32])
        at = 32 + 4 * layers
    else:
        raise ValueError(f"format {format_version}: only single networks (formats {FORMAT_VERSION} and "
                         f"{TCN_FORMAT_VERSION}) can be averaged")
    (length,) = struct.unpack("<I", data[at:at + 4])
    return feature_version, data[at + 4:at + 4 + length].decode("utf-8")


def write_average(path, members, provenance):
    """A format-2 file: the format-1 files' bytes in `members`, whose activations jacktap averages."""
    assert 1 <= len(members) <= MAXIMUM_MEMBERS
    text = provenance.encode("utf-8")
    body = bytearray(MAGIC) + struct.pack("<2I", AVERAGE_FORMAT_VERSION, len(members))
    body += struct.pack("<I", len(text)) + text
    for member in members:
        body += struct.pack("<I", len(member)) + member
    body += struct.pack("<Q", fnv1a64(bytes(body)))
    with open(path, "wb") as f:
        f.write(body)
    return len(body)


def read_features(path):
    """A `jacktap beat-features` file: rows of (instant s, learned activation, features…)."""
    raw = open(path, "rb").read()
    (width,) = struct.unpack("<I", raw[:4])
    return np.frombuffer(raw[4:], dtype="<f4").reshape(-1, width)


TCN_FORMAT_VERSION = 3  # a causal temporal convolution network (BeatConvolutionNetwork.swift)


def write_tcn(path, mean, scale, input_weight, input_bias, layers, dilations, kernel, out_weight, out_bias, provenance,
              feature_version=FEATURE_VERSION):
    """A format-3 file. input_weight: channels × inputs; layers: [(conv weight channels × channels × kernel in
    PyTorch's Conv1d order, conv bias, mix weight channels × channels, mix bias)], one per dilation."""
    inputs = len(mean)
    channels = int(np.asarray(input_weight).shape[0])
    assert inputs == FEATURE_INPUTS[feature_version], (inputs, feature_version)
    assert len(layers) == len(dilations)
    text = provenance.encode("utf-8")
    body = bytearray(MAGIC)
    body += struct.pack("<6I", TCN_FORMAT_VERSION, feature_version, inputs, channels, kernel, len(layers))
    body += struct.pack(f"<{len(dilations)}I", *dilations)
    body += struct.pack("<I", len(text)) + text
    assert np.asarray(input_weight).shape == (channels, inputs)
    body += _floats(mean) + _floats(scale) + _floats(input_weight) + _floats(input_bias)
    for conv_w, conv_b, mix_w, mix_b in layers:
        assert np.asarray(conv_w).shape == (channels, channels, kernel), np.asarray(conv_w).shape
        assert np.asarray(mix_w).shape == (channels, channels)
        body += _floats(conv_w) + _floats(conv_b) + _floats(mix_w) + _floats(mix_b)
    assert np.asarray(out_weight).size == channels
    return _finish(path, body, out_weight, out_bias)
