# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""What the tutorial's Python scripts share: --device NAME, --quick (small
sizes, also ACCEL_QUICK=1, yes, true or on), and a check that exits non-zero on failure."""
import argparse
import os
import sys

import accel


def env_bool(name):
    """A boolean ACCEL_* variable, with the library's words (any case): true,
    yes, on, 1 and false, no, off, 0; unset or empty is False. Anything else
    exits with status 2, naming the variable and its value."""
    text = os.environ.get(name, "")
    if text.lower() in ("true", "yes", "on", "1"):
        return True
    if text.lower() in ("false", "no", "off", "0", ""):
        return False
    print(f"{name}={text} is not a boolean (true/yes/on/1 or false/no/off/0)", file=sys.stderr)
    sys.exit(2)


def setup(description, **sizes):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--device", default=None, help="accel device (default: the default device)")
    p.add_argument("--quick", action="store_true", default=env_bool("ACCEL_QUICK"),
                   help="small sizes (the tests run this on the CPU)")
    for name, (full, quick) in sizes.items():
        p.add_argument("--" + name.replace("_", "-"), type=int, default=None,
                       help=f"default {full} ({quick} with --quick)")
    args = p.parse_args()
    for name, (full, quick) in sizes.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)
    dev = accel.get_device(args.device)
    print(f"device: {dev.name} ({dev.description})")
    return args, dev


def check(ok, what):
    print(f"check: {what}: {'PASS' if ok else 'FAIL'}")
    if not ok:
        sys.exit(1)
