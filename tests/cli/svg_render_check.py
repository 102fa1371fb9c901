#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The chart of `accel bench --svg`, rendered: runs `accel bench --quick
--device cpu --svg`, then renders the picture with rsvg-convert (Debian
librsvg2-bin) and checks that

- no text runs outside the picture: each <text> element is rendered alone
  (with the root's font attributes) on a canvas with a wide margin round the
  picture, as EPS, whose %%BoundingBox is the ink's extent (cairo computes
  it from the glyphs drawn); that box must lie inside the picture;
- nothing else is drawn outside it either (the whole picture, without its
  white background, the same way);
- the bar chart's tick labels carry every digit (0.25 steps print as 0.25,
  1.25, never 1.2), and the scale reaches 1.25;
- the size sweeps are there: a log-log plot per unit (GB/s, and TFLOP/s for
  GEMM) with a series per op and a dashed line per ceiling.

usage: svg_render_check.py ACCEL_PROGRAM WORK_DIR"""
import copy
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
MARGIN = 400.0  # px of canvas round the picture, for ink that runs off it
SLACK = 1.5  # px: the EPS box is in whole points, rounded outward


def ink_box(root, work, name):
    """Ink extent of the SVG tree `root` in picture pixels (x0, y0, x1, y1),
    or None when nothing is drawn."""
    w, h = float(root.get("width")), float(root.get("height"))
    big = copy.deepcopy(root)
    big.set("width", "%g" % (w + 2 * MARGIN))
    big.set("height", "%g" % (h + 2 * MARGIN))
    big.set("viewBox", "%g %g %g %g" % (-MARGIN, -MARGIN, w + 2 * MARGIN, h + 2 * MARGIN))
    src = os.path.join(work, name + ".svg")
    eps = os.path.join(work, name + ".eps")
    ET.ElementTree(big).write(src, encoding="utf-8", xml_declaration=True)
    r = subprocess.run(["rsvg-convert", "-f", "eps", "-o", eps, src], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, "rsvg-convert failed on %s: %s" % (src, r.stderr)
    with open(eps, "rb") as f:
        head = f.read(4096).decode("latin-1")
    m = re.search(r"%%BoundingBox: (-?\d+) (-?\d+) (-?\d+) (-?\d+)", head)
    assert m, "no %%BoundingBox in " + eps
    x0, y0, x1, y1 = (float(v) / 0.75 for v in m.groups())  # pt -> px (96 dpi)
    if x1 <= x0 or y1 <= y0:
        return None
    page_h = h + 2 * MARGIN
    # EPS y grows upwards from the page's bottom edge.
    return (x0 - MARGIN, page_h - y1 - MARGIN, x1 - MARGIN, page_h - y0 - MARGIN)


def inside(box, w, h):
    x0, y0, x1, y1 = box
    return x0 >= -SLACK and y0 >= -SLACK and x1 <= w + SLACK and y1 <= h + SLACK


def main():
    accel, work = sys.argv[1], sys.argv[2]
    assert shutil.which("rsvg-convert"), \
        "rsvg-convert not found: install Debian's librsvg2-bin (tools/quickstart.sh does)"
    os.makedirs(work, exist_ok=True)
    svg = os.path.join(work, "bench.svg")
    if os.path.exists(svg):
        os.remove(svg)
    r = subprocess.run([accel, "bench", "--quick", "--device", "cpu", "--no-progress", "--svg",
                        svg], capture_output=True, text=True, timeout=240)
    sys.stderr.write(r.stderr)
    assert r.returncode == 0, "accel bench exited with %d" % r.returncode

    root = ET.parse(svg).getroot()
    w, h = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == "0 0 %g %g" % (w, h), root.get("viewBox")

    # Every text on its own: the root with that one child.
    texts = [el for el in root if el.tag == SVG + "text"]
    assert len(texts) > 40, "only %d texts in the chart" % len(texts)
    outside = []
    for i, t in enumerate(texts):
        one = copy.deepcopy(root)
        for child in list(one):
            one.remove(child)
        one.append(copy.deepcopy(t))
        box = ink_box(one, work, "text%03d" % i)
        label = "".join(t.itertext())
        assert box is not None, "text %r draws nothing" % label
        if not inside(box, w, h):
            outside.append("%r at (%.0f, %.0f)-(%.0f, %.0f)" % ((label,) + box))
    assert not outside, "%d texts run outside the %gx%g picture: %s" % (
        len(outside), w, h, "; ".join(outside))

    # The whole picture without its white background.
    whole = copy.deepcopy(root)
    bg = [el for el in whole if el.tag == SVG + "rect" and el.get("fill") == "white"]
    assert bg, "no white background rect"
    whole.remove(bg[0])
    box = ink_box(whole, work, "whole")
    assert box is not None and inside(box, w, h), "ink outside the picture: %r" % (box,)

    # Tick labels of the bar chart: 0, 0.25, 0.5, 0.75, 1 = ceiling, 1.25, ...
    ticks = ["".join(t.itertext()) for t in texts if t.get("font-size") == "10"]
    assert "0.25" in ticks and "0.75" in ticks and "1.25" in ticks, ticks
    assert "1 = ceiling" in ticks, ticks
    assert "1.2" not in ticks and "0.8" not in ticks, "a tick label lost a digit: %s" % ticks

    # The sweeps: titles, a polyline per series, dashed ceilings.
    titles = ["".join(t.itertext()) for t in texts]
    assert any("GB/s) against size, log-log" in s for s in titles), titles
    assert any("GEMM (TFLOP/s) against size, log-log" in s for s in titles), titles
    lines = root.findall(SVG + "polyline")
    assert len(lines) >= 12, "%d series polylines" % len(lines)  # 11 memory-bound ops + GEMM
    dashed = [el for el in root.findall(SVG + "line") if el.get("stroke-dasharray")]
    assert len(dashed) >= 3, "%d dashed ceiling lines" % len(dashed)  # copy, read, GEMM f32/f64
    print("svg_render_check: ok (%gx%g, %d texts inside, %d series, %d ceiling lines)"
          % (w, h, len(texts), len(lines), len(dashed)))


if __name__ == "__main__":
    main()
