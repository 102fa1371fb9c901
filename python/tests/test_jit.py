# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""@accel.cuda.jit: kernels written in Python, translated to accel's raw
kernels and run on the default device (the CPU twin here, NVRTC on a GPU),
checked against NumPy and plain Python loops."""
import inspect
import math
import shutil
import subprocess

import numpy as np
import pytest

import accel
from accel import cuda

SCALE = 3
LIMIT = 2.5
NOT_A_CONSTANT = [1, 2, 3]
HOST_ARRAY = np.zeros(4)


@cuda.jit
def vector_add(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        c[i] = a[i] + b[i]


@cuda.jit
def add_2d(a, b, c):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        c[i, j] = a[i, j] * SCALE + b[i, j]


@cuda.jit
def scale_3d(a, out, f):
    i, j, k = cuda.grid(3)
    n0, n1, n2 = a.shape
    if i < n0 and j < n1 and k < n2:
        out[i, j, k] = a[i, j, k] * f + a.ndim


@cuda.jit
def row_stats(a, sums, counts):
    """Per row: the sum of the elements below LIMIT (while/for/break/continue)."""
    r = cuda.grid(1)
    if r >= a.shape[0]:
        return
    s = 0.0
    n = 0
    j = 0
    while True:
        if j >= a.shape[1]:
            break
        x = a[r, j]
        j += 1
        if x >= LIMIT:
            continue
        elif x < 0:
            s -= x
        else:
            s += x
        n += 1
    sums[r] = s
    counts[r] = n


@cuda.jit
def math_funcs(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = math.sqrt(v)
        out[i, 1] = math.exp(-v)
        out[i, 2] = math.log(v + 1.0)
        out[i, 3] = math.sin(v) + math.cos(v)
        out[i, 4] = math.tanh(v - 1)
        out[i, 5] = math.fabs(v - 2.0)
        out[i, 6] = math.floor(v * 3) + math.ceil(-v)
        out[i, 7] = math.pow(v, 1.5) + v ** 2
        out[i, 8] = math.pi * v if not math.isnan(v) else -1.0
        out[i, 9] = max(v, 1.0) - min(v, 2.0) + abs(-v)


@cuda.jit
def int_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = (x << 2) ^ (y & 7) | 1
        out[i, 3] = x ** 3 if x < 100 else -x
        out[i, 4] = 1 if (0 < x <= 50 or y == -3) else 0
        out[i, 5] = int(x / y * 10)


@cuda.jit
def strided_loop(a, out, start, step):
    i = cuda.grid(1)
    if i == 0:
        total = 0
        for k in range(start, a.size, step):
            total += a[k]
        for k in range(a.size - 1, -1, -step):
            total += k
        out[0] = total
        out[1] = a[-1]


@cuda.jit
def saxpy(out, x, y, alpha):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.size:
        out[i] = np.float32(alpha) * x[i] + y[i]
        i += stride


@cuda.jit
def block_ids(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = cuda.threadIdx.x
        out[i, 1] = cuda.blockIdx.x
        out[i, 2] = cuda.blockDim.x
        out[i, 3] = cuda.gridDim.x


@cuda.jit
def shared_sum(a, out):
    buf = cuda.shared.array(256, dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, buf[0])


@cuda.jit
def local_reverse(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        tmp = cuda.local.array(4, np.float64)
        for k in range(4):
            tmp[k] = a[i, k]
        for k in range(4):
            out[i, k] = tmp[3 - k]


def test_vector_add_matches_numpy(rng):
    n = 1000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_c = cuda.device_array_like(a)
    vector_add[(n + 255) // 256, 256](d_a, d_b, d_c)
    assert np.array_equal(d_c.copy_to_host(), a + b)
    # Host arrays go to the device and back, as Numba does.
    c = np.zeros(n, np.float32)
    vector_add[(n + 127) // 128, 128](a, b, c)
    assert np.array_equal(c, a + b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_2d_grid_and_dtypes(rng, dtype):
    a = (rng.standard_normal((37, 19)) * 10).astype(dtype)
    b = (rng.standard_normal((37, 19)) * 10).astype(dtype)
    c = cuda.device_array(a.shape, dtype)
    add_2d[(5, 3), (8, 8)](cuda.to_device(a), cuda.to_device(b), c)
    # SCALE is a Python int (int64): float32 * int64 computes in float64, as
    # NumPy's and Numba's promotion; int32 in int64, stored back as int32.
    wide = np.float64 if np.dtype(dtype).kind == "f" else np.int64
    ref = (a.astype(wide) * 3 + b.astype(wide)).astype(dtype)
    assert np.array_equal(c.copy_to_host(), ref)


def test_3d_and_scalar_argument(rng):
    a = rng.standard_normal((5, 6, 7))
    out = cuda.device_array(a.shape)
    scale_3d[(2, 2, 2), (4, 4, 4)](cuda.to_device(a), out, 0.5)
    assert np.array_equal(out.copy_to_host(), a * 0.5 + 3)


def test_control_flow_and_inferred_locals(rng):
    a = np.round(rng.standard_normal((33, 17)) * 3, 1)
    sums = cuda.device_array(33)
    counts = cuda.device_array(33, np.int32)
    row_stats[2, 32](cuda.to_device(a), sums, counts)
    ref_s, ref_n = np.zeros(33), np.zeros(33, np.int32)
    for r in range(33):  # the same loop in plain Python
        for x in a[r]:
            if x >= LIMIT:
                continue
            ref_s[r] += -x if x < 0 else x
            ref_n[r] += 1
    assert np.allclose(sums.copy_to_host(), ref_s, rtol=1e-14, atol=1e-14)
    assert np.array_equal(counts.copy_to_host(), ref_n)


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 2e-6), (np.float64, 1e-14)])
def test_math_functions(rng, dtype, rtol):
    x = rng.uniform(0.1, 4.0, 300).astype(dtype)
    out = cuda.device_array((300, 10), dtype)
    math_funcs[3, 128](cuda.to_device(x), out)
    x64 = x.astype(np.float64)
    # Python floats (float64) promote float32 to float64, as in Numba.
    ref = np.stack([np.sqrt(x64) if dtype == np.float64 else np.sqrt(x).astype(np.float64),
                    np.exp(-x64), np.log(x64 + 1.0), np.sin(x) + np.cos(x), np.tanh(x64 - 1),
                    np.abs(x64 - 2.0), np.floor(x64 * 3) + np.ceil(-x64),
                    np.power(x, 1.5) + x64 ** 2, np.pi * x64,
                    np.maximum(x64, 1.0) - np.minimum(x64, 2.0) + x64], axis=1)
    got = out.copy_to_host().astype(np.float64)
    assert np.allclose(got, ref, rtol=rtol, atol=rtol)


def test_integer_semantics_follow_python(rng):
    a = rng.integers(-200, 200, 500).astype(np.int64)
    b = rng.integers(-9, 9, 500).astype(np.int64)
    b[b == 0] = -3
    out = cuda.device_array((500, 6), np.int64)
    int_ops[4, 128](cuda.to_device(a), cuda.to_device(b), out)
    ref = np.array([[x // y, x % y, (x << 2) ^ (y & 7) | 1, x ** 3 if x < 100 else -x,
                     1 if (0 < x <= 50 or y == -3) else 0, int(x / y * 10)]
                    for x, y in zip(a.tolist(), b.tolist())])
    assert np.array_equal(out.copy_to_host(), ref)


def test_range_steps_and_negative_index():
    a = np.arange(20, dtype=np.int64) * 3
    out = cuda.device_array(2, np.int64)
    strided_loop[1, 1](cuda.to_device(a), out, 2, 3)
    want = sum(a[2::3]) + sum(range(19, -1, -3))
    assert out.copy_to_host().tolist() == [want, a[-1]]


def test_grid_stride_loop_and_numpy_scalar(rng):
    x = rng.standard_normal(5000).astype(np.float32)
    y = rng.standard_normal(5000).astype(np.float32)
    out = cuda.device_array_like(x)
    saxpy[4, 64](out, cuda.to_device(x), cuda.to_device(y), np.float32(2.5))
    assert np.array_equal(out.copy_to_host(), np.float32(2.5) * x + y)


def test_thread_and_block_indices():
    out = cuda.device_array((70, 4), np.int32)
    block_ids[3, 32](out)
    i = np.arange(70)
    assert np.array_equal(out.copy_to_host(), np.stack([i % 32, i // 32, np.full(70, 32),
                                                        np.full(70, 3)], axis=1))


def test_specialised_and_cached_per_signature(rng):
    k = cuda.jit(vector_add.py_func)
    for dt in (np.float32, np.float64, np.float32):
        a = rng.standard_normal(10).astype(dt)
        c = cuda.device_array_like(a)
        k[1, 16](cuda.to_device(a), cuda.to_device(a), c)
        assert np.array_equal(c.copy_to_host(), a + a)
    assert len(k._specs) == 2
    src = k.inspect_source(cuda.device_array(3, np.float64), cuda.device_array(3, np.float64),
                           cuda.device_array(3, np.float64))
    assert "double *v_a" in src and "__global__ void vector_add" in src


def test_verify_mode_checks_jit_kernels(rng):
    a = rng.standard_normal(300)
    d_a = cuda.to_device(a)
    c = cuda.device_array_like(a)
    before = accel.verify_stats()
    with accel.verify("cpu", check_reference_device=True, fail=True):
        vector_add[3, 128](d_a, d_a, c)
        accel.synchronize()
    after = accel.verify_stats()
    # CPU against CPU: the kernel's launch is re-run on the reference and compared.
    assert after["checked"] > before["checked"]
    assert after["mismatches"] == before["mismatches"]
    assert np.array_equal(c.copy_to_host(), a + a)


def test_strided_layout_reads_strides(rng):
    # Layout "A" (strided arrays of the array layer): the kernel reads each
    # array's strides from its extra parameters. Run here on a transposed
    # view described by hand: shape (4, 6), strides (1, 4) over a (6, 4) array.
    from accel._jit_translate import ArrayType, Translator, parse_function

    def copy2d(a, out):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            out[i, j] = a[i, j]

    k = Translator(copy2d, parse_function(copy2d),
                   [ArrayType("float64", 2, "A"), ArrayType("float64", 2, "C")]).translate()
    assert [(e[1], e[2]) for e in k.extras if e[0] == 0] == [("d", 0), ("d", 1), ("t", 0),
                                                              ("t", 1)]
    host = rng.standard_normal((6, 4))
    src, out = accel.asarray(host), accel.empty((4, 6))
    vals = {("d", 0): 4, ("d", 1): 6, ("t", 0): 1, ("t", 1): 4}
    extras = [vals[(kind, n)] if arg == 0 else 6 for arg, kind, n in k.extras]
    accel.RawKernel(k.source, k.entry)((1, 1), (4, 6), (src, out, *extras))
    assert np.array_equal(out.get(), host.T)


# ------------------------------------------------------ CUDA-only constructs

def _cuda_syntax_check(source, tmp_path):
    # The CUDA text through a C++ compiler with CUDA's names declared: the
    # syntax and the types of what only a GPU runs here.
    shim = ("#include <math.h>\nstruct accel_u3 { unsigned x, y, z; };\n"
            "extern accel_u3 threadIdx, blockIdx, blockDim, gridDim;\n"
            "#define __global__\n#define __device__ static\n#define __shared__ static\n"
            "void __syncthreads();\nfloat atomicAdd(float *, float);\n"
            "double atomicAdd(double *, double);\nint atomicAdd(int *, int);\n"
            "unsigned long long atomicAdd(unsigned long long *, unsigned long long);\n")
    f = tmp_path / "k.cu.cpp"
    f.write_text(shim + 'extern "C" {\n' + source + "\n}\n")
    cxx = shutil.which("c++") or shutil.which("g++")
    assert cxx, "a C++ compiler (build-essential) is needed"
    r = subprocess.run([cxx, "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-variable",
                        str(f)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_shared_syncthreads_atomics_compile_to_cuda(tmp_path):
    a = cuda.device_array(512, np.float32)
    out = cuda.device_array(1, np.float32)
    src = shared_sum.inspect_source(a, out)
    assert "__shared__ float v_buf[256];" in src
    assert "__syncthreads();" in src and "atomicAdd(&v_out[" in src
    _cuda_syntax_check(src, tmp_path)
    for k, args in ((math_funcs, (cuda.device_array(3), cuda.device_array((3, 10)))),
                    (int_ops, (cuda.device_array(3, np.int64), cuda.device_array(3, np.int64),
                               cuda.device_array((3, 6), np.int64)))):
        _cuda_syntax_check(k.inspect_source(*args), tmp_path)


def test_shared_memory_kernel_runs_where_supported(rng):
    x = rng.standard_normal(1000).astype(np.float32)
    out = cuda.to_device(np.zeros(1, np.float32))
    try:
        shared_sum[4, 256](cuda.to_device(x), out)
        accel.synchronize()
    except accel.UnsupportedError as e:
        # The CPU twin refuses shared memory today: the message names it and
        # the Python line it comes from.
        assert accel.get_device().kind == "cpu"
        assert "__shared__" in str(e) and "test_jit.py" in str(e)
        return
    assert np.isclose(out.copy_to_host()[0], x.sum(dtype=np.float64), rtol=1e-4)


# ------------------------------------------------------------ bad input

def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, ln in enumerate(lines) if text in ln)


def k_list(a):
    x = [1, 2]
    a[0] = x[0]


def k_try(a):
    try:
        a[0] = 1
    except Exception:
        pass


def k_print(a):
    print(a[0])


def k_global_list(a):
    a[0] = NOT_A_CONSTANT[0]


def k_global_array(a):
    a[0] = HOST_ARRAY


def k_float_index(a):
    a[1.5] = 2


def k_return_value(a):
    return a[0]


def k_partial_index(a):
    a[0] = a[1]


def k_slice(a):
    a[0] = a[1:3]


def k_range_float(a):
    for i in range(0.5):
        a[0] = i


def k_undefined(a):
    a[0] = nowhere  # noqa: F821


@pytest.mark.parametrize("fn,marker,exc,words", [
    (k_list, "x = [1, 2]", accel.UnsupportedError, "a list"),
    (k_try, "try:", accel.UnsupportedError, "try/except"),
    (k_print, "print(a[0])", accel.UnsupportedError, "print"),
    (k_global_list, "NOT_A_CONSTANT", accel.DtypeMismatchError, "not a number constant"),
    (k_global_array, "HOST_ARRAY", accel.DtypeMismatchError, "not a number constant"),
    (k_float_index, "1.5", accel.DtypeMismatchError, "must be an integer"),
    (k_return_value, "return a[0]", accel.UnsupportedError, "returns nothing"),
    (k_slice, "1:3", accel.UnsupportedError, "a slice"),
    (k_range_float, "range(0.5)", accel.DtypeMismatchError, "must be an integer"),
    (k_undefined, "nowhere", accel.InvalidArgumentError, "'nowhere' is not defined"),
])
def test_unsupported_constructs_name_file_and_line(fn, marker, exc, words):
    k = cuda.jit(fn)
    a = cuda.device_array(4, np.float64)
    with pytest.raises(exc) as info:
        k[1, 1](a)
    e = info.value
    assert isinstance(e, accel.AccelError)
    assert words in str(e)
    assert e.line == _line_of(fn, marker) and e.filename.endswith("test_jit.py")
    assert f"test_jit.py:{e.line}" in str(e)


def test_kind_of_python_exception():
    assert issubclass(accel.UnsupportedError, NotImplementedError)
    assert issubclass(accel.DtypeMismatchError, TypeError)
    k = cuda.jit(k_partial_index)
    with pytest.raises(accel.UnsupportedError, match="index every dimension"):
        k[1, 1](cuda.device_array((2, 2)))


def test_launch_configuration_errors():
    a = cuda.device_array(4, np.float32)
    with pytest.raises(ValueError, match="2048 threads per block"):
        vector_add[1, 2048](a, a, a)
    with pytest.raises(ValueError, match="1088 threads per block"):
        vector_add[1, (32, 34)](a, a, a)
    with pytest.raises(accel.InvalidArgumentError, match="dimension z is 65"):
        vector_add[1, (1, 1, 65)](a, a, a)
    with pytest.raises(ValueError, match="outside 1"):
        vector_add[0, 32](a, a, a)
    with pytest.raises(TypeError, match="3 arguments expected, 2 given"):
        vector_add[1, 32](a, a)
    with pytest.raises(accel.InvalidArgumentError, match=r"\[blocks, threads\]"):
        vector_add(a, a, a)
    with pytest.raises(TypeError, match="argument 2 is str"):
        vector_add[1, 32](a, a, "c")
    with pytest.raises(accel.DtypeMismatchError, match="float16"):
        h = accel.empty(4, dtype=np.float16)
        vector_add[1, 32](h, h, h)
    with pytest.raises(accel.UnsupportedError, match="device functions"):
        cuda.jit(device=True)


def test_local_array_per_thread(rng):
    a = rng.standard_normal((50, 4))
    out = cuda.device_array_like(a)
    local_reverse[2, 32](cuda.to_device(a), out)
    assert np.array_equal(out.copy_to_host(), a[:, ::-1])


@cuda.jit(debug=True)
def vector_add_debug(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        c[i] = a[i] + b[i]


@cuda.jit(debug=True)
def shifted_write(a, c):
    i = cuda.grid(1)
    if i < a.size:
        c[i + 1] = a[i] * 2  # off by one: the last thread writes past the end


def test_debug_launch_of_correct_kernel_matches_numpy(rng):
    n = 1000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    d_c = cuda.device_array_like(a)
    vector_add_debug[(n + 255) // 256, 256](cuda.to_device(a), cuda.to_device(b), d_c)
    accel.synchronize()
    assert np.array_equal(d_c.copy_to_host(), a + b)
    c = np.zeros(n, np.float32)  # host arrays too
    vector_add_debug[(n + 127) // 128, 128](a, b, c)
    assert np.array_equal(c, a + b)


def test_debug_launch_reports_out_of_bounds_write():
    n = 64
    a = cuda.to_device(np.arange(n, dtype=np.float32))
    c = cuda.device_array(n, np.float32)
    with pytest.raises(accel.AccelError) as e:
        shifted_write[2, 32](a, c)
        accel.synchronize()
    assert e.value.status == "ACCEL_ERROR_KERNEL_FAULT"
    msg = e.value.message
    assert "kernel shifted_write" in msg
    assert "out-of-bounds write of argument c " in msg  # the Python name, not v_c
    assert f"index {n} outside [0, {n})" in msg
    assert "block (1, 0, 0) thread (31, 0, 0)" in msg
    # The Python line of the faulting statement.
    line = inspect.getsourcelines(shifted_write.py_func)[1] + 4
    assert f"test_jit.py:{line}" in msg
    # With room for the shifted write, the same debug launch raises nothing.
    ok = cuda.to_device(np.zeros(n + 1, np.float32))
    shifted_write[2, 32](a, ok)
    assert np.array_equal(ok.copy_to_host()[1:], np.arange(n, dtype=np.float32) * 2)


def test_an_atomic_the_subset_lacks_is_named():
    @cuda.jit
    def k(res, x):
        i = cuda.grid(1)
        if i < x.size:
            cuda.atomic.max(res, 0, x[i])

    with pytest.raises(NotImplementedError, match=r"cuda\.atomic\.max: kernels take"):
        k[1, 32](cuda.to_device(np.zeros(1, np.float32)), cuda.to_device(np.ones(32, np.float32)))


def test_python_semantics_of_loops_floor_division_uint8_and_or():
    # A helper's finds, each a silent difference from running the function
    # in Python on NumPy values: the loop variable after a loop (it was the
    # stop), an assignment to it in the body (it changed the iterations),
    # float // (floor(a / b): 7.0 // 0.1 gave 70), uint8 arithmetic (not
    # wrapped), `a or b` of numbers (0 or 1), INT64_MIN // -1 (a trap), a
    # step that is 0 at run time (the loop never ended: now no iterations).
    from accel import cuda

    @cuda.jit
    def loops(a, out):
        i = cuda.grid(1)
        if i < out.size:
            k = 0
            for k in range(a[i]):
                pass
            c = 0
            for j in range(10):
                j += 3
                c += 1
            out[i] = k * 100 + c + j

    a = np.array([3, 5, 0, 2], np.int64)
    out = np.zeros(4, np.int64)
    loops[1, 32](a, out)
    np.testing.assert_array_equal(out, [2 * 100 + 22, 4 * 100 + 22, 22, 100 + 22])

    @cuda.jit
    def divs(a, b, q, r):
        i = cuda.grid(1)
        if i < q.size:
            q[i] = a[i] // b[i]
            r[i] = a[i] % b[i]

    fa = np.array([7.0, 1.0, -7.0, 5.0, 1.0, -0.5])
    fb = np.array([0.1, 0.1, 2.0, -3.0, 0.0, 3.0])
    q, r = np.zeros(6), np.zeros(6)
    divs[1, 32](fa, fb, q, r)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(q, np.floor_divide(fa, fb))
        np.testing.assert_array_equal(np.isnan(r), np.isnan(np.mod(fa, fb)))
    ia = np.array([-2**63, 7, -7], np.int64)
    ib = np.array([-1, -1, 2], np.int64)
    iq, ir = np.zeros(3, np.int64), np.zeros(3, np.int64)
    divs[1, 32](ia, ib, iq, ir)
    np.testing.assert_array_equal(iq, [-2**63, -7, -4])
    np.testing.assert_array_equal(ir, [0, 0, 1])

    @cuda.jit
    def u8(a, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a[i] - b[i] + a[i] * a[i]

    ua, ub = np.array([1, 255, 16], np.uint8), np.array([2, 0, 1], np.uint8)
    out = np.zeros(3)
    u8[1, 32](ua, ub, out)
    np.testing.assert_array_equal(out, (ua - ub + ua * ua).astype(float))

    @cuda.jit
    def boolops(a, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = (a[i] or 7) * 10 + (a[i] and 2)

    a = np.array([0, 3, 0, 5], np.int64)
    out = np.zeros(4, np.int64)
    boolops[1, 32](a, out)
    np.testing.assert_array_equal(out, [(int(v) or 7) * 10 + (int(v) and 2) for v in a])

    @cuda.jit
    def steps(s, out):
        i = cuda.grid(1)
        if i < out.size:
            c = 0
            for j in range(10, 0, s):
                c += 1
            out[i] = c

    out = np.zeros(1, np.int64)
    steps[1, 32](-3, out)
    assert out[0] == len(range(10, 0, -3))
    steps[1, 32](0, out)
    assert out[0] == 0
