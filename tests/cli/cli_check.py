#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The `accel` program's command line and messages (tools/accel):

- every subcommand (and the program) takes --help (exit 0, text on stdout),
  refuses an unknown option with exit 2 and a message naming it, takes
  -oVALUE, --name=VALUE and unambiguous prefixes (--dev), and names the
  candidates of an ambiguous one;
- `accel --help` and `accel info --json` list every ACCEL_* variable that
  core/, backends/ and tools/ read
  (found with a grep of getenv and of config.c's env() in the source, so a
  new one cannot be missed);
  `bench --help` names no file of the source tree;
- `accel info --json` parses with the json module and holds the versions, the
  config, every candidate backend (path, loaded, reason) and every device;
  `--device cpu` keeps one device; with a configuration where nothing loads,
  both views list every candidate with its reason and exit 1; its
  "collectives" (libaccel_mpi built or not, with the MPI library's version,
  each device's transport) agree with CMake, mpiexec --version and the text;
- `accel run` on a device that falls back names the device that ran the op;
  `accel verify --seed` refuses -1, 2^64 and garbage; `verify --plugin` with
  an insecure plugin gives advice that applies (no plugins.ini key); `accel
  replay` says why the op failed; `accel demo` calls a device of kind OTHER
  "other", not "CPU";
- `accel bench` refuses a device named twice, and an unknown or malformed one
  with the known devices (exit 2); `accel info --config` of a missing file or
  a syntax error exits 1 naming the path and the reason.

usage: cli_check.py ACCEL SOURCE_DIR PLUGIN_DIR CPU_PLUGIN WORK_DIR"""
import json
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import zipfile

FAILURES = []


def check(name, cond, detail=""):
    print(("ok    " if cond else "FAIL  ") + name + ("" if cond else ": " + detail))
    if not cond:
        FAILURES.append(name)


def run(accel, *args, env=None):
    e = dict(os.environ)
    for k in ("ACCEL_CONFIG", "ACCEL_BACKEND", "ACCEL_VERIFY", "ACCEL_REPORT", "ACCEL_TRACE"):
        e.pop(k, None)
    e.update(env or {})
    p = subprocess.run([accel, *args], capture_output=True, text=True, timeout=120, env=e)
    # Under the debug-asan preset a sanitizer report fails the check that ran it.
    if "ERROR: AddressSanitizer" in p.stderr or "ERROR: LeakSanitizer" in p.stderr or \
            "runtime error:" in p.stderr:
        check("no sanitizer report from accel " + " ".join(args), False, p.stderr[-2000:])
    return p.returncode, p.stdout, p.stderr


def known_devices(err):
    """The device names after "known devices: " in an error message (cpu:0
    here; cuda:0, cpu:0 on the GPU machine), as a list."""
    m = re.search(r"known devices: ([^(\n]*)", err)
    return [d.strip() for d in m.group(1).split(",")] if m else []


def write_ini(path, body):
    with open(path, "w") as f:
        f.write(body)
    os.chmod(path, 0o644)


def options_of(accel, cmd):
    """The long options a command's --help lists."""
    _, out, _ = run(accel, *(cmd + ["--help"]))
    return sorted(set(re.findall(r"^\s+(?:-\w, )?--([a-z][a-z-]*)", out, re.M)))


def parsing_cases(accel, work):
    commands = ["info", "run", "verify", "replay", "bench", "demo"]
    for cmd in [[]] + [[c] for c in commands] + [["run", "eval"]]:
        label = " ".join(["accel"] + cmd)
        rc, out, err = run(accel, *(cmd + ["--help"]))
        check(label + " --help exits 0 with text", rc == 0 and "usage: accel" in out, err)
        rc, _, err = run(accel, *(cmd + ["--bogus"]))
        check(label + " --bogus is a usage error", rc == 2 and "--bogus" in err, "%d %r" % (rc, err))
        rc, _, err = run(accel, *(cmd + ["-Z"]))
        check(label + " -Z is a usage error", rc == 2 and "-Z" in err, "%d %r" % (rc, err))
    rc, _, err = run(accel, "help", "nosuch")
    check("accel help nosuch", rc == 2 and "nosuch" in err, err)
    rc, out, _ = run(accel, "help", "run")
    check("accel help run", rc == 0 and "usage: accel run" in out)
    rc, out, _ = run(accel, "help", "run", "eval")
    _, direct, _ = run(accel, "run", "eval", "--help")
    check("accel help run eval is accel run eval --help", rc == 0 and out == direct and
          out.startswith("usage: accel run eval"), out)
    rc, _, err = run(accel, "help", "run", "nosuch")
    check("accel help run nosuch", rc == 2 and "nosuch" in err, err)
    rc, _, err = run(accel, "info", "--json=yes")
    check("a value given to a flag", rc == 2 and "takes no value" in err, err)
    rc, _, err = run(accel, "bench", "--c", "x")
    check("an ambiguous prefix names the candidates", rc == 2 and "--config" in err and "--csv" in err, err)
    rc, _, err = run(accel, "run", "add", "--device")
    check("a missing value", rc == 2 and "needs a value" in err, err)

    import numpy as np
    a, b = os.path.join(work, "a.npy"), os.path.join(work, "b.npy")
    np.save(a, np.arange(7, dtype=np.float32))
    np.save(b, np.full(7, 0.5, dtype=np.float32))
    out = os.path.join(work, "c.npy")
    for form in (["-o" + out], ["--output=" + out], ["--out", out], ["-o", out]):
        if os.path.exists(out):
            os.remove(out)
        rc, _, err = run(accel, "run", "add", a, b, *form, "--dev", "cpu")
        ok = rc == 0 and os.path.exists(out) and np.array_equal(np.load(out), np.arange(7) + 0.5)
        check("run add with " + " ".join(form[:1]) + " and --dev", ok, err)
    # --report counts the user's op once; --verify's CPU run is not one of them.
    for extra, note in (([], False), (["--verify"], True)):
        rc, _, err = run(accel, "run", "add", a, b, "-o", out, "--device", "cpu", "--report",
                         *extra)
        rows = re.findall(r"^  add +cpu:0 +(\d+) +0 cpu:0", err, re.M)
        check("run add --report %s: the add counted once" % " ".join(extra),
              rc == 0 and rows == ["1"] and
              ("not counted: the --verify run of add on cpu:0" in err) == note, err)


def help_cases(accel, source):
    names = set()
    for root in ("core", "backends", "tools", "common"):
        for dirpath, _, files in os.walk(os.path.join(source, root)):
            for fn in files:
                if fn.endswith(".c"):
                    with open(os.path.join(dirpath, fn), errors="replace") as f:
                        names |= set(re.findall(
                            r'\b(?:secure_getenv|getenv|env|env_bool|accel__env_bool)\('
                            r'(?:cfg, )?"(ACCEL_[A-Z_]+)"', f.read()))
    _, out, _ = run(accel, "--help")
    missing = sorted(n for n in names if n not in out)
    check("accel --help lists the %d variables read (%s)" % (len(names), ", ".join(sorted(names))),
          len(names) >= 7 and not missing, "missing " + ", ".join(missing))
    _, out, _ = run(accel, "info", "--json")
    shown = set(json.loads(out or "{}").get("environment", {}))
    check("accel info --json shows the variables read", names <= shown,
          "not shown: " + ", ".join(sorted(names - shown)))
    _, out, _ = run(accel, "bench", "--help")
    check("bench --help names no source file", not re.search(r"\w+/\w+\.(md|c|h|py)\b", out), out)


def info_cases(accel, plugin_dir, cpu_plugin, work):
    rc, out, err = run(accel, "info", "--json")
    doc = json.loads(out)
    check("info --json exits 0", rc == 0, err)
    for key in ("accel_version", "libaccel_version", "config", "environment", "backends",
                "devices", "default_device", "compilers", "caches"):
        check("info --json has " + key, key in doc)
    cpu = [b for b in doc["backends"] if b["name"] == "cpu"]
    check("the cpu backend is loaded with its path", cpu and cpu[0]["loaded"] and
          os.path.isabs(cpu[0]["path"]), repr(cpu))
    devs = {d["name"]: d for d in doc["devices"]}
    check("cpu:0 with properties", "cpu:0" in devs and devs["cpu:0"]["kind"] == "CPU" and
          devs["cpu:0"]["memory_total_bytes"] > 0 and "f32" in devs["cpu:0"]["dtypes"], repr(devs))
    # The CPU's kernel compiler: cc or the embedded tcc, by a path that is an
    # executable file; the text view says the same.
    kc = devs.get("cpu:0", {}).get("kernel_compiler", "")
    m = re.match(r"^(cc|tcc) (/\S+)$", kc)
    check("info --json names cpu:0's kernel compiler by an executable path",
          m and os.path.isfile(m.group(2)) and os.access(m.group(2), os.X_OK), repr(kc))
    _, text, _ = run(accel, "info", "--device", "cpu")
    check("info names the kernel compiler", ("    kernel compiler:     %s\n" % kc) in text, text)
    rc, out, _ = run(accel, "info", "--json", "--device", "cpu")
    check("info --json --device cpu keeps one device",
          rc == 0 and [d["name"] for d in json.loads(out)["devices"]] == ["cpu:0"], out)
    rc, _, err = run(accel, "info", "--device", "tpu:3")
    check("info --device of no device: a usage error (exit 2)", rc == 2 and "tpu:3" in err, err)
    check("info --json has format_version 1", doc.get("format_version") == 1, repr(doc)[:200])
    rc, out, _ = run(accel, "info", "--list-devices")
    check("info --list-devices", rc == 0 and "cpu:0" in out.split(), out)

    # Nothing loads: both candidates with their reasons, in both views.
    ini = os.path.join(work, "none.ini")
    write_ini(ini, "[runtime]\norder = ghost, broken\n[backend.ghost]\nlibrary = %s\n"
              "[backend.broken]\nlibrary = %s\n" % (os.path.join(work, "no_such.so"),
                                                    os.path.join(plugin_dir, "libaccel_test_init_fail.so")))
    rc, out, err = run(accel, "info", "--config", ini)
    check("info with nothing loaded exits 1", rc == 1, err)
    check("info with nothing loaded prints the table of candidates",
          "ghost: NOT LOADED" in out and "broken: NOT LOADED" in out and out.count("reason:") == 2,
          out)
    rc, out, _ = run(accel, "info", "--config", ini, "--json")
    doc = json.loads(out)
    names = [b["name"] for b in doc["backends"]]
    check("info --json with nothing loaded lists the candidates",
          rc == 1 and names == ["ghost", "broken"] and all(b["reason"] for b in doc["backends"]) and
          doc["devices"] == [] and doc["error"], out)


def bad_input_cases(accel, work):
    """`accel bench --device`: a device named twice (also as "cpu" and
    "cpu:0"), an unknown one and a malformed one are usage errors (exit 2)
    naming it, the last two with the known devices. `accel info --config` of a
    missing file or of one with a syntax error: exit 1, the path and the
    reason on stderr, and no table with an unknown config on stdout."""
    for names in (["cpu:0", "cpu:0"], ["cpu", "cpu:0"]):
        args = [w for n in names for w in ("--device", n)]
        rc, out, err = run(accel, "bench", *args, "--quick", "--no-progress")
        check("bench --device %s --device %s refused" % tuple(names),
              rc == 2 and "--device %s names cpu:0 again" % names[1] in err and out == "",
              "%d %r %r" % (rc, out[-300:], err))
    for bad, why in (("tpu:0", "no device 'tpu:0'"), ("cpu:x", "'cpu:x' has a malformed index")):
        rc, out, err = run(accel, "bench", "--device", bad, "--quick", "--no-progress")
        check("bench --device %s: exit 2, the reason and the known devices" % bad,
              rc == 2 and "--device %s: " % bad in err and why in err and
              known_devices(err).count("cpu:0") == 1 and out == "", "%d %r" % (rc, err))
    # Two outputs to one file: refused before anything runs (one output was lost).
    same = os.path.join(work, "same.out")
    for a, b in (("--json", "--csv"), ("--csv", "--svg"), ("--json", "--svg")):
        rc, out, err = run(accel, "bench", a, same, b, same, "--quick", "--no-progress")
        check("bench %s X %s X: exit 2 naming both" % (a, b),
              rc == 2 and "%s and %s name the same file" % tuple(sorted((a, b), key=[
                  "--json", "--csv", "--svg"].index)) in err and not os.path.exists(same),
              "%d %r" % (rc, err))

    # Every subcommand: a --device of no device is a usage error (exit 2)
    # naming it and listing the known devices (replay: in message_cases,
    # which makes a repro file).
    import numpy as np
    a = os.path.join(work, "dev_a.npy")
    np.save(a, np.arange(4, dtype=np.float32))
    for cmd in (["info"], ["run", "add", a, a, "-o", os.path.join(work, "dev_c.npy")],
                ["run", "eval", "x + 1", "x=" + a, "-o", os.path.join(work, "dev_e.npy")],
                ["verify", "--quick"], ["demo", "--quick"], ["bench", "--quick", "--no-progress"]):
        rc, out, err = run(accel, *cmd, "--device", "tpu:0")
        check("%s --device tpu:0: exit 2 naming it and the known devices" % " ".join(cmd[:2]),
              rc == 2 and "--device tpu:0: " in err and "cpu:0" in known_devices(err),
              "%d %r" % (rc, err))

    syntax = os.path.join(work, "syntax.ini")
    write_ini(syntax, "[runtime\norder = cpu\n")
    missing = os.path.join(work, "no_such_dir", "none.ini")
    for path, why in ((missing, "No such file or directory"),
                      (syntax, "section header '[runtime' has no closing ']'")):
        for extra in ([], ["--list-devices"]):
            rc, out, err = run(accel, "info", "--config", path, *extra)
            check("info --config %s %s: exit 1 naming the path and why" %
                  (os.path.basename(path), " ".join(extra)),
                  rc == 1 and path in err and why in err and "(unknown)" not in out and
                  out == "", "%d %r %r" % (rc, out, err))
        rc, out, err = run(accel, "info", "--config", path, "--json")
        doc = json.loads(out or "{}")
        check("info --config %s --json: exit 1, the reason in error" % os.path.basename(path),
              rc == 1 and doc.get("config") is None and path in doc.get("error", "") and
              why in doc.get("error", ""), "%d %r" % (rc, out[-400:]))


def cache_cases(accel, work):
    """`accel info --json`'s "caches": the user kernels' cache as the text view
    says it (folder, or memory only and why), for ACCEL_KERNEL_CACHE set to a
    folder and to off."""
    folder = os.path.join(work, "kcache")
    for env, enabled in (({"ACCEL_KERNEL_CACHE": folder}, True),
                         ({"ACCEL_KERNEL_CACHE": "off"}, False)):
        _, out, _ = run(accel, "info", "--json", env=env)
        caches = json.loads(out)["caches"]
        _, text, _ = run(accel, "info", env=env)
        line = [l for l in text.splitlines() if l.startswith("kernel cache: ")]
        c = caches[0] if len(caches) == 1 else {}
        shown = ("kernel cache: " + str(c.get("dir")) if enabled else
                 "kernel cache: memory only (%s)" % c.get("disabled_reason"))
        check("info --json caches with ACCEL_KERNEL_CACHE=%s" % env["ACCEL_KERNEL_CACHE"],
              c.get("name") == "kernels" and c.get("disk_enabled") is enabled and
              (c.get("dir") == folder if enabled else c.get("dir") is None) and
              c.get("misses") == 0 and line == [shown], "%r vs %r" % (caches, line))


def collective_cases(accel, cpu_plugin, work):
    """`accel info` on collectives: libaccel_mpi next to libaccel (CMake says
    whether it was built), the MPI library's version against `mpiexec
    --version`, each device's transport as accel/mpi.h defines it; a copy of
    the program and libaccel without libaccel_mpi says so in both views."""
    built = os.environ.get("ACCEL_TEST_MPI_BUILT") == "1"
    rc, out, err = run(accel, "info", "--json")
    col = json.loads(out).get("collectives", {})
    mpi = col.get("mpi", {})
    check("info --json has collectives.mpi and collectives.devices",
          rc == 0 and "built" in mpi and "devices" in col, out[-800:])
    check("collectives.mpi.built is %s, as CMake built libaccel_mpi" % built,
          mpi.get("built") == built and
          (not built or os.path.exists(mpi.get("library") or "")), repr(mpi))
    if built:
        # mpiexec: what CMake found MPI by (FindMPI's MPIEXEC_EXECUTABLE)
        launcher = shutil.which("mpiexec") or shutil.which("mpirun")
        ver = subprocess.run([launcher, "--version"], capture_output=True,
                             text=True).stdout if launcher else "no mpiexec on PATH"
        m = re.search(r"(\d+\.\d+\.\d+)", ver)
        check("collectives.mpi names the MPI library mpiexec --version names",
              m and m.group(1) in (mpi.get("mpi_library") or "") and
              re.fullmatch(r"[1-9]\.\d", mpi.get("mpi_version") or ""),
              "%r vs %r" % (ver[:200], mpi))
    devs = {d["name"]: d for d in col.get("devices", [])}
    names = [d["name"] for d in json.loads(run(accel, "info", "--json")[1])["devices"]]
    check("collectives list every device", sorted(devs) == sorted(names), repr(devs))
    cpu = devs.get("cpu:0", {})
    check("cpu:0: host memory, transport mpi",
          cpu.get("host_memory") is True and cpu.get("nccl") is False and
          cpu.get("transport") == ("mpi" if built else None), repr(cpu))
    for d in devs.values():
        if d.get("host_memory") is False:
            want = ("nccl" if d["nccl"] else "mpi-staged") if built else None
            check("%s: transport %s, NCCL version iff NCCL" % (d["name"], want),
                  d["transport"] == want and (d["nccl_version"] is not None) == d["nccl"] and
                  d["reason"], repr(d))
    # ACCEL_MPI_NCCL=0 (read by libaccel_mpi): every GPU stages.
    _, out, _ = run(accel, "info", "--json", env={"ACCEL_MPI_NCCL": "0"})
    off = json.loads(out)
    check("ACCEL_MPI_NCCL=0 is in the environment shown",
          off["environment"].get("ACCEL_MPI_NCCL") == "0", repr(off["environment"]))
    for d in off["collectives"]["devices"]:
        if d["host_memory"] is False and built:
            check("%s with ACCEL_MPI_NCCL=0: mpi-staged" % d["name"],
                  d["transport"] == "mpi-staged" and
                  (not d["nccl"] or "ACCEL_MPI_NCCL=0" in d["reason"]), repr(d))
    # ACCEL_MPI_NCCL=maybe: no boolean, which accel_comm_create refuses; info
    # says so for every device (and "FALSE" reads as 0, any case).
    for word, refused in (("maybe", True), ("FALSE", False)):
        _, out, _ = run(accel, "info", "--json", env={"ACCEL_MPI_NCCL": word})
        for d in json.loads(out)["collectives"]["devices"] if built else []:
            says = "ACCEL_MPI_NCCL=%s is not a boolean" % word in d["reason"]
            check("%s with ACCEL_MPI_NCCL=%s: %s" % (d["name"], word,
                                                      "refused" if refused else "taken"),
                  says == refused and (d["transport"] is None) == refused, repr(d))
        if built and refused:
            text = run(accel, "info", env={"ACCEL_MPI_NCCL": word})[1]
            check("info's text: cpu:0 transport none, ACCEL_MPI_NCCL=maybe refused",
                  re.search(r"cpu:0: transport none: ACCEL_MPI_NCCL=maybe is not a boolean",
                            text), text[-600:])
    check("no GPU: collectives.nccl_reason says why",
          any(d.get("host_memory") is False for d in devs.values()) or col.get("nccl_reason"),
          repr(col))
    rc, text, _ = run(accel, "info")
    block = text.split("\ncollectives:\n", 1)[-1]
    check("info's text shows the same collectives",
          ("libaccel_mpi built" in block) == built and
          (not built or mpi["mpi_library"] in block) and
          "cpu:0: transport %s" % ("mpi" if built else "none") in block, block)

    # The program and libaccel alone: no libaccel_mpi next to them.
    top = os.path.join(work, "no_mpi")
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(os.path.join(top, "bin"))
    os.makedirs(os.path.join(top, "lib"))
    shutil.copy(accel, os.path.join(top, "bin", "accel"))
    libdir = os.path.join(os.path.dirname(os.path.dirname(accel)), "lib")
    for fn in os.listdir(libdir):
        if fn.startswith("libaccel.so"):
            shutil.copy(os.path.join(libdir, fn), os.path.join(top, "lib", fn))
    ini = os.path.join(work, "cpu_only.ini")
    write_ini(ini, "[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n" % cpu_plugin)
    lone = os.path.join(top, "bin", "accel")
    rc, out, err = run(lone, "info", "--json", "--config", ini)
    col = json.loads(out or "{}").get("collectives", {})
    check("without libaccel_mpi: built false, no transport",
          rc == 0 and col["mpi"]["built"] is False and col["mpi"]["library"] is None and
          [d["transport"] for d in col["devices"]] == [None], out[-600:] + err)
    rc, text, _ = run(lone, "info", "--config", ini)
    said = ("libaccel_mpi built but not installed (no %s" % os.path.join(top, "lib", "libaccel_mpi.so")
            if built else "libaccel_mpi not built (MPI was not found")
    check("without libaccel_mpi: the text says so (built but not installed when CMake built it)",
          said in text and "cpu:0: transport none" in text, text[-600:])


def message_cases(accel, plugin_dir, cpu_plugin, work):
    import numpy as np
    mock = os.path.join(plugin_dir, "libaccel_test_mock.so")
    ini = os.path.join(work, "mock.ini")
    write_ini(ini, "[runtime]\norder = mock, cpu\n[backend.mock]\nlibrary = %s\n"
              "[backend.cpu]\nlibrary = %s\n" % (mock, cpu_plugin))
    a = os.path.join(work, "a.npy")
    out = os.path.join(work, "fb.npy")
    rc, _, err = run(accel, "run", "sqrt", a, "-o", out, "--config", ini, "--time")
    check("run names the fallback device that ran the op",
          rc == 0 and re.search(r"accel: sqrt ran on cpu:0 .*fallback of mock:0", err) and
          "sqrt took" in err and "ms on cpu:0" in err, err)
    rc, _, err = run(accel, "run", "sqrt", a, "-o", out, "--device", "cpu")
    check("run without a fallback names its device only",
          rc == 0 and "ran on cpu:0" in err and "fallback" not in err, err)

    for bad in ("-1", "18446744073709551616", "12x", "", " 1", "+1"):
        rc, _, err = run(accel, "verify", "--device", "cpu", "--seed", bad)
        check("verify --seed %r refused" % bad, rc == 2 and "--seed" in err, "%d %r" % (rc, err))
    rc, out, _ = run(accel, "verify", "--device", "cpu", "--quick", "--seed", "18446744073709551615")
    check("verify --seed 2^64-1 accepted", rc == 0 and "seed 18446744073709551615" in out, out[-300:])

    bad_plugin = os.path.join(work, "insecure_template.so")
    shutil.copy(os.path.join(plugin_dir, "libaccel_test_template.so"), bad_plugin)
    os.chmod(bad_plugin, 0o666)
    rc, _, err = run(accel, "verify", "--plugin", bad_plugin, env={"ACCEL_ALLOW_INSECURE": ""})
    check("verify --plugin insecure: advice that applies",
          rc == 1 and "insecure plugin refused" in err and "ACCEL_ALLOW_INSECURE=1" in err and
          "in [runtime]" not in err, err)

    # A repro of an op the mock lacks, replayed on the mock (no fallback).
    repro = os.path.join(work, "mock.npz")

    def npy(fmt, values):  # a 1-D .npy file, format 1.0
        head = "{'descr': '<%s', 'fortran_order': False, 'shape': (%d,), }" % (fmt, len(values))
        head += " " * (63 - (10 + len(head)) % 64) + "\n"
        return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode() +
                struct.pack("<%d%s" % (len(values), "f" if fmt == "f4" else "d"), *values))

    desc = {"format": "accel-repro", "version": 2, "device": "mock:0", "reference": "cpu:0",
            "op": "sqrt", "op_code": 32, "dtype": "f32", "dtype_code": 1, "flags": 0,
            "seed": "0", "rng_offset": "0", "verify_seed": "1", "trans_a": 0, "trans_b": 0,
            "m": 0, "n": 0, "k": 0, "lda": 0, "ldb": 0, "ldc": 0, "batch_count": 1,
            "stride_a": 0, "stride_b": 0, "stride_c": 0, "num_operands": 2,
            "offsets": [0, 0], "counts": [3, 3], "guard_before": 0, "guard_after": 0}
    with zipfile.ZipFile(repro, "w") as z:
        z.writestr("input0.npy", npy("f4", [1, 4, 9]))
        for name in ("output_before", "output_device", "output_reference"):
            z.writestr(name + ".npy", npy("f4", [0, 0, 0] if name == "output_before" else [1, 2, 3]))
        z.writestr("scalars.npy", npy("f8", [0, 0, 0, 0]))
        z.writestr("op.json", json.dumps(desc))
    rc, _, err = run(accel, "replay", repro, "--config", ini)
    check("replay says why the op failed, and where",
          rc == 1 and "running sqrt on mock:0" in err and "mock backend does not support" in err,
          err)

    rc, _, err = run(accel, "replay", repro, "--config", ini, "--device", "tpu:0")
    check("replay --device tpu:0: exit 2 naming it", rc == 2 and "--device tpu:0: " in err,
          "%d %r" % (rc, err))

    rc, out, err = run(accel, "demo", "--quick", "--config", ini)
    row = [l for l in out.splitlines() if l.startswith("device query")]
    check("demo calls a device of kind OTHER 'other'",
          row and " other Mock device" in row[0] and "CPU Mock" not in row[0], out + err)

    # A GPU backend that did not load: the demo shows its whole reason.
    ghost = os.path.join(work, "a_rather_long_folder_name_for_the_missing_gpu_backend",
                         "libaccel_gpu_that_is_not_there.so")
    ini2 = os.path.join(work, "ghost.ini")
    write_ini(ini2, "[runtime]\norder = gpu, cpu\n[backend.gpu]\nlibrary = %s\n"
              "[backend.cpu]\nlibrary = %s\n" % (ghost, cpu_plugin))
    rc, out, err = run(accel, "demo", "--quick", "--config", ini2)
    row = [l for l in out.splitlines() if l.startswith("device query")]
    check("demo shows the whole no-GPU reason", rc == 0 and row and ghost in row[0], out + err)


def main():
    accel, source, plugin_dir, cpu_plugin, work = map(os.path.abspath, sys.argv[1:6])
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    parsing_cases(accel, work)
    help_cases(accel, source)
    info_cases(accel, plugin_dir, cpu_plugin, work)
    collective_cases(accel, cpu_plugin, work)
    cache_cases(accel, work)
    bad_input_cases(accel, work)
    message_cases(accel, plugin_dir, cpu_plugin, work)
    if FAILURES:
        print("%d check(s) failed: %s" % (len(FAILURES), "; ".join(FAILURES)))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
