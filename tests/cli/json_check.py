#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The shared JSON writer (common/json.c) against Python: the output of
tests/json_strings.c must be valid UTF-8 (strict decode), parse with the json
module, and every string must equal Python's bytes.decode("utf-8", "replace")
of the bytes it was given (Unicode's U+FFFD per maximal subpart, an
independent implementation). Numbers: NaN and infinities become null.

usage: json_check.py JSON_STRINGS_PROGRAM [SEED]"""
import json
import subprocess
import sys


def main():
    prog = sys.argv[1]
    seed = sys.argv[2] if len(sys.argv) > 2 else "1"
    print("seed", seed)
    out = subprocess.run([prog, seed, "20000"], capture_output=True, check=True).stdout
    text = out.decode("utf-8")  # strict: raises on any invalid byte
    doc = json.loads(text)
    assert doc["numbers"] == [1.5, 0.0, None, None, None, 1e300], doc["numbers"]
    assert doc["null_string"] == ""
    cases = doc["cases"]
    assert len(cases) > 20000, len(cases)
    bad = 0
    for c in cases:
        want = bytes.fromhex(c["hex"]).decode("utf-8", "replace")
        if c["s"] != want:
            bad += 1
            if bad <= 5:
                print("MISMATCH bytes %s: got %r, want %r" % (c["hex"], c["s"], want))
    assert bad == 0, "%d of %d strings differ from Python's decoding" % (bad, len(cases))
    # Control characters are escaped, never raw, in the file itself.
    assert not any(ch < " " and ch != "\n" for ch in text), "raw control character in the output"
    replaced = sum("\ufffd" in c["s"] for c in cases)
    print("%d strings match Python's decoding (%d with U+FFFD)" % (len(cases), replaced))


if __name__ == "__main__":
    main()
