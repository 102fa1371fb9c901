# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The OpenCL rows of one `accel bench --json` run as fractions of another
device's rows in the same run. Against a CUDA device: elementwise add and
sum f32 at 2^26 and more, and GEMM f32 at 4096 (every size both have, in a
--quick run), with the issue's targets checked: add and sum at least 0.9 of
the CUDA backend's bandwidth; the GEMM fraction (CLBlast over cuBLAS) is
stated, with no target; a row the CUDA device has and the OpenCL one lacks
(GEMM where CLBlast was not found) is named and makes the exit status 1.
Against any other device (the CPU backend, whose bench stops at 2^24 and
GEMM 1024): every add, sum and GEMM f32 size both have, ratios only.

usage: bench_ratio.py BENCH.json [DEVICE [BASE]]
  DEVICE  the device measured (default: the first opencl:N of the run)
  BASE    the device it is divided by (default: the first other one)
exit status: 0 the table was printed (a MISS too); 1 a device or the rows
are missing (the table is printed first); 2 the command line is wrong."""
import json
import sys

EW_TARGET = 0.9  # issue 29: add and sum at least 0.9 of CUDA's bandwidth
EW_MIN_N = 1 << 26
GEMM_N = 4096


def pick(devices, name, other=None):
    names = [d["device"] for d in devices]
    if name is None:
        cands = [n for n in names if n != other and (other or n.startswith("opencl:"))]
        if not cands:
            sys.exit(f"bench_ratio: no {'other device' if other else 'opencl device'} in "
                     f"the run (devices: {', '.join(names)})")
        name = cands[0]
    for d in devices:
        if d["device"] == name:
            return d
    sys.exit(f"bench_ratio: no device {name} in the run (devices: {', '.join(names)})")


def rates(dev):
    """(op, dtype, n) -> (rate, unit) of the sweep's rows."""
    return {(r["op"], r["dtype"], r["n"]): (r["rate"], r["unit"]) for r in dev["results"]}


def wanted(keys, every):
    """The (op, dtype, n) rows to compare, in table order (every: all sizes)."""
    rows = []
    for op in ("add", "sum"):
        rows += sorted(k for k in keys if k[:2] == (op, "f32") and (every or k[2] >= EW_MIN_N))
    rows += sorted(k for k in keys if k[:2] == ("gemm", "f32") and (every or k[2] == GEMM_N))
    return rows


def size(op, n):
    """Elementwise sizes as powers of two (2^26), GEMM's n as is (4096)."""
    return f"2^{n.bit_length() - 1}" if op != "gemm" and n & (n - 1) == 0 else str(n)


def main(argv):
    if len(argv) < 2 or len(argv) > 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        run = json.load(f)
    dev = pick(run["devices"], argv[2] if len(argv) > 2 else None)
    base = pick(run["devices"], argv[3] if len(argv) > 3 else None, other=dev["device"])
    a, b = rates(dev), rates(base)
    cuda = base["device"].startswith("cuda:")
    every = run.get("quick", False) or not cuda
    rows = wanted(a.keys() & b.keys(), every)
    # A row is lacking when the device has no row of its op at all (GEMM
    # without CLBlast); sizes that one sweep has and the other's does not
    # (a GPU's quick sweep beside a CPU's) are left out, not lacking.
    lacking = [k for k in wanted(b.keys(), every)
               if k not in a and not any(j[:2] == k[:2] for j in a)]
    if not rows:
        sys.exit(f"bench_ratio: {dev['device']} and {base['device']} have no add, sum or "
                 "GEMM f32 row in common")
    print(f"{dev['device']} ({dev['model']}) / {base['device']} ({base['model']})")
    print(f"{'op':5} {'dtype':5} {'n':>6} {dev['device']:>17} {base['device']:>17} "
          f"{'fraction':>8}  target")
    misses = 0
    for key in rows:
        (ra, unit), (rb, _) = a[key], b[key]
        frac = ra / rb if rb > 0 else float("nan")
        verdict = "of cuBLAS, stated (no target)" if cuda else "stated (no target)"
        if key[0] != "gemm" and cuda:
            ok = frac >= EW_TARGET
            misses += not ok
            verdict = f">= {EW_TARGET:.2f} {'PASS' if ok else 'MISS'}"
        elif key[0] != "gemm":
            verdict = "ratio (no target beside this device)"
        print(f"{key[0]:5} {key[1]:5} {size(key[0], key[2]):>6} {ra:9.4g} {unit:<7} "
              f"{rb:9.4g} {unit:<7} {frac:8.3f}  {verdict}")
    for key in lacking:
        why = " (GEMM falls back where CLBlast is not found: put libclblast.so.1 on the " \
              "library path)" if key[0] == "gemm" else ""
        print(f"{key[0]:5} {key[1]:5} {size(key[0], key[2]):>6} missing on {dev['device']}{why}")
    if cuda:
        print(f"{misses} of the add/sum rows below the {EW_TARGET:.2f} target")
    return 1 if lacking else 0


sys.exit(main(sys.argv))
