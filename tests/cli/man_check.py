#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The man pages and the bash completion that the build writes with
`accel --man` and `accel --completion` (tools/accel/cli_help.c,
cli_completion.c), from the tables --help prints:

- accel.1 and accel-COMMAND.1 exist for every command `accel --help` lists;
- groff renders each with no warning (-ww), and `man -l` renders it where
  man is installed; every option of `accel CMD --help` is in the rendered
  page, so the page cannot drift from --help;
- bash completes subcommands, options, the ops of `accel run`, device names
  (from `accel info --list-devices`) and --size's values.

groff is a build dependency of the tests (Debian: groff-base).

usage: man_check.py ACCEL MAN_DIR COMPLETION_FILE"""
import os
import re
import shutil
import subprocess
import sys

FAILURES = []


def check(name, cond, detail=""):
    print(("ok    " if cond else "FAIL  ") + name + ("" if cond else ": " + detail))
    if not cond:
        FAILURES.append(name)


def text_of(cmd):
    env = dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="0")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    return p.returncode, re.sub(".\b", "", p.stdout), p.stderr


def pages(accel, man_dir):
    out = subprocess.run([accel, "--help"], capture_output=True, text=True).stdout
    block = out.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    commands = [l.split()[0] for l in block.splitlines() if l.strip()]
    check("accel --help lists commands", len(commands) >= 6, out)
    groff = shutil.which("groff")
    check("groff is installed (Debian: groff-base)", groff is not None)
    man = shutil.which("man")
    for cmd in [None] + commands:
        page = os.path.join(man_dir, "accel.1" if cmd is None else "accel-%s.1" % cmd)
        label = os.path.basename(page)
        if not os.path.exists(page):
            check(label + " exists", False, page)
            continue
        if groff:
            rc, text, err = text_of([groff, "-man", "-Tutf8", "-ww", page])
            check(label + " renders with groff, no warning", rc == 0 and not err.strip(), err)
            helptext = subprocess.run([accel] + ([cmd] if cmd else []) + ["--help"],
                                      capture_output=True, text=True).stdout
            opts = set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", helptext, re.M))
            flat = text.replace("\u2010", "-").replace("\u2212", "-")
            missing = sorted(o for o in opts if o not in flat)
            check(label + " holds the %d options of --help" % len(opts), opts and not missing,
                  "missing " + ", ".join(missing))
        if man:
            rc, text, err = text_of([man, "-l", page])
            check(label + " renders with man -l", rc == 0 and "SYNOPSIS" in text, err)


def complete(completion, accel, words):
    """COMPREPLY of bash completion for the command line `words` (the last
    word is the one being completed)."""
    script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _accel; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    p = subprocess.run(["bash", "-c", script, "bash", completion, accel] + words,
                       capture_output=True, text=True, timeout=60)
    return set(p.stdout.split())


def completion(accel, path):
    check("the completion script exists", os.path.exists(path), path)
    if not os.path.exists(path):
        return
    got = complete(path, accel, ["re"])
    check("completes subcommands", got == {"replay"}, repr(got))
    got = complete(path, accel, [""])
    check("lists every subcommand", {"info", "run", "verify", "replay", "bench", "demo"} <= got,
          repr(got))
    got = complete(path, accel, ["run", "--de"])
    check("completes options", got == {"--device"}, repr(got))
    got = complete(path, accel, ["run", "mat"])
    check("completes the op of run", got == {"matmul"}, repr(got))
    got = complete(path, accel, ["run", "--device", ""])
    check("completes device names", "cpu:0" in got and "default" in got, repr(got))
    got = complete(path, accel, ["demo", "--size", "m"])
    check("completes fixed values", got == {"medium"}, repr(got))
    got = complete(path, accel, ["info", "--"])
    check("info's options", {"--json", "--device", "--config", "--list-devices"} <= got, repr(got))


def main():
    accel, man_dir, comp = sys.argv[1:4]
    pages(accel, man_dir)
    completion(accel, comp)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
