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
  (from `accel info --list-devices`) and --size's values;
- for every command and every subcommand that a command's --help lists
  (`accel run eval`): a page accel-CMD-SUB.1 with every option, bash
  completing exactly the options of --help (no more, no fewer), and every
  option that a usage line of --help shows being one of that command's
  options;
- the list of commands in docs/cli.md and in README.md (the code block of
  each one's "The `accel` program" section) names every command and
  subcommand, and only options they have; its `accel bench` line shows
  every option of `accel bench --help`.

groff is a build dependency of the tests (Debian: groff-base).

usage: man_check.py ACCEL MAN_DIR COMPLETION_FILE [DOC.md ...]"""
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


def help_of(accel, cmd):
    return subprocess.run([accel] + (cmd.split() if cmd else []) + ["--help"],
                          capture_output=True, text=True).stdout


def listed_commands(helptext):
    """The words of the "commands:" block of a --help text."""
    if "\ncommands:\n" not in helptext:
        return []
    block = helptext.split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
    return [l.split()[0] for l in block.splitlines() if l.strip() and not l.startswith("     ")]


def all_commands(accel):
    """Every command, and every subcommand as "CMD SUB"."""
    out = []
    for cmd in listed_commands(help_of(accel, None)):
        out.append(cmd)
        out += ["%s %s" % (cmd, sub) for sub in listed_commands(help_of(accel, cmd))]
    return out


def options_of(helptext):
    """Long and short options of an options block: {"--output", "-o", ...}."""
    opts = set()
    block = helptext.split("\noptions:\n", 1)[1].split("\n\n", 1)[0]
    for m in re.finditer(r"^  (?:(-\w), )?\s*(--[a-z][a-z-]*)", block, re.M):
        opts.update(x for x in m.groups() if x)
    return opts


def usage_forms(helptext):
    """(command words, form text) of each line of the usage block."""
    forms = []
    for line in helptext.split("\n\n", 1)[0].splitlines():
        m = re.match(r"^(?:usage: |       )accel (.*)$", line)
        if m:
            forms.append(m.group(1))
        elif forms:
            forms[-1] += " " + line.strip()
    return forms


def pages(accel, man_dir):
    out = help_of(accel, None)
    commands = listed_commands(out)
    check("accel --help lists commands", len(commands) >= 6, out)
    commands = all_commands(accel)
    groff = shutil.which("groff")
    check("groff is installed (Debian: groff-base)", groff is not None)
    man = shutil.which("man")
    for cmd in [None] + commands:
        page = os.path.join(man_dir, "accel.1" if cmd is None else
                            "accel-%s.1" % cmd.replace(" ", "-"))
        label = os.path.basename(page)
        if not os.path.exists(page):
            check(label + " exists", False, page)
            continue
        if groff:
            rc, text, err = text_of([groff, "-man", "-Tutf8", "-ww", page])
            check(label + " renders with groff, no warning", rc == 0 and not err.strip(), err)
            helptext = help_of(accel, cmd)
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


def agreement(accel, comp, docs):
    """--help, completion, usage lines and the docs say the same options."""
    commands = all_commands(accel)
    check("accel run eval is a listed subcommand", "run eval" in commands, repr(commands))
    known = {c: options_of(help_of(accel, c)) for c in commands}
    top = options_of(help_of(accel, None))
    got = {w for w in complete(comp, accel, ["-"]) if w.startswith("-")}
    check("accel: completion offers exactly the program's options", got == top,
          "completion only: %s; --help only: %s" % (sorted(got - top), sorted(top - got)))
    for cmd in commands:
        opts = known[cmd]
        got = complete(comp, accel, cmd.split() + ["-"])
        check("accel %s: completion offers exactly the options of --help" % cmd,
              got == opts, "completion only: %s; --help only: %s"
              % (sorted(got - opts), sorted(opts - got)))
        for form in usage_forms(help_of(accel, cmd)):
            words = form.split()
            owner = " ".join(words[:2]) if " ".join(words[:2]) in known else words[0]
            extra = sorted(set(re.findall(r"(--[a-z][a-z-]*)", form)) - known[owner])
            check("accel %s --help: usage line of '%s' shows only its options" % (cmd, owner),
                  not extra, "%r shows %s" % (form, extra))
    root = os.path.commonpath(docs) if len(docs) > 1 else None
    for doc in docs:
        doc_commands(known, commands, doc, os.path.relpath(doc, root) if root else doc)


def doc_commands(known, commands, doc, name):
    """The command block (```sh) of a page's "The `accel` program" section."""
    text = open(doc).read()
    parts = text.split("# The `accel` program\n", 1)
    has = len(parts) == 2 and "```sh\n" in parts[1]
    check("%s has a section 'The `accel` program' with its commands" % name, has)
    if not has:
        return
    block = parts[1].split("```sh\n", 1)[1].split("```", 1)[0]
    seen = set()
    for line in block.splitlines():
        words = line.split("#", 1)[0].split()
        if len(words) < 2 or words[0] != "accel":
            continue
        owner = " ".join(words[1:3]) if " ".join(words[1:3]) in known else words[1]
        check("%s: 'accel %s' is a command" % (name, owner), owner in known, line)
        if owner not in known:
            continue
        seen.add(owner)
        extra = sorted(set(re.findall(r"(--[a-z][a-z-]*)", line)) - known[owner])
        check("%s: 'accel %s' shows only its options" % (name, owner), not extra,
              "%r shows %s" % (line, extra))
        if owner == "bench":  # the one a user copies whole: every option of --help
            longs = {o for o in known[owner] if o.startswith("--")} - {"--help"}
            missing = sorted(longs - set(re.findall(r"(--[a-z][a-z-]*)", line)))
            check("%s: 'accel bench' shows every option of --help" % name, not missing,
                  "%r lacks %s" % (line, missing))
    check("%s lists every command and subcommand" % name, seen == set(commands),
          "missing %s" % sorted(set(commands) - seen))


def main():
    accel, man_dir, comp = sys.argv[1:4]
    docs = sys.argv[4:]
    pages(accel, man_dir)
    completion(accel, comp)
    agreement(accel, comp, docs)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
