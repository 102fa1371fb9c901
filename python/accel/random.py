# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Random numbers on the device, with CuPy's names (cupy.random).

Every generator is an accel random stream (accel_rng: Philox4x32-10 keyed by
the seed, Salmon et al., SC 2011) that advances itself: the same seed gives
the same sequence of arrays on every backend (uniform numbers bit for bit,
normal ones within a few ulp), and successive calls give different numbers.
Arrays are filled on the device, on the current stream.

Integers, permutations and choices are made on the device from the same
uniform stream by kernels written with @accel.cuda.jit: ``randint`` maps a
float64 u in [0, 1) to ``low + floor(u * (high - low))`` (so spans above
2**53 are refused), ``permutation`` is Fisher-Yates (Knuth, TAOCP vol. 2,
3.4.2, algorithm P) on one device thread (sequential: a sort-based one waits
for the array layer), ``choice`` with ``p`` a binary search of the running
sum of p. So the same seed gives the same integers on every device.
"""
from __future__ import annotations

import ctypes
import math
import numbers
import secrets
import threading
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib as L
from . import cuda
from ._array import (Array, _alloc, _dtype_of, _index, _prepare, _shape_of, asarray, axpby,
                     contiguous, full)
from ._core import Device, get_device
from ._lib import ReleasedError, check, error

SizeLike = Union[None, int, Sequence[int]]


def _size(size: SizeLike, fn: str) -> Tuple[int, ...]:
    """A `size` argument (None: one number, an int or a sequence of ints) as
    a shape; TypeError for a float, a bool or a string, as NumPy."""
    return () if size is None else _shape_of(size, f"accel.random.{fn}", "size")


def _dims(size: Tuple[Any, ...], fn: str) -> Tuple[int, ...]:
    """rand(2, 3)'s shape, given as arguments: each an int, as NumPy."""
    return _shape_of(size, f"accel.random.{fn}")


def _seed_of(seed: Any, fn: str) -> int:
    """A seed: an int 0 <= seed < 2**64 (TypeError for a float or a bool,
    InvalidArgumentError, a ValueError, outside the range)."""
    s = _index(seed, f"accel.random.{fn}: seed")
    if not 0 <= s < 1 << 64:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.random.{fn}: seed {s} is outside 0 .. 2**64-1")
    return s


class RandomState:
    """A random stream with NumPy's legacy method names (as
    cupy.random.RandomState). `seed`: an int (0 <= seed < 2**64); None draws
    one from the operating system. ``state`` is (seed, position) and
    ``set_state`` restores it, repeating the numbers from there."""

    def __init__(self, seed: Optional[int] = None):
        self._h: Optional[int] = None
        self.seed(seed)

    def seed(self, seed: Optional[int] = None) -> None:
        """Restart the stream from `seed` (None: a fresh seed from the OS)."""
        seed = secrets.randbits(64) if seed is None else _seed_of(seed, "seed")
        self._release()
        h = ctypes.c_void_p()
        check(L.rng_create(seed, ctypes.byref(h)))
        self._h = h.value

    def _handle(self) -> int:
        if self._h is None:
            raise ReleasedError("ACCEL_ERROR_INVALID_HANDLE", "accel.random: generator released")
        return self._h

    @property
    def state(self) -> Tuple[int, int]:
        """(seed, position): position counts the 128-bit Philox blocks used."""
        s, p = ctypes.c_uint64(), ctypes.c_uint64()
        check(L.rng_get(self._handle(), ctypes.byref(s), ctypes.byref(p)))
        return s.value, p.value

    def get_state(self) -> Tuple[int, int]:
        return self.state

    def set_state(self, state: Tuple[int, int]) -> None:
        """Go back (or forward) to a (seed, position) from ``state``."""
        seed, pos = state
        seed = _seed_of(seed, "set_state")
        pos = _index(pos, "accel.random.set_state: position")
        if not 0 <= pos < 1 << 64:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.random.set_state: position {pos} is outside 0 .. 2**64-1")
        if seed != self.state[0]:
            self.seed(seed)
        check(L.rng_seek(self._handle(), pos))

    def _fill(self, shape: Tuple[int, ...], dtype: Any, device: Any, normal: bool,
              loc: float = 0.0, scale: float = 1.0) -> Array:
        dt = _dtype_of(dtype, "random")
        if dt == np.float16:
            raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                        "accel.random: random numbers are float32 or float64")
        dev = get_device(device)
        out = _alloc(shape, dt, dev)
        s = _prepare(dev, out)
        if normal:
            code = L.rng_normal(s._handle, self._handle(), out._code, float(loc), float(scale),
                                out._slice)
        else:
            code = L.rng_uniform(s._handle, self._handle(), out._code, out._slice)
        check(code)
        return out

    # NumPy/CuPy legacy names.
    def random_sample(self, size: SizeLike = None, dtype: Any = float,
                      device: Union[str, Device, None] = None) -> Array:
        """Uniform numbers in [0, 1) of shape `size` (float64 default)."""
        return self._fill(_size(size, "random_sample"), dtype, device, False)

    random = random_sample

    def rand(self, *size: int, dtype: Any = float,
             device: Union[str, Device, None] = None) -> Array:
        """Uniform numbers in [0, 1) of shape `size` (given as arguments)."""
        return self._fill(_dims(size, "rand"), dtype, device, False)

    def uniform(self, low: float = 0.0, high: float = 1.0, size: SizeLike = None,
                dtype: Any = float, device: Union[str, Device, None] = None) -> Array:
        """low + (high - low) * u, u uniform in [0, 1) (accel_axpby: the product
        and the sum each rounded once, or fused). Raises OverflowError, as
        NumPy, when high - low is not finite (an infinite or NaN bound)."""
        if not math.isfinite(float(high) - float(low)):
            raise OverflowError(f"accel.random.uniform: the range [{low}, {high}) exceeds "
                                "valid bounds (high - low is not finite)")
        u = self._fill(_size(size, "uniform"), dtype, device, False)
        if low == 0.0 and high == 1.0:
            return u
        y = full(u.shape, low, u.dtype, u.device)
        return axpby(float(high) - float(low), u, 1.0, y)

    def normal(self, loc: float = 0.0, scale: float = 1.0, size: SizeLike = None,
               dtype: Any = float, device: Union[str, Device, None] = None) -> Array:
        """Normal numbers N(loc, scale**2) (Box-Muller on the stream). Raises
        InvalidArgumentError for scale < 0 or a non-finite loc or scale."""
        return self._fill(_size(size, "normal"), dtype, device, True, loc, scale)

    def standard_normal(self, size: SizeLike = None, dtype: Any = float,
                        device: Union[str, Device, None] = None) -> Array:
        """Normal numbers N(0, 1)."""
        return self._fill(_size(size, "standard_normal"), dtype, device, True)

    def exponential(self, scale: float = 1.0, size: SizeLike = None, dtype: Any = float,
                    device: Union[str, Device, None] = None) -> Array:
        """Exponential numbers of mean `scale`: -scale * log1p(-u), u uniform
        in [0, 1) (the inverse CDF; never inf, as 1 - u > 0). Raises
        ValueError for scale < 0 or not finite, as NumPy."""
        from . import _namespace as ns
        sc = float(scale)
        if not (sc >= 0 and math.isfinite(sc)):
            raise ValueError(f"accel.random.exponential: scale {scale!r} (a finite value >= 0)")
        u = self._fill(_size(size, "exponential"), dtype, device, False)
        return ns.multiply(ns.log1p(ns.negative(u)), -sc)

    def randn(self, *size: int, dtype: Any = float,
              device: Union[str, Device, None] = None) -> Array:
        """Normal numbers N(0, 1) of shape `size` (given as arguments)."""
        return self._fill(_dims(size, "randn"), dtype, device, True)

    def randint(self, low: int, high: Optional[int] = None, size: SizeLike = None,
                dtype: Any = np.int64, device: Union[str, Device, None] = None) -> Array:
        """Integers uniform in [low, high) (or [0, low) when high is None) of
        shape `size`, dtype int64 (int32 or uint8 too). Raises
        InvalidArgumentError when low >= high or the range does not fit the
        dtype, UnsupportedError for a range wider than 2**53."""
        return self._integers("randint", low, high, size, dtype, device)

    def _integers(self, fn: str, low: Any, high: Any, size: SizeLike, dtype: Any,
                  device: Any) -> Array:
        if high is None:
            low, high = 0, low
        lo = _index(low, f"accel.random.{fn}: low")
        hi = _index(high, f"accel.random.{fn}: high")
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint8)):
            raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                        f"accel.random.{fn}: dtype {dt} (int64, int32 or uint8)")
        if lo >= hi:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT", f"accel.random.{fn}: low >= high "
                        f"({lo} >= {hi})")
        info = np.iinfo(dt)
        if lo < info.min or hi - 1 > info.max:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.random.{fn}: [{lo}, {hi}) does not fit {dt}")
        if hi - lo > 1 << 53:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        f"accel.random.{fn}: a range of {hi - lo} values (at most 2**53)")
        shape = _size(size, fn)
        n = math.prod(shape)
        u = self._fill((n,), np.float64, device, False)
        out = _alloc((n,), dt, u.device)
        if n:
            _k_integers[(n + 255) // 256, 256](u, out, lo, hi - lo)
        return out.reshape(shape)

    def permutation(self, x: Any, device: Union[str, Device, None] = None) -> Array:
        """A random permutation of range(x) (int64) when x is an int, else a
        copy of the array x with its first axis shuffled. Raises
        InvalidArgumentError for a negative int or a 0-d array."""
        if isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_)):
            if x < 0:
                raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                            f"accel.random.permutation: n = {x} is negative")
            return self._perm(int(x), device)
        a = x if isinstance(x, Array) else asarray(x, device=device)
        if not a.shape:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        "accel.random.permutation: a 0-d array has no axis to shuffle")
        return _take_rows(a, self._perm(a.shape[0], a.device))

    def _perm(self, n: int, device: Any) -> Array:
        u = self._fill((n,), np.float64, device, False)
        p = _alloc((n,), np.dtype(np.int64), u.device)
        if n:
            _k_permutation[1, 1](p, u)
        return p

    def shuffle(self, x: Array) -> None:
        """Shuffle the accel array x along its first axis, in place."""
        if not isinstance(x, Array):
            raise TypeError("accel.random.shuffle: x must be an accel.Array (shuffled in place), "
                            f"not {type(x).__name__}")
        if not x.shape:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        "accel.random.shuffle: a 0-d array has no axis to shuffle")
        if x.size:
            # through the view's own strides (a strided view's reshape(-1)
            # is a copy: the shuffle was lost); a broadcast view is refused
            x[...] = self.permutation(x)

    def choice(self, a: Any, size: SizeLike = None, replace: bool = True, p: Any = None,
               device: Union[str, Device, None] = None) -> Array:
        """Samples of the 1-d array a (or of range(a) for an int), shape
        `size`: with replacement, uniformly or with probabilities p (a 1-d
        array of len(a), non-negative, summing to 1 within 1e-8), or without
        replacement (uniform only). Raises InvalidArgumentError (an empty
        population, p not a distribution, more samples than the population
        without replacement), UnsupportedError (p without replacement)."""
        pop = self._population(a, device)
        n = pop.shape[0]
        shape = _size(size, "choice")
        k = math.prod(shape)
        if n == 0 and k:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        "accel.random.choice: the population is empty")
        if p is not None:
            if not replace:
                raise error("ACCEL_ERROR_UNSUPPORTED",
                            "accel.random.choice: p= without replacement")
            idx = self._weighted(p, n, k, pop.device)
        elif replace:
            idx = self.randint(0, max(n, 1), (k,), device=pop.device)
        else:
            if k > n:
                raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                            f"accel.random.choice: {k} samples of {n} without replacement")
            idx = self._perm(n, pop.device)[:k]
        return _take_rows(pop, idx).reshape(shape)

    def _population(self, a: Any, device: Any) -> Array:
        if isinstance(a, numbers.Integral) and not isinstance(a, (bool, np.bool_)):
            if a < 0:
                raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                            f"accel.random.choice: a = {a} is negative")
            with get_device(device):
                return cuda.to_device(np.arange(int(a), dtype=np.int64))
        pop = a if isinstance(a, Array) else cuda.to_device(np.asarray(a))
        if pop.ndim != 1:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.random.choice: a is {pop.ndim}-d (1-d or an int)")
        return pop

    def _weighted(self, p: Any, n: int, k: int, dev: Device) -> Array:
        ph = np.asarray(p.get() if isinstance(p, Array) else p, dtype=np.float64)
        if ph.shape != (n,) or not np.all(ph >= 0) or not abs(ph.sum() - 1.0) <= 1e-8:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.random.choice: p must be {n} non-negative numbers summing "
                        "to 1")
        pd = asarray(ph, device=dev)
        cdf = _alloc((n,), np.dtype(np.float64), dev)
        _k_cdf[1, 1](pd, cdf)
        u = self._fill((k,), np.float64, dev, False)
        idx = _alloc((k,), np.dtype(np.int64), dev)
        if k:
            _k_search[(k + 255) // 256, 256](cdf, u, idx)
        return idx

    def _release(self) -> None:
        h, self._h = self._h, None
        if h is not None:
            L.rng_release(h)

    def __del__(self) -> None:
        try:
            self._release()
        except Exception:
            pass


class Generator(RandomState):
    """A generator with NumPy's new-style names (as cupy.random.Generator,
    from :func:`default_rng`): random, integers, uniform, normal,
    standard_normal, permutation, shuffle, choice."""

    def random(self, size: SizeLike = None, dtype: Any = np.float64,
               device: Union[str, Device, None] = None) -> Array:
        """Uniform numbers in [0, 1)."""
        return self._fill(_size(size, "random"), dtype, device, False)

    def integers(self, low: int, high: Optional[int] = None, size: SizeLike = None,
                 dtype: Any = np.int64, endpoint: bool = False,
                 device: Union[str, Device, None] = None) -> Array:
        """Integers uniform in [low, high) ([low, high] with endpoint=True;
        [0, low) when high is None), as numpy.random.Generator.integers."""
        if endpoint:
            if high is None:
                low, high = 0, low
            high = _index(high, "accel.random.integers: high") + 1
        return self._integers("integers", low, high, size, dtype, device)


def default_rng(seed: Any = None) -> Generator:
    """A new Generator seeded by `seed` (an int 0 <= seed < 2**64; None: from
    the OS), or `seed` itself when it is a Generator (as NumPy's). The
    numbers are accel's Philox stream, not NumPy's PCG64: the same seed gives
    other numbers than numpy.random.default_rng."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


_global: Optional[RandomState] = None
_glock = threading.Lock()


def get_random_state() -> RandomState:
    """The RandomState behind the module functions (rand, normal, ...)."""
    global _global
    if _global is None:
        with _glock:
            if _global is None:
                _global = RandomState()
    return _global


def seed(seed: Optional[int] = None) -> None:
    """Reseed the module functions' generator."""
    get_random_state().seed(seed)


def rand(*size: int, dtype: Any = float, device: Union[str, Device, None] = None) -> Array:
    """Uniform [0, 1) numbers of shape `size` from the global generator."""
    return get_random_state().rand(*size, dtype=dtype, device=device)


def randn(*size: int, dtype: Any = float, device: Union[str, Device, None] = None) -> Array:
    """N(0, 1) numbers of shape `size` from the global generator."""
    return get_random_state().randn(*size, dtype=dtype, device=device)


def random_sample(size: SizeLike = None, dtype: Any = float,
                  device: Union[str, Device, None] = None) -> Array:
    """Uniform [0, 1) numbers from the global generator."""
    return get_random_state().random_sample(size, dtype, device)


random = random_sample


def uniform(low: float = 0.0, high: float = 1.0, size: SizeLike = None, dtype: Any = float,
            device: Union[str, Device, None] = None) -> Array:
    """Uniform [low, high) numbers from the global generator."""
    return get_random_state().uniform(low, high, size, dtype, device)


def normal(loc: float = 0.0, scale: float = 1.0, size: SizeLike = None, dtype: Any = float,
           device: Union[str, Device, None] = None) -> Array:
    """N(loc, scale**2) numbers from the global generator."""
    return get_random_state().normal(loc, scale, size, dtype, device)


def standard_normal(size: SizeLike = None, dtype: Any = float,
                    device: Union[str, Device, None] = None) -> Array:
    """N(0, 1) numbers from the global generator."""
    return get_random_state().standard_normal(size, dtype, device)


def exponential(scale: float = 1.0, size: SizeLike = None, dtype: Any = float,
                device: Union[str, Device, None] = None) -> Array:
    """Exponential numbers of mean `scale` from the global generator."""
    return get_random_state().exponential(scale, size, dtype, device)


def randint(low: int, high: Optional[int] = None, size: SizeLike = None, dtype: Any = np.int64,
            device: Union[str, Device, None] = None) -> Array:
    """Integers uniform in [low, high) from the global generator."""
    return get_random_state().randint(low, high, size, dtype, device)


def permutation(x: Any, device: Union[str, Device, None] = None) -> Array:
    """A permutation of range(x), or a copy of array x shuffled along its first axis."""
    return get_random_state().permutation(x, device)


def shuffle(x: Array) -> None:
    """Shuffle the accel array x along its first axis, in place."""
    get_random_state().shuffle(x)


def choice(a: Any, size: SizeLike = None, replace: bool = True, p: Any = None,
           device: Union[str, Device, None] = None) -> Array:
    """Samples of a 1-d array or of range(a), from the global generator."""
    return get_random_state().choice(a, size, replace, p, device)


def _take_rows(a: Array, idx: Array) -> Array:
    """a[idx] along the first axis (idx int64, on a's device)."""
    row = math.prod(a.shape[1:])
    out = _alloc((idx.shape[0],) + a.shape[1:], a.dtype, a.device)
    if out.size:
        # the kernel takes C-ordered arrays: a strided view (x[::2], x[:, ::2])
        # is copied first (it raised UnsupportedError)
        flat = contiguous(a).reshape(-1)
        _k_gather[(out.size + 255) // 256, 256](flat, idx, out.reshape(-1), row)
    return out


# The device kernels (Python, translated by @cuda.jit).

@cuda.jit
def _k_integers(u, out, low, span):
    i = cuda.grid(1)
    if i < u.size:
        k = math.floor(u[i] * span)
        if k >= span:
            k = span - 1
        out[i] = low + k


@cuda.jit
def _k_permutation(p, u):
    # Fisher-Yates on one thread: p = 0..n-1, then swap i with j <= i.
    n = p.size
    for i in range(n):
        p[i] = i
    i = n - 1
    while i > 0:
        j = math.floor(u[i] * (i + 1))
        if j > i:
            j = i
        t = p[i]
        p[i] = p[j]
        p[j] = t
        i -= 1


@cuda.jit
def _k_gather(x, idx, out, row):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[idx[i // row] * row + i % row]


@cuda.jit
def _k_cdf(p, cdf):
    s = 0.0
    for i in range(p.size):
        s += p[i]
        cdf[i] = s


@cuda.jit
def _k_search(cdf, u, idx):
    # The first i with cdf[i] > u * total: zero-probability items are never taken.
    i = cuda.grid(1)
    if i < u.size:
        v = u[i] * cdf[cdf.size - 1]
        lo = 0
        hi = cdf.size - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cdf[mid] <= v:
                lo = mid + 1
            else:
                hi = mid
        idx[i] = lo
