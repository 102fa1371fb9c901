#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Smoke test of `accel bench` (tools/accel/bench.c), not a measurement: runs
`accel bench --quick --device cpu` with --json, --csv and --svg, and checks
that the JSON parses and holds ceilings, results and targets; that the CSV has
a header and rows of equal width; and that the SVG is well-formed XML with a
bar (<rect>) per charted op. No timing is asserted. --strict exits 3 exactly
when the JSON of its run holds a MISS (0 otherwise), still writing the
outputs; without it a MISS exits 0.

usage: bench_check.py ACCEL_PROGRAM WORK_DIR"""
import csv
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def main():
    accel, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    paths = {k: os.path.join(work, "bench." + k) for k in ("json", "csv", "svg")}
    for p in paths.values():
        if os.path.exists(p):
            os.remove(p)
    cmd = [accel, "bench", "--quick", "--device", "cpu", "--no-progress",
           "--json", paths["json"], "--csv", paths["csv"], "--svg", paths["svg"]]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    assert r.returncode == 0, "accel bench exited with %d" % r.returncode
    assert "PASS" in r.stdout or "MISS" in r.stdout, "no target lines in the table"

    with open(paths["json"]) as f:
        doc = json.load(f)
    assert doc["tool"] == "accel bench" and doc["quick"] is True
    devs = doc["devices"]
    assert len(devs) == 1 and devs[0]["device"] == "cpu:0", devs
    d = devs[0]
    c = d["ceilings"]
    for key in ("copy_gbs", "loop_gbs", "read_gbs", "launch_us"):
        assert isinstance(c[key], (int, float)) and c[key] > 0, (key, c[key])
    assert c["gemm_tflops"]["f32"] > 0 and c["gemm_tflops"]["f64"] > 0, c["gemm_tflops"]
    ops = {(x["op"], x["dtype"]) for x in d["results"]}
    for need in (("add", "f32"), ("sum", "f32"), ("dot", "f32"), ("gemm", "f32"), ("gemm", "f64")):
        assert need in ops, "missing result %s" % (need,)
    for x in d["results"]:
        assert x["median_ms"] > 0 and x["rate"] > 0, x
        if x["ceiling"] > 0:
            assert abs(x["fraction"] - x["rate"] / x["ceiling"]) <= 1e-3 * x["fraction"] + 1e-9, x
    assert d["dispatch_us"] > 0
    names = [t["name"] for t in d["targets"]]
    assert any(n.startswith("add f32") for n in names), names
    assert any(n.startswith("gemm f64") for n in names), names
    assert any(n.startswith("dispatch") for n in names), names
    for t in d["targets"]:
        assert t["pass"] == ((t["measured"] <= t["target"]) if t["compare"] == "<="
                             else (t["measured"] >= t["target"])), t

    with open(paths["csv"], newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][:3] == ["device", "kind", "name"], rows[0]
    assert all(len(row) == len(rows[0]) for row in rows), "ragged CSV"
    assert sum(1 for row in rows if row[1] == "result") == len(d["results"])
    assert sum(1 for row in rows if row[1] == "target") == len(d["targets"])

    tree = ET.parse(paths["svg"])  # raises on malformed XML
    root = tree.getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
    bars = root.findall("{http://www.w3.org/2000/svg}rect")
    charted = sum(1 for x in d["results"] if x["ceiling"] > 0)
    assert len(bars) >= 2, "no bars in the chart"
    assert any(not t["pass"] for t in d["targets"]) == ("MISS" in r.stdout)
    assert r.returncode == 0  # without --strict a MISS is no error

    strict_cases(accel, work)
    unwritable_outputs(accel, work)
    print("bench_check: ok (%d results, %d targets, %d svg rects, %d charted candidates)"
          % (len(d["results"]), len(d["targets"]), len(bars), charted))


def unwritable_outputs(accel, work):
    """An output that cannot be written is refused before any measurement:
    exit 1 at once, the reason on stderr, nothing on stdout, no file made."""
    cases = [("--json", os.path.join(work, "no", "such", "b.json"), "No such file or directory"),
             ("--svg", work, "Is a directory"),
             ("--csv", os.path.join(os.path.abspath(__file__), "x.csv"), "Not a directory")]
    for opt, path, why in cases:
        r = subprocess.run([accel, "bench", "--quick", "--device", "cpu", "--no-progress", opt,
                            path], capture_output=True, text=True, timeout=60)
        assert r.returncode == 1, "%s %s exited %d" % (opt, path, r.returncode)
        assert ("cannot write %s: %s" % (path, why)) in r.stderr, r.stderr
        assert "accel bench" not in r.stdout and "targets" not in r.stdout, (
            "%s %s: the bench ran before the output was refused: %s" % (opt, path, r.stdout[:200]))
    print("bench_check: %d unwritable outputs refused before measuring" % len(cases))


def strict_cases(accel, work):
    """--strict: exit 3 exactly when a target of the run's own JSON is a MISS
    (the outputs still written, stderr counting the misses), else 0; an error
    still exits 1 and a value given to it 2."""
    path = os.path.join(work, "strict.json")
    if os.path.exists(path):
        os.remove(path)
    r = subprocess.run([accel, "bench", "--quick", "--device", "cpu", "--no-progress", "--strict",
                        "--json", path], capture_output=True, text=True, timeout=240)
    with open(path) as f:
        targets = json.load(f)["devices"][0]["targets"]
    missed = sum(1 for t in targets if not t["pass"])
    want = 3 if missed else 0
    assert r.returncode == want, "--strict exited %d with %d of %d targets missed: %s" % (
        r.returncode, missed, len(targets), r.stderr)
    note = "accel bench: --strict: %d of %d targets missed" % (missed, len(targets))
    assert (note in r.stderr) == bool(missed), (note, r.stderr)
    assert "targets, this run's ratios" in r.stdout, "the table is printed under --strict too"
    print("bench_check: --strict exit %d (%d of %d targets missed)" % (r.returncode, missed,
                                                                       len(targets)))
    r = subprocess.run([accel, "bench", "--quick", "--device", "tpu:9", "--strict"],
                       capture_output=True, text=True, timeout=60)
    # A device that does not exist is a wrong command line, not a MISS.
    assert r.returncode == 2 and "--device tpu:9" in r.stderr, \
        "--strict with a device that does not exist: %d %s" % (r.returncode, r.stderr)
    r = subprocess.run([accel, "bench", "--strict=yes"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--strict takes no value" in r.stderr, r.stderr


if __name__ == "__main__":
    main()
