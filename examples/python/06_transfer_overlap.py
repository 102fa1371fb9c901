# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 6 (data transfer): fewer, larger transfers, and
asynchronous copies on streams overlapping with compute. N floats x and y:
copy in, add, copy out. As the tutorial does, the host arrays of the
overlapped run are page-locked (accel.empty_pinned, CuPy's
cupyx.empty_pinned): only then is a copy a DMA that runs while the host and
the other streams go on. Runs, each REPS times in alternating rounds,
medians printed:

- serial, pageable: NumPy arrays, whole, on the default stream (where the
  tutorial starts);
- serial, pinned: the same from page-locked arrays;
- overlapped: CHUNKS pieces over STREAMS streams; each chunk's copy in
  (accel.asarray inside ``with stream:``), add and copy out
  (get(stream=s, out=..., blocking=False)) run on its own stream while the
  other streams' chunks copy or compute; one synchronize at the end;
- copies alone and adds alone, with the same chunks and streams: the
  overlapped run can at best take max(copies, adds).

Checks (exit 1 on failure): both results equal x + y; on a GPU, the
overlapped run is faster than the serial run from NumPy memory (where the
tutorial starts). Measured on an H100 (2026-12-07, docs/performance.md):
serial 2.9-3.1 ms from NumPy memory, 2.3 ms pinned, overlapped 1.71 ms in 8
chunks (1.80 in 16), 1.01 of max(copies, adds): 1.71x the serial run from
NumPy memory and 1.33x the pinned one. (Before accel's memory pool kept a
freed block for the stream that used it, each chunk's new arrays took
another stream's blocks and waited for its work: 2.5 ms.) On the CPU
device copies and compute share the same cores: nothing overlaps, so there
the speed check is not made (the results still are)."""
import statistics
import time

import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(10_000_000, 1_000_000), chunks=(8, 8), streams=(4, 4),
                  reps=(7, 3))
rng = np.random.default_rng(6)
x = rng.random(args.n, dtype=np.float32)
y = rng.random(args.n, dtype=np.float32)
want = x + y
hx, hy = cp.empty_pinned(args.n, np.float32, dev), cp.empty_pinned(args.n, np.float32, dev)
hx[:], hy[:] = x, y
serial = np.empty_like(x)
out = cp.empty_pinned(args.n, np.float32, dev)
streams = [cp.Stream(dev) for _ in range(args.streams)]
step = (args.n + args.chunks - 1) // args.chunks
chunks = [(i, start, min(step, args.n - start)) for i, start in enumerate(range(0, args.n, step))]
resident = [(cp.asarray(x[a:a + m]), cp.asarray(y[a:a + m])) for _, a, m in chunks]


def run_serial():
    a, b = cp.asarray(x), cp.asarray(y)
    (a + b).get(out=serial)


def run_serial_pinned():
    a, b = cp.asarray(hx), cp.asarray(hy)
    (a + b).get(out=out)


def run_chunks(copies=True, adds=True):
    """The overlapped run; without `adds` the same copies (the chunk of x
    comes back in place of x + y), without `copies` the adds on chunks
    already on the device."""
    for (i, start, m), (dx, dy) in zip(chunks, resident):
        with streams[i % len(streams)] as s:
            if copies:
                dx, dy = cp.asarray(hx[start:start + m]), cp.asarray(hy[start:start + m])
            dz = dx + dy if adds else dx
            if copies:
                dz.get(stream=s, out=out[start:start + m], blocking=False)
    for s in streams:
        s.synchronize()


runs = {"serial, pageable": run_serial, "serial, pinned": run_serial_pinned,
        "overlapped": run_chunks, "copies alone": lambda: run_chunks(adds=False),
        "adds alone": lambda: run_chunks(copies=False)}
times = {name: [] for name in runs}
with dev:
    for fn in runs.values():
        fn()  # warm-up: device memory, the streams
    for r in range(args.reps):
        for name, fn in (list(runs.items()) if r % 2 == 0 else list(runs.items())[::-1]):
            dev.synchronize()
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    out[:] = 0
    run_chunks()

ms = {name: statistics.median(t) * 1e3 for name, t in times.items()}
for name, t in ms.items():
    print(f"{name + ':':18s} {t:8.3f} ms (median of {args.reps})")
bound = max(ms["copies alone"], ms["adds alone"])
print(f"overlapped over {args.streams} streams, {args.chunks} chunks: serial pageable / overlapped "
      f"{ms['serial, pageable'] / ms['overlapped']:.2f}, serial pinned / overlapped "
      f"{ms['serial, pinned'] / ms['overlapped']:.2f}, overlapped / max(copies, adds) "
      f"{ms['overlapped'] / bound:.2f} (1.00: perfect overlap)")
check(np.array_equal(serial, want) and np.array_equal(out, want), "both results equal x + y")
if dev.backend == "cpu":
    print("check: overlapped faster than serial: not made on the CPU (no copy engine: copies "
          "and compute share the cores)")
else:
    check(ms["overlapped"] < ms["serial, pageable"],
          "overlapped faster than the serial run from NumPy memory")
