#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# The GEMM-near-out-of-memory check under an address-space limit. The limit
# leaves room to load the runtime and OpenBLAS; gemm_oom takes the rest.
# A hang (OpenBLAS retrying for ever) is ended by timeout and fails.
set -u
ulimit -v 1500000 || exit 1
exec timeout 120 "$@"
