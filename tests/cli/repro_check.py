#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Checks verify-mode repro files (.npz) with NumPy and `accel replay`.

A planted fault (the faulty test plugin's `element` bug: one element of an
add or multiply off by 0.5) writes a repro file under `accel run`; NumPy opens
it with np.load and every array must equal, exactly, what NumPy itself has:
the inputs it wrote, the output `accel run` wrote, and its own product or sum
(the CPU reference and NumPy are both correctly rounded, so tolerance 0).
`accel replay` must reproduce it bit for bit, also after Python's zipfile
repacks it deflated (as np.savez_compressed writes). A hand-made bf16
transpose checks the bf16-as-f32 members and the guard elements. Then hostile
files: truncated, a wrong CRC, sizes past this machine's memory, a deflate
bomb under a small declared size, member names that are paths, duplicates,
missing members, a wrong dtype, bad JSON, the old text format, a FIFO: each
must give exit 1 and a clear message, never a crash or a hang. op.json fields
that disagree with each other or with the members (dtype and op names against
their codes, counts and guards against the arrays, scalars against
scalars.npy), unknown or repeated keys, text after the object, members the op
does not read: refused, naming the field. Bytes appended after the archive's
end record: read as np.load reads them (with a note); bytes in front: refused,
as np.load does not read such a file as .npz.

usage: repro_check.py ACCEL FAULTY_PLUGIN CPU_PLUGIN TMPDIR [--seed N]
"""
import argparse
import glob
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import warnings
import zipfile
import zlib

import numpy as np

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(cmd, timeout=60):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    # Under the debug-asan preset a sanitizer report fails the run that printed it.
    for mark in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
        if mark in p.stderr:
            check(False, f"{' '.join(cmd[1:3])}: {mark}: {p.stderr[-2000:]}")
    return p


def ini(path, faulty, cpu, repro_dir, fault="element"):
    with open(path, "w") as f:
        f.write("[runtime]\norder = faulty, cpu\nselftest = false\nverify = cpu\n"
                f"on_mismatch = warn\nverify_repro_dir = {repro_dir}\n"
                f"[backend.faulty]\nlibrary = {faulty}\nfault = {fault}\n"
                f"[backend.cpu]\nlibrary = {cpu}\n")


def members(path):
    """name -> bytes of every member of a zip file."""
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i.filename) for i in z.infolist()}


def npy_bytes(arr):
    b = io.BytesIO()
    np.save(b, arr)
    return b.getvalue()


def write_zip(path, entries, deflate=False):
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)), data, compress_type=method)


def raw_zip(path, entries):
    """A zip whose directory says what we like: (name, data, declared size,
    crc, method 0 or 8) per entry; data is written as given."""
    out, cd = bytearray(), bytearray()
    for name, data, size, crc, method in entries:
        n = name.encode()
        off = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x5C21, crc, len(data),
                           size, len(n), 0) + n + data
        cd += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x314, 20, 0, method, 0, 0x5C21, crc,
                          len(data), size, len(n), 0, 0, 0, 0, 0o100644 << 16, off) + n
    out += cd + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(cd),
                            len(out), 0)
    with open(path, "wb") as f:
        f.write(out)


def expect_refused(accel, cfg, path, words, what):
    p = run([accel, "replay", path, "--config", cfg], timeout=60)
    if p is None:
        check(False, f"{what}: replay hangs")
        return
    ok = p.returncode == 1 and all(w in p.stderr for w in words)
    check(ok, f"{what}: exit {p.returncode}, {p.stderr.strip()[:300]!r} names {words}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("accel")
    ap.add_argument("faulty")
    ap.add_argument("cpu")
    ap.add_argument("tmpdir")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    args.faulty, args.cpu = os.path.abspath(args.faulty), os.path.abspath(args.cpu)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"repro_check: seed {seed} (rerun with --seed {seed})")
    rng = np.random.default_rng(seed)
    os.makedirs(args.tmpdir, exist_ok=True)
    d = tempfile.mkdtemp(prefix="repro_", dir=args.tmpdir)
    repro_dir = os.path.join(d, "repro")
    cfg = os.path.join(d, "faulty.ini")
    ini(cfg, args.faulty, args.cpu, repro_dir)

    # --- a planted fault writes a repro file; NumPy reads it exactly.
    files = {}
    for op, dt, ref in (("multiply", "f4", np.multiply), ("add", "f8", np.add)):
        a = rng.uniform(-4, 4, 40).astype(dt)
        b = rng.uniform(-4, 4, 40).astype(dt)
        pa, pb, pc = (os.path.join(d, f"{op}_{x}.npy") for x in "abc")
        np.save(pa, a)
        np.save(pb, b)
        before = set(glob.glob(os.path.join(repro_dir, "*.npz")))
        p = run([args.accel, "run", op, pa, pb, "-o", pc, "--device", "faulty", "--config", cfg])
        new = sorted(set(glob.glob(os.path.join(repro_dir, "*.npz"))) - before)
        check(p is not None and p.returncode == 0 and len(new) == 1,
              f"{op} {dt}: one repro file ({new}; {p and p.stderr.strip()[:300]!r})")
        if len(new) != 1:
            continue
        files[op] = new[0]
        check(f"repro file {new[0]}" in p.stderr, f"{op}: the warning names the file")
        z = np.load(new[0])
        want = {"input0", "input1", "output_before", "output_device", "output_reference",
                "scalars", "op.json"}
        check(set(z.files) == want, f"{op}: members {sorted(z.files)}")
        desc = json.loads(z["op.json"])
        c = np.load(pc)
        check(desc["format"] == "accel-repro" and desc["version"] == 2, f"{op}: format")
        check(desc["device"] == "faulty:0" and desc["reference"] == "cpu:0", f"{op}: devices")
        check(desc["dtype"] == {"f4": "f32", "f8": "f64"}[dt], f"{op}: dtype {desc['dtype']}")
        check(desc["counts"] == [40, 40, 40] and desc["num_operands"] == 3, f"{op}: counts")
        check(desc["guard_before"] == 0 and desc["guard_after"] == 0,
              f"{op}: no guards (accel run's buffers are exactly the arrays)")
        check("element 20" in desc["mismatch"], f"{op}: the message: {desc['mismatch'][:80]}")
        for name, arr in (("input0", a), ("input1", b), ("output_device", c),
                          ("output_reference", ref(a, b))):
            check(z[name].dtype == np.dtype(dt) and np.array_equal(z[name], arr),
                  f"{op}: {name} equals NumPy's exactly")
        bad = np.flatnonzero(z["output_device"] != z["output_reference"])
        # The plugin adds 0.5 in the array's dtype: compare with that rounded sum, not the
        # difference (in f32, (r + 0.5) - r is 0.5 only when no rounding happened).
        planted = z["output_reference"][20] + np.asarray(0.5, dtype=z["output_reference"].dtype)
        check(list(bad) == [20] and z["output_device"][20] == planted,
              f"{op}: the planted fault, element 20 off by 0.5 (found {list(bad)})")
        check(np.array_equal(z["scalars"], np.zeros(4)), f"{op}: scalars")

        # replay: the faulty device again (exit 1), then the CPU (exit 0).
        p = run([args.accel, "replay", new[0], "--config", cfg])
        check(p is not None and p.returncode == 1 and
              "reproduces the recorded one bit for bit" in p.stdout and
              "mismatch reproduced: element 20" in p.stdout,
              f"{op}: replay on faulty reproduces it: {p and (p.stdout + p.stderr)[-400:]!r}")
        p = run([args.accel, "replay", new[0], "--config", cfg, "--device", "cpu"])
        check(p is not None and p.returncode == 0 and "not reproduced" in p.stdout and
              "cpu:0 gives the recorded reference output bit for bit" in p.stdout,
              f"{op}: replay on cpu agrees: {p and (p.stdout + p.stderr)[-400:]!r}")
    if "multiply" not in files:
        print("repro_check: no repro file; the rest needs one")
        return 1
    src = files["multiply"]
    m = members(src)

    # --- repacked deflated (np.savez_compressed's layout): replayed the same.
    deflated = os.path.join(d, "deflated.npz")
    write_zip(deflated, m.items(), deflate=True)
    with zipfile.ZipFile(deflated) as z:
        check(all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist()), "deflated")
    p = run([args.accel, "replay", deflated, "--config", cfg])
    check(p is not None and p.returncode == 1 and "bit for bit" in p.stdout and
          "element 20" in p.stdout, f"deflated copy replays: {p and p.stderr[-300:]!r}")

    # --- written again by NumPy from np.load's dict: op.json becomes a 0-d
    # bytes array (op.json.npy); an edited input changes the replay.
    for save in (np.savez, np.savez_compressed):
        again = os.path.join(d, save.__name__ + ".npz")
        z = dict(np.load(src))
        save(again, **z)
        check("op.json.npy" in zipfile.ZipFile(again).namelist(), f"{save.__name__}: op.json.npy")
        p = run([args.accel, "replay", again, "--config", cfg])
        check(p is not None and p.returncode == 1 and "bit for bit" in p.stdout and
              "element 20" in p.stdout,
              f"{save.__name__} of np.load's dict replays: {p and (p.stdout + p.stderr)[-300:]!r}")
    z = dict(np.load(src))
    z["input0"] = z["input0"] * 2
    np.savez(again, **z)
    p = run([args.accel, "replay", again, "--config", cfg, "--device", "cpu"])
    check(p is not None and p.returncode == 0 and "cpu:0 no longer gives the recorded" in p.stdout,
          f"an input edited in NumPy is what replay runs: {p and (p.stdout + p.stderr)[-300:]!r}")
    z["op.json"] = np.array([1.0, 2.0])
    np.savez(again, **z)
    expect_refused(args.accel, cfg, again, ["op.json.npy", "bytes string"],
                   "op.json.npy that is no bytes string")

    # --- bf16 transpose by hand: bf16 as f32 members, guards around the output.
    x = (rng.uniform(-8, 8, 6).astype(np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)
    lo, hi = 2, 3
    guard = np.array([7.5, -1.0, 2.0, 3.0, 4.0], np.float32)
    before = np.concatenate([guard[:lo], np.zeros(6, np.float32), guard[lo:]])
    result = np.concatenate([guard[:lo], x.reshape(2, 3).T.ravel(), guard[lo:]])
    desc = json.loads(m["op.json"])
    desc.update(op="transpose", op_code=22, dtype="bf16", dtype_code=4, num_operands=2,
                m=2, n=3, lda=3, ldc=2, batch_count=1, offsets=[0, 9], counts=[6, 6],
                guard_before=lo, guard_after=hi, mismatch="made by hand")
    bf = [("input0.npy", npy_bytes(x)), ("output_before.npy", npy_bytes(before)),
          ("output_device.npy", npy_bytes(result)), ("output_reference.npy", npy_bytes(result)),
          ("scalars.npy", npy_bytes(np.zeros(4))), ("op.json", json.dumps(desc).encode())]
    bf16 = os.path.join(d, "bf16.npz")
    write_zip(bf16, bf)
    p = run([args.accel, "replay", bf16, "--config", cfg, "--device", "cpu"])
    check(p is not None and p.returncode == 0 and
          "reproduces the recorded one bit for bit (6 elements, 5 guard elements)" in p.stdout,
          f"bf16 transpose with guards replays bit for bit: {p and (p.stdout + p.stderr)[-400:]!r}")
    # The same with a guard the "device" changed: the recorded output differs.
    moved = result.copy()
    moved[-1] = 9.0
    write_zip(bf16, [(n, npy_bytes(moved)) if n == "output_device.npy" else (n, b) for n, b in bf])
    p = run([args.accel, "replay", bf16, "--config", cfg, "--device", "cpu"])
    check(p is not None and p.returncode == 0 and
          "differs from the recorded one (first at element 8 of the range)" in p.stdout,
          f"a recorded guard write is seen: {p and (p.stdout + p.stderr)[-400:]!r}")
    noisy = x.copy()
    noisy.view(np.uint32)[1] |= 1
    write_zip(bf16, [(n, npy_bytes(noisy)) if n == "input0.npy" else (n, b) for n, b in bf])
    expect_refused(args.accel, cfg, bf16, ["input0.npy", "element 1 is no bf16 value"],
                   "an f32 member that is no bf16")

    # --- hostile files.
    raw = open(src, "rb").read()
    h = os.path.join(d, "hostile.npz")

    def hostile(data, words, what):
        with open(h, "wb") as f:
            f.write(data)
        expect_refused(args.accel, cfg, h, words, what)

    hostile(raw[: len(raw) // 2], ["not a readable .npz (zip) archive"], "truncated to half")
    hostile(raw[:-5], ["not a readable .npz (zip) archive"], "truncated by 5 bytes")
    hostile(b"", ["not a readable .npz (zip) archive"], "empty file")
    # A flipped byte inside input0's data: the stored CRC no longer matches.
    with zipfile.ZipFile(src) as z:
        info = z.getinfo("input0.npy")
    at = info.header_offset + 30 + len(info.filename) + len(m["input0.npy"]) - 160 + 3
    flipped = bytearray(raw)
    flipped[at] ^= 0x40
    hostile(bytes(flipped), ["input0.npy", "CRC"], "wrong CRC")
    hostile(open(os.path.join(d, "multiply_a.npy"), "rb").read(),
            ["not a readable .npz (zip) archive"], "a .npy file")
    hostile(b"accel-repro 1\ndevice faulty:0\n", ["old text format"], "the old text format")

    def with_desc(**kw):
        dd = json.loads(m["op.json"])
        dd.update(kw)
        return [(n, json.dumps(dd).encode() if n == "op.json" else b) for n, b in m.items()]

    write_zip(h, with_desc(counts=[1 << 38] * 3))
    expect_refused(args.accel, cfg, h, ["more than this machine's", "memory"],
                   "counts of 2^38 elements (1 TiB)")
    write_zip(h, with_desc(counts=[1 << 52] * 3))
    expect_refused(args.accel, cfg, h, ["implausibly large"], "counts of 2^52 elements")
    write_zip(h, with_desc(counts=[41, 40, 40]))
    expect_refused(args.accel, cfg, h, ["input0.npy", "holds"], "input0 smaller than its count")
    write_zip(h, with_desc(offsets=[1 << 63, 0, 0]))
    expect_refused(args.accel, cfg, h, ["out of range", "at most 2^53"], "an offset of 2^63")
    write_zip(h, with_desc(offsets=[-1, 0, 0]))
    expect_refused(args.accel, cfg, h, ["is not a non-negative integer"], "a negative offset")
    write_zip(h, with_desc(version=3))
    expect_refused(args.accel, cfg, h, ["version 3"], "format version 3")
    write_zip(h, with_desc(seed=12))
    expect_refused(args.accel, cfg, h, ["\"seed\"", "decimal string"], "seed as a number")
    write_zip(h, with_desc(op_code=9999))
    expect_refused(args.accel, cfg, h, ["op_code 9999"], "unknown op")
    write_zip(h, with_desc(num_operands=2))
    expect_refused(args.accel, cfg, h, ["num_operands = 2"], "wrong operand count")
    write_zip(h, [(n, b"{\"format\": " if n == "op.json" else b) for n, b in m.items()])
    expect_refused(args.accel, cfg, h, ["hostile.npz: op.json is not valid JSON: line 1, column 12",
                                        "the text ends; expected a value"], "broken JSON")
    # Malformed op.json: the file, the line and column (Python's json module
    # agrees on where), what is there and what JSON has there.
    good = m["op.json"].decode()
    for bad, found, expected, what in (
            (good.replace('"version": 2', '"version" 2', 1), "found '2'", "':' after the key",
             "a missing ':'"),
            (good.replace('"version": 2', '"version": 2 "x": 1', 1), "found '\"'",
             "',' or '}'", "a missing ','"),
            (good.rstrip().rstrip("}") + ",}", "found '}'", 'a "key" in double quotes',
             "a trailing ','"),
            (good.replace('"version": 2', '"version": tru', 1), "found 't'", "a value",
             "a misspelt literal"),
            (good.rstrip().rstrip("}"), "the text ends", "',' or '}'", "a missing '}'")):
        try:
            json.loads(bad)
            where = None
        except json.JSONDecodeError as e:
            where = "line %d, column %d" % (e.lineno, e.colno)
        check(where is not None, f"Python's json.loads refuses op.json with {what}")
        write_zip(h, [(n, bad.encode() if n == "op.json" else b) for n, b in m.items()])
        expect_refused(args.accel, cfg, h, ["hostile.npz: op.json is not valid JSON: " +
                                            str(where), found + "; expected " + expected],
                       f"op.json with {what}")
    for kw, words, what in (
            (dict(format="accel-replay"), ['"format" is \'accel-replay\'; expected "accel-repro"'],
             "another format"),
            (dict(version="2"), ['"version" is a string; expected the repro format version 2'],
             "version as a string"),
            (dict(m=None), ['"m" is null; expected a non-negative integer'], "m as null"),
            (dict(counts=[40, 40]), ['"counts" is a list of 2 values; expected a list of 3'],
             "two counts"),
            (dict(device=7), ['"device" is a number; expected a device name'], "device as 7")):
        write_zip(h, with_desc(**kw))
        expect_refused(args.accel, cfg, h, words, "op.json: " + what)
    dd = json.loads(m["op.json"])
    del dd["lda"]
    write_zip(h, [(n, json.dumps(dd).encode() if n == "op.json" else b) for n, b in m.items()])
    expect_refused(args.accel, cfg, h, ['"lda" is missing; expected a non-negative integer'],
                   "op.json without lda")

    # --- op.json fields that disagree with each other or with the members.
    for kw, words, what in (
            (dict(dtype="f64"), ['"dtype"', "'f64'", '"dtype_code" 1 is f32'], "dtype name vs code"),
            (dict(op="add"), ['"op"', "'add'", '"op_code"'], "op name vs code"),
            (dict(counts=[39, 40, 40]), ["input0.npy", "counts[0]"], "counts[0] vs input0"),
            (dict(counts=[40, 40, 41]), ["output_before.npy", "counts[2]"], "counts[2] vs output"),
            (dict(guard_after=2), ["output_before.npy", "guard_after"], "guards vs output"),
            (dict(colour="red"), ['unknown key "colour"'], "an unknown key"),
            (dict(scalars=[1.5, 0, 0, 0]), ['"scalars"[0] is 1.5', "scalars.npy holds 0"],
             "scalars vs scalars.npy"),
            (dict(scalars=[0, 0, "zero", 0]), ['"scalars"[2] is not a number'], "a scalar word"),
            (dict(mismatch=3), ['"mismatch" is not a string'], "mismatch as a number"),
            (dict(verify_seed=5), ['"verify_seed"', "decimal string"], "verify_seed as a number")):
        write_zip(h, with_desc(**kw))
        expect_refused(args.accel, cfg, h, words, "op.json: " + what)
    text = m["op.json"].decode()
    dup = text.replace('"seed"', '"seed": "1",\n  "seed"', 1)
    # Python's json module takes the last of a repeated key, cJSON the first.
    check(json.loads(dup)["seed"] == json.loads(text)["seed"],
          "Python's json.loads takes the last of a repeated key")
    write_zip(h, [(n, dup.encode() if n == "op.json" else b) for n, b in m.items()])
    expect_refused(args.accel, cfg, h, ['key "seed" appears twice'], "op.json: a duplicate key")
    for tail, what in ((b"x", "a letter"), (b"\n{}", "a second object"), (b"\0", "a NUL byte")):
        bad = m["op.json"] + tail
        try:
            json.loads(bad)
            py_refuses = False
        except ValueError:
            py_refuses = True
        check(py_refuses, f"Python's json.loads refuses op.json followed by {what}")
        write_zip(h, [(n, bad if n == "op.json" else b) for n, b in m.items()])
        expect_refused(args.accel, cfg, h, ["op.json: text after the JSON object"],
                       f"op.json followed by {what}")
    write_zip(h, [(n, b + b" \r\n\t" if n == "op.json" else b) for n, b in m.items()])
    p = run([args.accel, "replay", h, "--config", cfg, "--device", "cpu"])
    check(p is not None and p.returncode == 0 and "bit for bit" in p.stdout,
          f"op.json followed by white space replays: {p and p.stderr[-300:]!r}")
    for extra, words, what in (
            (("notes.txt", b"hello"), ["member 'notes.txt' is none of a repro file's"],
             "an unknown member"),
            (("input2.npy", m["input1.npy"]), ["input2.npy", "mul has 2 inputs"],
             "input2 for an op of 2 inputs"),
            (("op.json.npy", npy_bytes(np.array(m["op.json"]))),
             ["both op.json and op.json.npy"], "both forms of op.json")):
        write_zip(h, list(m.items()) + [extra])
        expect_refused(args.accel, cfg, h, words, what)

    # --- bytes after the archive's end record: np.load reads such a file
    # (Python's zipfile ignores them), so replay does too, with a note; bytes
    # in front: np.load does not read it as .npz, so replay refuses it.
    for tail in (b"\0", b"trailing bytes\n" * 100, bytes(60000)):
        with open(h, "wb") as f:
            f.write(raw + tail)
        z = np.load(h)
        check(np.array_equal(z["input0"], np.load(src)["input0"]),
              f"np.load reads the file with {len(tail)} bytes appended")
        p = run([args.accel, "replay", h, "--config", cfg])
        check(p is not None and p.returncode == 1 and "bit for bit" in p.stdout and
              "element 20" in p.stdout and
              f"note: {len(tail)} bytes after the zip archive's end record are ignored" in p.stderr,
              f"{len(tail)} bytes appended: replayed, with a note: {p and p.stderr[-300:]!r}")
    with open(h, "wb") as f:
        f.write(b"#!/bin/sh\n" + raw)
    try:
        np.load(h)
        np_reads = True
    except Exception:
        np_reads = False
    check(not np_reads, "np.load does not read a .npz with bytes in front as .npz")
    expect_refused(args.accel, cfg, h, ["does not start with a zip member",
                                        "np.load would not read it"], "bytes in front")
    # A zip bomb: 64 MiB of deflated zeros (64 KiB) after input0's real
    # bytes, under input0's true size and CRC in the directory.
    good = m["input0.npy"]
    bomb = zlib.compressobj(9, zlib.DEFLATED, -15)
    blob = bomb.compress(good) + bomb.compress(bytes(64 << 20)) + bomb.flush()
    ents = [(n, b, len(b), zlib.crc32(b), 0) for n, b in m.items() if n != "input0.npy"]
    raw_zip(h, [("input0.npy", blob, len(good), zlib.crc32(good), 8)] + ents)
    check(os.path.getsize(h) < 1 << 20, f"the bomb is small ({os.path.getsize(h)} bytes)")
    expect_refused(args.accel, cfg, h, ["input0.npy"], "deflate bomb under a small declared size")
    # The same member declaring 3 GiB: not what op.json describes.
    raw_zip(h, [("input0.npy", blob, 3 << 30, zlib.crc32(good), 8)] + ents)
    expect_refused(args.accel, cfg, h, ["input0.npy", "holds 3221225472 bytes", "allows 170 to"],
                   "a member declaring 3 GiB")
    for bad in ("../input0.npy", "/etc/input0.npy", "sub/input0.npy", "..", "a\\b.npy"):
        write_zip(h, list(m.items()) + [(bad, b"x")])
        expect_refused(args.accel, cfg, h, ["not a plain file name"], f"member named {bad!r}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile's "Duplicate name"
        write_zip(h, list(m.items()) + [("input1.npy", m["input1.npy"])])
    expect_refused(args.accel, cfg, h, ["two members", "same name"], "duplicate member")
    write_zip(h, [(n, b) for n, b in m.items() if n != "output_reference.npy"])
    expect_refused(args.accel, cfg, h, ["output_reference.npy is missing"], "missing member")
    write_zip(h, [(n, npy_bytes(np.zeros(40)) if n == "input1.npy" else b) for n, b in m.items()])
    expect_refused(args.accel, cfg, h, ["input1.npy"], "input1 as f64 in an f32 op")
    fifo = os.path.join(d, "fifo.npz")
    os.mkfifo(fifo)
    expect_refused(args.accel, cfg, fifo, ["a FIFO"], "a FIFO")
    expect_refused(args.accel, cfg, d, ["a directory"], "a directory")

    print(f"repro_check: {len(failures)} failed")
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
