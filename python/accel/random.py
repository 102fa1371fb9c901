# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Random numbers on the device, with CuPy's names (cupy.random).

Every generator is an accel random stream (accel_rng: Philox4x32-10 keyed by
the seed, Salmon et al., SC 2011) that advances itself: the same seed gives
the same sequence of arrays on every backend (uniform numbers bit for bit,
normal ones within a few ulp), and successive calls give different numbers.
Arrays are filled on the device, on the current stream.
"""
from __future__ import annotations

import ctypes
import secrets
import threading
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib as L
from ._array import Array, _alloc, _dtype_of, _index, _prepare, _shape_of, axpby, full
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
        and the sum each rounded once, or fused)."""
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

    def randn(self, *size: int, dtype: Any = float,
              device: Union[str, Device, None] = None) -> Array:
        """Normal numbers N(0, 1) of shape `size` (given as arguments)."""
        return self._fill(_dims(size, "randn"), dtype, device, True)

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
    from :func:`default_rng`): random, uniform, normal, standard_normal."""

    def random(self, size: SizeLike = None, dtype: Any = np.float64,
               device: Union[str, Device, None] = None) -> Array:
        """Uniform numbers in [0, 1)."""
        return self._fill(_size(size, "random"), dtype, device, False)


def default_rng(seed: Optional[int] = None) -> Generator:
    """A new Generator seeded by `seed` (None: from the OS)."""
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
