#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# The GEMM-near-out-of-memory check under an address-space limit, which
# gemm_oom sets itself after loading the runtime and OpenBLAS (what they map
# differs between machines), then takes the rest. A hang (OpenBLAS retrying
# for ever) is ended by timeout and fails.
set -u
exec timeout 120 "$@"
