# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Shared helpers of the accel pytest suite: NumPy is the reference, and the
tolerances are accel's own (docs/checking.md)."""
import math
import os

import numpy as np
import pytest

import accel

SEED = int(os.environ.get("ACCEL_TEST_SEED", "20261201"))
DTYPES = [np.float32, np.float64]


def pytest_report_header(config):
    return (f"accel {accel.info().version} from {accel.LIBRARY_PATH}; "
            f"default device {accel.get_device().name}; seed {SEED} (ACCEL_TEST_SEED)")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def ulp_distance(a, b):
    """Elementwise distance in units in the last place (NaN meets NaN: 0)."""
    a = np.asarray(a)
    b = np.asarray(b)
    it = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    ia = a.view(it).astype(np.int64)
    ib = b.view(it).astype(np.int64)
    big = np.int64(np.iinfo(it).min)
    ia = np.where(ia < 0, big - ia, ia)
    ib = np.where(ib < 0, big - ib, ib)
    d = np.abs(ia - ib)
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0, d)


def sum_bound(x, n=None):
    """accel's sum rule: 2*n*eps*sum|x| (Higham 2002, 4.2)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size if n is None else n
    eps = np.finfo(x.dtype if x.dtype != np.float64 else np.float64).eps
    return 2 * n * eps * np.sum(np.abs(x))


def eps_of(dtype):
    return float(np.finfo(dtype).eps)
