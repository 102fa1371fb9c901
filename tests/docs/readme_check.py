#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Checks of the README and the reference pages in docs/.

    readme_check.py docs SRC_DIR
        - every relative link of README.md, docs/*.md, bench/RESULTS.md and
          python/README.md leads to a file that exists, and an anchor
          (page.md#heading) to a heading of that page (GitHub's slugs);
        - every source path those pages name (core/ops/submit.c,
          include/accel/verify.h, ...: a word that starts with a top-level
          source folder) exists, so a file that moves cannot leave its old
          path behind in the docs;
        - README.md is under 15 KB (docs/ holds the reference), and its
          Layout block names every top-level folder of the source tree and
          every area folder of core/.

    readme_check.py tour SRC_DIR CC "CFLAGS" INCLUDE_DIR LIB_DIR PYTHON
        - the C block of README.md's "A first job" compiles with CC
          (-std=c11 -Wall -Wextra -Wpedantic -Werror) against this build's
          libaccel and prints what its comment says;
        - the Python blocks of README.md and python/README.md run (the
          package from PYTHONPATH, the library from ACCEL_LIBRARY) and print
          every result that a `print(...)  # [...]` comment shows.

Exit status 0 when every check passed, 1 otherwise; each check prints ok or
FAIL with the detail."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

FAILURES = []
README_LIMIT = 15000  # bytes: "under 15 KB" (STYLE.md: the front door)
# Top-level folders whose paths the pages name (a path that starts with one).
SOURCE_ROOTS = ("include", "core", "backends", "common", "mpi", "tools", "python",
                "examples", "tests", "bench", "fuzz", "cmake", "docs")
PATH_RE = re.compile(r"(?<![\w/.$-])((?:%s)/[\w./-]*[\w/])" % "|".join(SOURCE_ROOTS))
LINK_RE = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def check(name, cond, detail=""):
    print(("ok    " if cond else "FAIL  ") + name + ("" if cond else ": " + detail))
    if not cond:
        FAILURES.append(name)


def pages(src):
    out = [os.path.join(src, "README.md"), os.path.join(src, "bench", "RESULTS.md"),
           os.path.join(src, "python", "README.md")]
    docs = os.path.join(src, "docs")
    out += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return out


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation but - and _
    dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def check_links(src, page):
    rel = os.path.relpath(page, src)
    text = open(page, encoding="utf-8").read()
    for target in LINK_RE.findall(text):
        if re.match(r"^[a-z]+:", target):
            continue  # http:, https:, mailto:
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part \
            else page
        ok = os.path.exists(dest)
        check("%s: link %s leads to a file" % (rel, target), ok, dest)
        if ok and anchor:
            have = anchors(dest)
            check("%s: link %s leads to a heading" % (rel, target), anchor in have,
                  "headings of %s: %s" % (os.path.relpath(dest, src), sorted(have)))


def check_paths(src, page):
    rel = os.path.relpath(page, src)
    text = open(page, encoding="utf-8").read()
    text = re.sub(r"https?://\S+", "", text)
    seen = set()
    for path in PATH_RE.findall(text):
        path = path.rstrip(".")
        if path in seen:
            continue
        seen.add(path)
        check("%s: %s exists" % (rel, path), os.path.exists(os.path.join(src, path)),
              "no such file or folder in the source tree")


def top_folders(src):
    """Top-level folders of the source tree: git's tracked ones where git
    knows the tree, else the folders that are not hidden or build trees."""
    try:
        p = subprocess.run(["git", "-C", src, "ls-files"], capture_output=True, text=True,
                           timeout=60)
        files = p.stdout.split() if p.returncode == 0 else []
    except OSError:
        files = []
    if files:
        return sorted({f.split("/", 1)[0] for f in files if "/" in f})
    return sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))
                  and not d.startswith(".") and not d.startswith("build"))


def check_readme(src):
    path = os.path.join(src, "README.md")
    size = os.path.getsize(path)
    check("README.md is under 15 KB (%d bytes)" % size, size < README_LIMIT,
          "%d bytes: move reference text to docs/" % size)
    text = open(path, encoding="utf-8").read()
    parts = text.split("\n## Layout\n", 1)
    check("README.md has a Layout section", len(parts) == 2)
    if len(parts) != 2:
        return
    block = parts[1].split("```", 2)[1]
    named = set(re.findall(r"^\s*([\w./-]+/)", block, re.M))
    for folder in top_folders(src):
        check("README's Layout names %s/" % folder, any(n.startswith(folder + "/") for n in named),
              "named: %s" % sorted(named))
    core = os.path.join(src, "core")
    for area in sorted(os.listdir(core)):
        if os.path.isdir(os.path.join(core, area)):
            check("README's Layout names core/%s/" % area, "core/%s/" % area in named,
                  "named: %s" % sorted(named))


def docs_main(src):
    for page in pages(src):
        check_links(src, page)
        check_paths(src, page)
    check_readme(src)


def code_blocks(text, lang):
    return re.findall(r"^```%s\n(.*?)^```" % lang, text, re.M | re.S)


def tour_main(src, cc, cflags, include_dir, lib_dir, python):
    # The interpreter configured here may not exist where the build tree runs
    # (the GPU machine): then this one, which tests/accel_python.sh chose.
    python = python if os.path.exists(python) else sys.executable
    env = {k: v for k, v in os.environ.items() if k not in ("ACCEL_CONFIG", "ACCEL_BACKEND")}
    build_env = {k: v for k, v in env.items() if k != "LD_PRELOAD"}
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    tour = readme.split("\n## A first job\n", 1)
    check("README.md has the section 'A first job'", len(tour) == 2)
    if len(tour) != 2:
        return
    blocks = code_blocks(tour[1].split("\n## ", 1)[0], "c")
    check("'A first job' has one C block", len(blocks) == 1, "%d blocks" % len(blocks))
    with tempfile.TemporaryDirectory(prefix="accel_readme_") as tmp:
        if len(blocks) == 1:
            source = os.path.join(tmp, "first.c")
            open(source, "w").write(blocks[0])
            exe = os.path.join(tmp, "first")
            cmd = [cc] + shlex.split(cflags) + ["-std=c11", "-Wall", "-Wextra", "-Wpedantic",
                                                "-Werror", source, "-I" + include_dir, "-L" +
                                                lib_dir, "-laccel", "-Wl,-rpath," + lib_dir,
                                                "-o", exe]
            p = subprocess.run(cmd, capture_output=True, text=True, env=build_env, timeout=120)
            check("README's C block compiles with -Wall -Wextra -Wpedantic -Werror",
                  p.returncode == 0, p.stderr)
            if p.returncode == 0:
                p = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=120)
                m = re.search(r"^\s*printf\(.*/\* (.+?) \*/", blocks[0], re.M)
                want = m.group(1).strip() if m else None
                check("README's C block runs (exit 0)", p.returncode == 0, p.stderr)
                check("README's C block prints '%s'" % want,
                      want is not None and want in p.stdout.splitlines(),
                      "stdout %r" % p.stdout)
        for page in ("README.md", os.path.join("python", "README.md")):
            text = open(os.path.join(src, page), encoding="utf-8").read()
            code = "\n".join(code_blocks(text, "python"))
            check("%s has a Python example" % page, bool(code.strip()))
            # From a file, as a user runs a script: @cuda.jit reads its
            # function's source, which `python -c` does not keep.
            script = os.path.join(tmp, "readme_example.py")
            with open(script, "w", encoding="utf-8") as f:
                f.write(code + "\n")
            p = subprocess.run([python, script], capture_output=True, text=True, env=env,
                               cwd=tmp, timeout=300)
            check("%s: the Python example runs (exit 0)" % page, p.returncode == 0, p.stderr)
            lines = [l.strip() for l in p.stdout.splitlines()]
            for want in re.findall(r"^\s*print\(.*\)\s+# (\[.*\])\s*$", code, re.M):
                check("%s: the Python example prints %s" % (page, want), want in lines,
                      "stdout %r" % p.stdout[:2000])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "docs":
        docs_main(sys.argv[2])
    elif len(sys.argv) == 8 and sys.argv[1] == "tour":
        tour_main(*sys.argv[2:])
    else:
        sys.exit(__doc__)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
