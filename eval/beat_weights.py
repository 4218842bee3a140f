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
# Inputs per frame of each version: version 1's 41 bands and their rises lead every version 2 record.
FEATURE_INPUTS = {1: 82, 2: 266}


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


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

    def floats(a):
        return np.ascontiguousarray(np.asarray(a, dtype="<f4").ravel()).tobytes()

    body += floats(mean) + floats(scale)
    previous = inputs
    for (w_ih, w_hh, b_ih, b_hh), h in zip(layers, hidden):
        assert w_ih.shape == (3 * h, previous) and w_hh.shape == (3 * h, h), (w_ih.shape, w_hh.shape)
        body += floats(w_ih) + floats(w_hh) + floats(b_ih) + floats(b_hh)
        previous = h
    assert np.asarray(out_weight).size == previous
    body += floats(out_weight) + floats([out_bias])
    body += struct.pack("<Q", fnv1a64(bytes(body)))
    with open(path, "wb") as f:
        f.write(body)
    return len(body)


def read_provenance(data):
    """The feature version and text of a format-1 file's bytes (the checksum checked)."""
    if data[:8] != MAGIC or fnv1a64(data[:-8]) != struct.unpack("<Q", data[-8:])[0]:
        raise ValueError("not a jacktap beat weights file, or its checksum does not match")
    format_version, feature_version, _, layers = struct.unpack("<4I", data[8:24])
    if format_version != FORMAT_VERSION:
        raise ValueError(f"format {format_version}: only single networks (format {FORMAT_VERSION}) can be averaged")
    at = 24 + 4 * layers
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
