# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""A signal cleaned and summarised as a CuPy user writes it: batches joined
with cp.concatenate, NaNs and infinities cleaned with cp.nan_to_num,
outliers found with cp.median and cp.percentile, a spectrum from cp.fft.rfft,
a 2-D fft of a patch, first differences with cp.diff, x.fill, cp.split."""
import numpy as np
import accel as cp

rng = np.random.default_rng(17)
batches_h = [rng.standard_normal(4096) for _ in range(4)]
batches_h[1][10] = np.nan
batches_h[2][20] = np.inf
batches = [cp.asarray(b) for b in batches_h]

sig = cp.nan_to_num(cp.concatenate(batches), posinf=0.0)
sig_h = np.nan_to_num(np.concatenate(batches_h), posinf=0.0)
np.testing.assert_array_equal(cp.asnumpy(sig), sig_h)

med = float(cp.median(sig))
lo, hi = (float(v) for v in cp.percentile(sig, [1, 99]))
assert abs(med - np.median(sig_h)) < 1e-12
np.testing.assert_allclose([lo, hi], np.percentile(sig_h, [1, 99]), rtol=1e-12)
outliers = cp.count_nonzero((sig < lo) | (sig > hi))
assert outliers == np.count_nonzero((sig_h < lo) | (sig_h > hi))

spec = cp.abs(cp.fft.rfft(sig))
np.testing.assert_allclose(cp.asnumpy(spec), np.abs(np.fft.rfft(sig_h)), rtol=1e-9, atol=1e-9)
patch = cp.reshape(sig[:64 * 64], (64, 64))
np.testing.assert_allclose(cp.asnumpy(cp.fft.fft2(patch)), np.fft.fft2(sig_h[:4096].reshape(64, 64)),
                           rtol=1e-9, atol=1e-9)

steps = cp.diff(sig)
np.testing.assert_array_equal(cp.asnumpy(steps), np.diff(sig_h))
parts = cp.split(sig, 4)
assert all(cp.array_equal(p, b) for p, b in zip(parts, (cp.nan_to_num(b, posinf=0.0) for b in batches)))

buf = cp.empty((3, 5))
buf.fill(-1.0)
np.testing.assert_array_equal(cp.asnumpy(buf), np.full((3, 5), -1.0))
print("ok")
