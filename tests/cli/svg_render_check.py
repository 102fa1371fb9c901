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
- the bar chart's tick labels carry every digit (1.5 and 2.5, never 2; 0.25
  steps print as 0.25, never 0.2), every 0.5 where the scale reaches 3;
- the size sweeps are there: a log-log plot per unit (GB/s, and TFLOP/s for
  GEMM) with a series per op and a dashed line per ceiling, series told apart
  by colour and dash together;
- no two texts overlap, and no text crosses a black line (the ceiling line,
  the target ticks): each text's box is estimated from its font size and
  character count (0.6 em a character, 0.7 bold: DejaVu Sans averages less;
  ascent 0.8 em, descent 0.2 em);
- the bars are the verdicts: each bar's tooltip, value and colour say the
  same PASS or MISS, with the same figure, as the text output's target line;
- the title names the accel version (accel --version) and the device;
- the faster peer from a bench/peers.py JSON (--peers; here two made-up
  peers of add f32, one far faster than accel, one far slower) is drawn, at
  the end of the scale (3, where the chart clips), and its figure (its time
  against this run's ceiling) is printed beside the bar.

usage: svg_render_check.py ACCEL_PROGRAM WORK_DIR"""
import copy
import json
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
    peers = os.path.join(work, "peers.json")
    # Every size accel bench --quick might pick: the chart matches device, op,
    # dtype and n, so only the measured size's row is drawn.
    rows = [{"op": "add", "dtype": "f32", "n": 1 << k, "peer": who, "peer_ms": ms}
            for k in range(8, 31) for who, ms in (("slowpeer", 1e9), ("fastpeer", 1e-6))]
    with open(peers, "w") as f:
        json.dump({"devices": [{"device": "cpu:0", "rows": rows}]}, f)
    out_json = os.path.join(work, "bench.json")
    r = subprocess.run([accel, "bench", "--quick", "--device", "cpu", "--no-progress", "--svg",
                        svg, "--json", out_json, "--peers", peers], capture_output=True,
                       text=True, timeout=240)
    sys.stderr.write(r.stderr)
    assert r.returncode == 0, "accel bench exited with %d" % r.returncode
    bench_json = json.load(open(out_json))

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
    # The made-up fast peer stretches the scale to 3, where labels every 0.25
    # would be too close: they go every 0.5 (the grid stays every 0.25).
    assert "0.5" in ticks and "1.5" in ticks and "2.5" in ticks and "3" in ticks, ticks
    assert "0.25" not in ticks, ticks
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
    # Within each sweep's frame, no two series share colour and dash, and
    # the dashes vary as much as the colours (not only the colours).
    frames = [el for el in root.findall(SVG + "rect") if el.get("stroke") == "#999"]
    assert len(frames) >= 2, "%d sweep frames" % len(frames)
    for fr in frames:
        y0, y1 = float(fr.get("y")), float(fr.get("y")) + float(fr.get("height"))
        mine = [el for el in lines
                if y0 - 1 <= float(el.get("points").split()[0].split(",")[1]) <= y1 + 1]
        styles = [(el.get("stroke"), el.get("stroke-dasharray")) for el in mine]
        assert len(set(styles)) == len(styles), "two series look alike: %s" % styles
        assert len({d for _, d in styles}) >= min(5, len(styles)), "dashes: %s" % styles
        assert len({c for c, _ in styles}) >= min(12, len(styles)), "colours: %s" % styles

    check_no_overlap(root, texts)
    version = subprocess.run([accel, "--version"], capture_output=True, text=True).stdout.split()[1]
    head = "".join(texts[0].itertext())
    assert head.startswith("accel %s bench: cpu:0 (" % version), (head, version)
    verdicts = check_verdicts(root, r.stdout)
    check_peer(root, bench_json)
    print("svg_render_check: ok (%gx%g, %d texts inside, none overlapping, %d series, %d ceiling "
          "lines, %d bars as their verdicts, the peer drawn)"
          % (w, h, len(texts), len(lines), len(dashed), verdicts))


def text_box(t):
    """(x0, y0, x1, y1) of a <text>, estimated from its font size and length."""
    fs = float(t.get("font-size", "12"))
    em = 0.7 if t.get("font-weight") == "bold" else 0.6
    width = len("".join(t.itertext())) * fs * em
    x, y = float(t.get("x")), float(t.get("y"))
    anchor = t.get("text-anchor", "start")
    x0 = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    return (x0, y - 0.8 * fs, x0 + width, y + 0.2 * fs)


def check_no_overlap(root, texts):
    boxes = [(text_box(t), "".join(t.itertext())) for t in texts]
    clash = []
    for i, (a, la) in enumerate(boxes):
        for b, lb in boxes[i + 1:]:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                clash.append("%r %s and %r %s" % (la, fmt(a), lb, fmt(b)))
    assert not clash, "%d pairs of texts overlap: %s" % (len(clash), "; ".join(clash))
    black = [el for el in root.findall(SVG + "line") if el.get("stroke") == "#000"]
    assert black, "no black lines (ceiling, target ticks)"
    for el in black:
        x1, y1, x2, y2 = (float(el.get(k)) for k in ("x1", "y1", "x2", "y2"))
        for b, label in boxes:
            if min(x1, x2) < b[2] and b[0] < max(x1, x2) and min(y1, y2) < b[3] and \
                    b[1] < max(y1, y2):
                clash.append("%r %s crosses the line (%g,%g)-(%g,%g)" % (label, fmt(b), x1, y1,
                                                                        x2, y2))
    assert not clash, "texts cross black lines: %s" % "; ".join(clash)


def fmt(box):
    return "(%.0f,%.0f)-(%.0f,%.0f)" % box


def check_verdicts(root, stdout):
    """Each bar's tooltip "op dtype / ceiling: figure VERDICT" against the
    text output's "PASS|MISS op dtype size / ceiling figure ..." line, and its
    colour against the verdict. Returns the number of bars with a verdict."""
    text = {}
    for m in re.finditer(r"^\s+(PASS|MISS) (.+?)\s+(-?[\d.]+) (?:>=|<=) ", stdout, re.M):
        verdict, name, figure = m.groups()
        if " / " not in name:
            continue
        left, ceiling = name.split(" / ", 1)
        op_dtype = left.rsplit(" ", 1)[0]  # drop the size
        text["%s / %s" % (op_dtype, ceiling)] = (verdict, float(figure))
    assert text, "no PASS/MISS lines in:\n" + stdout
    colours = {"PASS": "#2e7d32", "MISS": "#c62828"}
    n = 0
    for rect in root.findall(SVG + "rect"):
        title = rect.find(SVG + "title")
        if title is None or title.text.split()[-1] not in colours:
            continue
        key, rest = title.text.rsplit(": ", 1)
        figure, verdict = rest.split()
        assert key in text, "bar %r has no target line in the text output %s" % (key, text)
        assert (verdict, float(figure)) == (text[key][0], round(text[key][1], 3)), \
            "bar %r says %s %s, the text %s" % (key, verdict, figure, text[key])
        assert rect.get("fill") == colours[verdict], (key, verdict, rect.get("fill"))
        n += 1
    assert n >= 3, "only %d bars with a verdict" % n
    return n


def check_peer(root, bench_json):
    """The fast peer's diamond on the add f32 row at the end of the scale
    (its fraction is far above 3, where the chart clips), the slow one not
    drawn, and the fast one's figure printed: the row's fraction times
    accel's time over the peer's."""
    dev = [d for d in bench_json["devices"] if d["device"] == "cpu:0"][0]
    rows = [r for r in dev["results"] if r["op"] == "add" and r["dtype"] == "f32"]
    row = max(rows, key=lambda r: r["n"])
    diamonds = root.findall(SVG + "polygon")
    assert len(diamonds) == 1, "%d peer marks, expected 1" % len(diamonds)
    assert diamonds[0].find(SVG + "title").text == "fastpeer"
    ticks = {"".join(t.itertext()): float(t.get("x")) for t in root.findall(SVG + "text")
             if t.get("font-size") == "10"}
    x0, x1 = ticks["0"], ticks["1 = ceiling"]
    cx = float(diamonds[0].get("points").split()[0].split(",")[0])
    assert abs((cx - x0) / (x1 - x0) - 3.0) < 1e-3, (cx, x0, x1)
    want = row["fraction"] * row["median_ms"] / 1e-6
    values = ["".join(t.itertext()) for t in root.findall(SVG + "text")
              if "; fastpeer " in "".join(t.itertext())]
    assert len(values) == 1, values
    got = float(values[0].rsplit(" ", 1)[1])
    assert abs(got - want) <= 1e-4 * want, (got, want, row)


if __name__ == "__main__":
    main()
