# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""User kernels from Python (accel.ElementwiseKernel, ReductionKernel,
RawKernel, RawModule) against NumPy, on the CPU device and, where it is
another, the default device (a GPU on the GPU machine). Float results within
the stated ulp bound (a product and a sum may be contracted into one fused
multiply-add, which NVRTC does by default); integer results exactly."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accel
from conftest import ulp_distance

_default = accel.get_device().name
DEVICES = ["cpu"] + ([_default] if not _default.startswith("cpu") else [])
FLOATS = [np.float32, np.float64]
ALL = [np.float32, np.float64, np.float16, np.int32, np.int64, np.uint8]


def _close(got, want, dtype, ulp=2):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == np.dtype(dtype) and got.shape == want.shape
    if np.dtype(dtype).kind == "f":
        if np.dtype(dtype) == np.float16:
            # float16 computes in float and rounds once: within 1 ulp of NumPy,
            # which rounds after every operation.
            assert np.all(np.abs(got.astype(np.float64) - want.astype(np.float64))
                          <= ulp * np.spacing(np.abs(want)).astype(np.float64))
        else:
            assert np.max(ulp_distance(got, want), initial=0) <= ulp
    else:
        assert np.array_equal(got, want)


def _data(rng, dtype, n):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        # Multiples of 1/64 in [-4, 4): a * x + y with a = 1.5 is exact in every
        # float dtype, fused or not, so the result must equal NumPy's exactly.
        return (rng.integers(-256, 256, n) / 64).astype(dt)
    if dt == np.uint8:
        return rng.integers(0, 256, n).astype(dt)
    return rng.integers(-1000, 1000, n).astype(dt)


# ----------------------------------------------------------------- elementwise

@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
def test_elementwise_every_dtype_placeholder_and_named(dev, dtype, rng):
    dt = np.dtype(dtype)
    n = 1003
    hx, hy = _data(rng, dt, n), _data(rng, dt, n)
    x = accel.asarray(hx, dtype=dt, device=dev)
    y = accel.asarray(hy, dtype=dt, device=dev)
    a = 3 if dt.kind in "iu" else 1.5
    want = (a * hx.astype(np.float64) + hy.astype(np.float64))
    if dt.kind in "iu":
        want = (a * hx.astype(np.int64) + hy.astype(np.int64)).astype(dt)  # uint8 wraps
    else:
        want = want.astype(dt)
    generic = accel.ElementwiseKernel("T x, T y, T a", "T z", "z = a * x + y", "axpy_t")
    z = generic(x, y, dt.type(a))
    _close(z.get(), want, dt, ulp=0)
    assert z.device.name == accel.get_device(dev).name
    named = accel.ElementwiseKernel(f"{dt.name} x, {dt.name} y, {dt.name} a", f"{dt.name} z",
                                    "z = a * x + y", "axpy_" + dt.name)
    out = accel.empty(n, dt, device=dev)
    r = named(x, y, a, out)
    assert r is out
    _close(out.get(), want, dt, ulp=0)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_elementwise_placeholder_in_body_several_outputs_and_index(dev, dtype, rng):
    dt = np.dtype(dtype)
    hx = rng.standard_normal((7, 9)).astype(dt)
    x = accel.asarray(hx, device=dev)
    k = accel.ElementwiseKernel("T x", "T sq, T half, int64 idx",
                                "T d = x - (T)1;\nsq = d * d;\nhalf = x / 2;\nidx = i + n * 0",
                                "several")
    sq, half, idx = k(x)
    assert sq.shape == (7, 9) and idx.dtype == np.int64
    _close(sq.get(), ((hx - 1) * (hx - 1)).astype(dt), dt)
    _close(half.get(), hx / 2, dt)
    assert np.array_equal(idx.get(), np.arange(63).reshape(7, 9))
    assert isinstance(accel.ElementwiseKernel("T x", "T y", "y = x", "one",
                                              return_tuple=True)(x), tuple)
    assert accel.ElementwiseKernel("T x", "T y", "y = x", "none", no_return=True)(x) is None


@pytest.mark.parametrize("dev", DEVICES)
def test_elementwise_in_place_out_keyword_scalars_only_and_empty(dev):
    x = accel.asarray(np.arange(10.0), device=dev)
    inc = accel.ElementwiseKernel("float64 x, float64 d", "float64 y", "y = x + d", "inc")
    inc(x, 0.5, out=x)
    assert np.array_equal(x.get(), np.arange(10.0) + 0.5)
    fill = accel.ElementwiseKernel("float64 v", "float64 y", "y = v * (double)i", "ramp")
    with accel.Device(dev):
        r = fill(2.0, size=5)
    assert r.device.name == accel.get_device(dev).name
    assert np.array_equal(r.get(), 2.0 * np.arange(5))
    e = inc(accel.empty(0, np.float64, device=dev), 1.0)
    assert e.shape == (0,)
    # Views (a row, a range of rows) are launched at their offset.
    m = accel.asarray(np.arange(20.0).reshape(4, 5), device=dev)
    inc(m[1], 100.0, out=m[2])
    got = m.get()
    want = np.arange(20.0).reshape(4, 5)
    want[2] = want[1] + 100
    assert np.array_equal(got, want)
    assert np.array_equal(inc(m[1:3], 1.0).get(), want[1:3] + 1)
    # An integer scalar for a float parameter is converted (C conversion).
    assert np.array_equal(inc(x, 1).get(), np.arange(10.0) + 1.5)


@pytest.mark.parametrize("dev", DEVICES)
def test_elementwise_argument_errors(dev):
    f32 = accel.ones(4, np.float32, device=dev)
    f64 = accel.ones(4, np.float64, device=dev)
    k = accel.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + y", "add32")
    with pytest.raises(accel.DtypeMismatchError) as e:
        k(f32, f64)  # a float64 array for a float32 parameter: refused by libaccel
    assert e.value.status == "ACCEL_ERROR_DTYPE_MISMATCH" and "y" in e.value.message
    with pytest.raises(accel.ShapeMismatchError):
        k(f32, accel.ones(5, np.float32, device=dev))
    with pytest.raises(TypeError):
        k(f32)
    with pytest.raises(TypeError):
        k(f32, f32, f32, f32)
    with pytest.raises(accel.DeviceMismatchError):
        k(f32, np.ones(4, np.float32))
    t = accel.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_t")
    with pytest.raises(accel.DtypeMismatchError) as e:
        t(f32, f64)
    assert "T is float32" in e.value.message
    with pytest.raises(TypeError):
        accel.ElementwiseKernel("float64 a", "T z", "z = a", "unbound")(1.0)
    ik = accel.ElementwiseKernel("int32 x, int32 m", "int32 y", "y = x * m", "imul")
    with pytest.raises(accel.DtypeMismatchError):
        ik(accel.zeros(3, np.int32, device=dev), 2.5)  # a float scalar for an int parameter
    gone = accel.ones(4, np.float32, device=dev)
    gone.release()
    with pytest.raises(accel.ReleasedError):
        k(gone, f32)
    # Integer scalars that would wrap are refused, not passed modulo 2^width.
    xi = accel.asarray(np.array([0, -1, 7], np.int32), device=dev, dtype=np.int32)
    for bad in (2**31 + 5, -(2**31) - 1, 2**40):
        with pytest.raises(accel.OutOfRangeError):
            ik(xi, bad)
    assert np.array_equal(ik(xi, 3).get(), np.array([0, -3, 21], np.int32))
    u8 = accel.ElementwiseKernel("uint8 x, uint8 a", "uint8 y", "y = x + a", "addu8")
    xu = accel.asarray(np.array([0, 1, 2], np.uint8), device=dev, dtype=np.uint8)
    for bad in (256, 300, -1):
        with pytest.raises(accel.OutOfRangeError):
            u8(xu, bad)
    assert np.array_equal(u8(xu, 253).get(), np.array([253, 254, 255], np.uint8))
    # size= is a count of elements: no wrap, no negative, no float.
    one = accel.ElementwiseKernel("float32 a", "float32 y", "y = a", "fill_a")
    with pytest.raises(accel.OutOfRangeError):
        one(1.0, size=2**62)  # 2^64 bytes: does not fit size_t
    with pytest.raises(ValueError):
        one(1.0, size=-1)
    with pytest.raises(TypeError):
        one(1.0, size=3.5)
    assert np.array_equal(one(2.0, size=3).get(), np.full(3, 2.0, np.float32))


@pytest.mark.parametrize("dev", DEVICES)
def test_kernels_on_a_stream_are_ordered_with_other_streams(dev):
    n = 1 << 16
    x = accel.asarray(np.arange(n, dtype=np.float64), device=dev)
    twice = accel.ElementwiseKernel("T x", "T y", "y = x * 2", "twice_s")
    total = accel.ReductionKernel("T x", "T s", "x", "a + b", "a", "0", "total_s")
    s = accel.Stream(dev)
    y = twice(x, stream=s)           # enqueued on s
    with accel.Stream(dev):          # another stream: ordered after s by accel
        t = total(y)
        got = float(t)
    assert got == float(n * (n - 1))  # exact: integers below 2**53
    with pytest.raises(TypeError):
        twice(x, stream=0)
    other = [d for d in accel.devices() if d.name != accel.get_device(dev).name]
    if other:
        with pytest.raises(accel.DeviceMismatchError):
            twice(x, stream=accel.Stream(other[0]))


def test_kernel_definition_errors():
    with pytest.raises(accel.InvalidArgumentError):
        accel.ElementwiseKernel("float32", "float32 z", "z = 1", "bad")
    with pytest.raises(accel.InvalidArgumentError) as e:
        accel.ElementwiseKernel("float32 i", "float32 z", "z = i", "bad")  # i is the index
    assert "reserved" in e.value.message
    # An unknown type name is a placeholder (as CuPy); a dtype kernels do not take is refused.
    with pytest.raises(accel.DtypeMismatchError):
        accel.ElementwiseKernel("X x", "X z", "z = x", "c64")(1 + 2j, size=3)
    with pytest.raises(accel.InvalidArgumentError):
        accel.ElementwiseKernel("float32 x, float32 x", "float32 z", "z = x", "dup")
    with pytest.raises(accel.InvalidArgumentError):
        accel.ElementwiseKernel("float32 x", "", "x", "no_outputs")
    with pytest.raises(accel.InvalidArgumentError):
        accel.ElementwiseKernel("float32 x", "float32 z", "z = x", "not a name")
    with pytest.raises(accel.UnsupportedError):
        accel.ElementwiseKernel("raw T x", "T z", "z = x[i]", "raw_in")
    with pytest.raises(accel.InvalidArgumentError):
        accel.ReductionKernel("T x", "T y, T w", "x", "a + b", "a", "0", "two_outputs")
    # Real NumPy dtypes accel does not support are refused, not taken as
    # placeholders (CuPy would read int8 as int8); one-letter names are
    # placeholders.
    for t in ("int8", "complex64", "bool", "uint16"):
        with pytest.raises(accel.UnsupportedError):
            accel.ElementwiseKernel(f"{t} x", f"{t} y", "y = x", "k_" + t)
    accel.ElementwiseKernel("U x", "U y", "y = x", "k_placeholder_u")


@pytest.mark.parametrize("dev", DEVICES)
def test_compile_error_carries_the_line_of_the_users_text(dev):
    x = accel.ones(4, np.float32, device=dev)
    k = accel.ElementwiseKernel("float32 x", "float32 y", "float t = x;\ny = t +;\n", "broken")
    with pytest.raises(accel.CompileError) as e:
        k(x)
    assert e.value.status == "ACCEL_ERROR_COMPILE"
    assert e.value.line == 2, e.value.log
    assert "broken" in e.value.message
    raw = accel.RawKernel("__global__ void f(float *a)\n{\n    a[0] = not_declared;\n}\n", "f")
    with pytest.raises(accel.CompileError) as e:
        raw.compile(dev)
    assert e.value.line == 3, e.value.log
    with pytest.raises(accel.CompileError):
        raw((1,), (1,), (x,))


# ------------------------------------------------------------------ reduction

@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_reduction_l2norm_whole_and_last_axis(dev, dtype, rng):
    dt = np.dtype(dtype)
    h = rng.standard_normal((33, 517)).astype(dt)
    x = accel.asarray(h, device=dev)
    l2 = accel.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    h64 = h.astype(np.float64)
    eps = np.finfo(dt).eps
    # accel's sum rule, 2*n*eps*sum|x_i^2| on the sum of squares, then one sqrt.
    whole = l2(x)
    assert whole.shape == ()
    ref = np.sqrt(np.sum(h64 * h64))
    assert abs(float(whole) - ref) <= (2 * h.size * eps + 2 * eps) * ref
    rows = l2(x, axis=-1)
    assert rows.shape == (33,)
    ref_rows = np.sqrt(np.sum(h64 * h64, axis=-1))
    assert np.all(np.abs(rows.get() - ref_rows) <= (2 * 517 * eps + 2 * eps) * ref_rows)
    assert l2(x, axis=1, keepdims=True).shape == (33, 1)
    assert l2(x, axis=(0, 1)).shape == ()
    # A fixed order: the same bits run to run.
    assert np.array_equal(l2(x, axis=-1).get(), rows.get())
    with pytest.raises(accel.UnsupportedError):
        l2(x, axis=0)


@pytest.mark.parametrize("dev", DEVICES)
def test_reduction_integer_max_two_inputs_empty_and_out(dev, rng):
    h = rng.integers(-10**6, 10**6, 5000).astype(np.int64)
    x = accel.asarray(h, dtype=np.int64, device=dev)
    imax = accel.ReductionKernel("int64 x", "int64 m", "x", "a > b ? a : b",
                                 "a", "-9223372036854775807LL", "imax")
    assert int(imax(x).get()) == int(h.max())
    hw = rng.uniform(0, 1, 5000)
    w = accel.asarray(hw, device=dev)
    dot = accel.ReductionKernel("T x, float64 w", "float64 s", "(double)x * w", "a + b", "a",
                                "0", "wdot")
    out = accel.empty((), np.float64, device=dev)
    r = dot(x, w, out=out)
    assert r is out
    ref = float(np.dot(h.astype(np.float64), hw))
    assert abs(float(out) - ref) <= 2 * 5000 * np.finfo(np.float64).eps * np.sum(np.abs(h * hw))
    isum = accel.ReductionKernel("T x", "T s", "x", "a + b", "a", "0", "isum")
    hi = rng.integers(-1000, 1000, (4, 1000)).astype(np.int32)
    assert np.array_equal(isum(accel.asarray(hi, dtype=np.int32, device=dev), axis=-1).get(),
                          hi.sum(axis=-1).astype(np.int32))
    empty = accel.empty((3, 0), np.float64, device=dev)
    assert np.array_equal(isum(empty, axis=-1).get(), np.zeros(3))
    with pytest.raises(accel.DeviceMismatchError):
        dot(x, np.ones(5000))


# ------------------------------------------------------------------------ raw

VECTOR_ADD = """
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
"""

MODULE = """
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}

__global__ void scale2d(double *m, double s, long long rows, long long cols)
{
    long long r = blockIdx.y * blockDim.y + threadIdx.y;
    long long c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols)
        m[r * cols + c] = m[r * cols + c] * s + (double)r;
}
"""


@pytest.mark.parametrize("dev", DEVICES)
def test_raw_vector_add_as_the_tutorial(dev, rng):
    n = 100_003
    ha = rng.standard_normal(n).astype(np.float32)
    hb = rng.standard_normal(n).astype(np.float32)
    a, b = accel.asarray(ha, device=dev), accel.asarray(hb, device=dev)
    c = accel.zeros(n, np.float32, device=dev)
    k = accel.RawKernel(VECTOR_ADD, "vector_add")
    threads = 256
    k(((n + threads - 1) // threads,), (threads,), (a, b, c, n))
    assert np.array_equal(c.get(), ha + hb)  # an add is correctly rounded everywhere
    # The same kernel object on the CPU device agrees bit for bit.
    cpu = [accel.asarray(v, device="cpu") for v in (ha, hb)] + [accel.zeros(n, np.float32,
                                                                            device="cpu")]
    k(((n + 255) // 256,), (256,), (*cpu, np.int32(n)))
    assert np.array_equal(cpu[2].get(), c.get())


@pytest.mark.parametrize("dev", DEVICES)
def test_raw_module_multiply_them_and_a_2d_grid(dev, rng):
    mod = accel.RawModule(code=MODULE)
    ha = rng.standard_normal(400).astype(np.float32)
    hb = rng.standard_normal(400).astype(np.float32)
    dest = accel.empty(400, np.float32, device=dev)
    mul = mod.get_function("multiply_them")
    assert mod.get_function("multiply_them") is mul
    mul((1, 1), (400, 1, 1), (dest, accel.asarray(ha, device=dev), accel.asarray(hb, device=dev)))
    assert np.array_equal(dest.get(), ha * hb)
    rows, cols = 37, 70
    hm = rng.standard_normal((rows, cols))
    m = accel.asarray(hm, device=dev)
    mod.get_function("scale2d")(((cols + 15) // 16, (rows + 7) // 8), (16, 8), (m, 0.5, rows,
                                                                                   cols))
    want = hm * 0.5 + np.arange(rows)[:, None]
    assert np.max(ulp_distance(m.get(), want)) <= 1  # one product and one sum, maybe fused


@pytest.mark.parametrize("dev", DEVICES)
def test_raw_launch_errors(dev):
    k = accel.RawKernel(VECTOR_ADD, "vector_add")
    f = accel.ones(8, np.float32, device=dev)
    d = accel.ones(8, np.float64, device=dev)
    with pytest.raises(accel.DtypeMismatchError):
        k((1,), (8,), (f, d, f, 8))  # a float64 array for const float *
    with pytest.raises(accel.InvalidArgumentError):
        k((1,), (8,), (f, f, f))  # three arguments for four parameters
    with pytest.raises(accel.InvalidArgumentError):
        k((1,), (8,), (f, 1.0, f, 8))  # a scalar for a pointer
    with pytest.raises(accel.InvalidArgumentError):
        k((1,), (2048,), (f, f, f, 8))  # past CUDA's 1024 threads per block
    with pytest.raises(accel.InvalidArgumentError):
        k((1,), (0,), (f, f, f, 8))
    with pytest.raises(accel.InvalidArgumentError):
        k((1, 1, 1, 1), (8,), (f, f, f, 8))
    with pytest.raises(accel.DtypeMismatchError):
        k((1,), (8,), (f, f, f, 8.5))  # a float for int n
    for n in (np.int8(8), np.uint16(8), np.int16(8), np.uint64(8)):  # any integer, by value
        c = accel.zeros(8, np.float32, device=dev)
        k((1,), (8,), (f, f, c, n))
        assert np.array_equal(c.get(), np.full(8, 2, np.float32))
    with pytest.raises(accel.OutOfRangeError, match="does not fit"):
        k((1,), (8,), (f, f, f, np.uint64(2 ** 40)))
    with pytest.raises(TypeError):
        k((1,), (8,), f)
    with pytest.raises(accel.InvalidArgumentError):
        accel.RawKernel(VECTOR_ADD, "no_such_function")
    f.release()
    with pytest.raises(accel.ReleasedError):
        k((1,), (8,), (f, f, f, 8))


def test_raw_kernel_with_shared_memory_runs_on_the_cpu_twin():
    src = ("__global__ void rev(float *a)\n{\n  __shared__ float t[64];\n"
           "  t[threadIdx.x] = a[threadIdx.x];\n  __syncthreads();\n"
           "  a[threadIdx.x] = t[63 - threadIdx.x];\n}\n")
    k = accel.RawKernel(src, "rev")
    h = np.arange(64, dtype=np.float32)
    x = accel.asarray(h, device="cpu")
    k((1,), (64,), (x,))
    assert np.array_equal(x.get(), h[::-1])


def test_raw_kernel_dynamic_shared_memory_and_debug_launch():
    src = ("__global__ void rev(float *a, int n)\n{\n  extern __shared__ float t[];\n"
           "  t[threadIdx.x] = a[threadIdx.x];\n  __syncthreads();\n"
           "  a[threadIdx.x] = t[n - threadIdx.x];\n}\n")
    k = accel.RawKernel(src, "rev")
    h = np.arange(32, dtype=np.float32)
    x = accel.asarray(h, device="cpu")
    with pytest.raises(accel.AccelError) as e:
        k((1,), (32,), (x, 32), shared_mem=32 * 4, debug=True)
        x.get()
    assert e.value.status == "ACCEL_ERROR_KERNEL_FAULT"
    assert "out-of-bounds read of shared array t at line 6" in e.value.message
    assert "index 32" in e.value.message
    x = accel.asarray(h, device="cpu")
    k((1,), (32,), (x, 31), shared_mem=32 * 4, debug=True)
    assert np.array_equal(x.get(), h[::-1])


def test_kernels_outlive_a_shutdown_and_run_on_the_next_runtime():
    code = textwrap.dedent("""
        import numpy as np, accel
        k = accel.ElementwiseKernel("T x", "T y", "y = x * 2", "twice")
        r = accel.ReductionKernel("T x", "T y", "x", "a + b", "a", "0", "total")
        print(float(r(k(accel.asarray([1.0, 2.0], device="cpu")))))
        accel.shutdown()
        print(float(r(k(accel.asarray([3.0, 4.0], device="cpu")))))
        del k, r
    """)
    p = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["6.0", "14.0"]


def test_kernels_are_verified_and_in_the_placement_report():
    accel.report_enable(True)
    try:
        before = accel.verify_stats()
        with accel.verify("cpu", check_reference_device=True, fail=True):
            k = accel.ElementwiseKernel("T x", "T y", "y = x * 2 + 1", "verified_ew")
            y = k(accel.asarray(np.arange(100.0), device="cpu"))
            raw = accel.RawKernel("__global__ void inc(double *a)\n{ a[threadIdx.x] += 1.0; }",
                                  "inc")
            raw(1, 100, (y,))
            got = y.get()
        after = accel.verify_stats()
        assert after["checked"] >= before["checked"] + 2
        assert after["mismatches"] == before["mismatches"]
        assert np.array_equal(got, np.arange(100.0) * 2 + 2)
        rows = [r for r in accel.report().rows if r["op"] == "kernel"]
        assert rows and sum(r["ops"] for r in rows) >= 2
    finally:
        accel.report_enable(False)


def test_kernel_classes_document_their_call_and_errors():
    for cls in (accel.ElementwiseKernel, accel.ReductionKernel, accel.RawKernel):
        doc = cls.__doc__
        assert "Raises" in doc and "CompileError" in doc and "DtypeMismatchError" in doc, cls
    assert "grid" in accel.RawKernel.__doc__ and "block" in accel.RawKernel.__doc__
    assert "get_function" in accel.RawModule.__doc__


def test_raw_kernel_launch_caches_stay_correct_across_arrays_views_and_release():
    # The per-launch fast path caches each array's argument struct and the
    # converted grid/block: views, other arrays, lists and released arrays
    # must still be taken (or refused) as before.
    k = accel.RawKernel(r"""
    __global__ void twice(const double *x, double *y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = 2.0 * x[i];
    }""", "twice")
    h = np.arange(20.0)
    x = accel.asarray(h)
    for grid, block in [((1,), (32,)), ([1], [32]), (1, 32), ((1,), (32,))]:
        y = accel.zeros(20)
        k(grid, block, (x, y, 20))
        np.testing.assert_array_equal(y.get(), 2 * h)
    y = accel.zeros(20)
    k((1,), (32,), (x[10:], y, 10))  # a view: its own offset
    np.testing.assert_array_equal(y.get()[:10], 2 * h[10:])
    x.release()
    with pytest.raises(accel.ReleasedError):
        k((1,), (32,), (x, y, 20))
    with pytest.raises(accel.InvalidArgumentError):
        k((0,), (32,), (y, y, 1))


def test_reduction_kernel_over_no_rows():
    # Along the last axis of a (0, n) input: an empty result, as CuPy and
    # NumPy give (it raised ShapeMismatchError); (n, 0) gives the identity.
    r = accel.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "sum_rows")
    got = r(accel.empty((0, 3)), axis=-1)
    assert got.shape == (0,)
    np.testing.assert_array_equal(r(accel.empty((3, 0)), axis=-1).get(), np.zeros(3))
    np.testing.assert_array_equal(r(accel.asarray(np.arange(6.0).reshape(2, 3)), axis=-1).get(),
                                  [3.0, 12.0])


def test_raw_kernel_launch_dimensions_are_ints():
    # A float grid or block (1.5) was truncated to 1; NumPy ints are taken.
    k = accel.RawKernel("__global__ void inc(float *x, int n) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (i < n) x[i] += 1;\n}\n", "inc")
    x = accel.zeros(4, dtype=np.float32)
    k((np.int64(1),), (np.int32(4),), (x, np.int32(4)))
    k(1, 4, (x, np.int32(4)))
    np.testing.assert_array_equal(x.get(), np.full(4, 2, np.float32))
    for bad in ((1.5,), 1.5, ("a",), None):
        with pytest.raises(TypeError):
            k(bad, (4,), (x, np.int32(4)))
    np.testing.assert_array_equal(x.get(), np.full(4, 2, np.float32))
