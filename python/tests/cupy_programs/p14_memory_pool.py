# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The memory pool: bytes in use grow with an allocation and come back after free_all_blocks."""
import accel as cp

pool = cp.get_default_memory_pool()
before = pool.used_bytes()
a = cp.zeros(1 << 20, dtype=cp.float32)
assert pool.used_bytes() >= before + 4 * (1 << 20), (before, pool.used_bytes())
del a
pool.free_all_blocks()
assert pool.used_bytes() <= before + 4 * (1 << 20)
print("ok")
