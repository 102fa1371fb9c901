// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The accel authors
// sort.cc — ACCEL_OP_SORT and ACCEL_OP_ARGSORT on the CPU through libstdc++'s std::stable_sort
// (a merge sort, O(n log n), stable), behind one extern "C" call
// (accel_cpu__sort, cpu.h). The order is backend.h's: floats as NumPy's sort
// (NaNs last, -0 == +0), ties kept in their original order, descending as
// the stable sort under the reversed comparison. Lines (m*k of them) run in
// parallel over the plugin's OpenMP team.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include <algorithm>

extern "C" {
#include "cpu.h"
}

namespace
{

// a < b in the ascending order, for a key type T (NaN last, -0 == +0).
template <typename T> struct asc_less {
    bool operator()(T a, T b) const
    {
        return a < b;
    }
};
template <typename T> struct float_less {
    bool operator()(T a, T b) const
    {
        return a < b || (!std::isnan(a) && std::isnan(b));
    }
};
template <> struct asc_less<float> : float_less<float> {
};
template <> struct asc_less<double> : float_less<double> {
};

// float16 and bfloat16 bits: sign-magnitude, NaN above every number, -0 == +0.
// nan_above: the magnitude bits above which a pattern is NaN (f16 0x7c00,
// bf16 0x7f80).
struct half_less {
    uint16_t nan_above;
    int rank(uint16_t h) const
    {
        int mag = h & 0x7fff;
        if (mag > nan_above)
            return 0x10000; // NaN
        return (h & 0x8000) ? -mag : mag;
    }
    bool operator()(uint16_t a, uint16_t b) const
    {
        return rank(a) < rank(b);
    }
};

template <typename T, typename Less> struct desc_of {
    Less less;
    bool operator()(T a, T b) const
    {
        return less(b, a);
    }
};

// One line: n elements k apart starting at p, sorted in place (through
// scratch when k > 1).
template <typename T, typename Less>
void sort_line(T *p, size_t n, size_t k, bool descending, Less less, std::vector<T> &scratch)
{
    T *v = p;
    if (k != 1) {
        scratch.resize(n);
        for (size_t j = 0; j < n; j++)
            scratch[j] = p[j * k];
        v = scratch.data();
    }
    if (descending)
        std::stable_sort(v, v + n, desc_of<T, Less>{less});
    else
        std::stable_sort(v, v + n, less);
    if (k != 1)
        for (size_t j = 0; j < n; j++)
            p[j * k] = scratch[j];
}

// One line's argsort: the indices 0..n-1 of the n keys k apart at p,
// stably sorted by key, into out (n int64 k apart).
template <typename T, typename Less>
void argsort_line(const T *p, int64_t *out, size_t n, size_t k, bool descending, Less less,
                  std::vector<int64_t> &scratch)
{
    scratch.resize(n);
    for (size_t j = 0; j < n; j++)
        scratch[j] = (int64_t)j;
    auto key_less = [&](int64_t a, int64_t b) {
        return descending ? less(p[(size_t)b * k], p[(size_t)a * k])
                          : less(p[(size_t)a * k], p[(size_t)b * k]);
    };
    std::stable_sort(scratch.begin(), scratch.end(), key_less);
    for (size_t j = 0; j < n; j++)
        out[j * k] = scratch[j];
}

// line(o, i, scratch) for every line (o, i), o < m, i < k, in parallel, each
// thread with its own scratch vector of S; false when scratch memory ran out.
template <typename S, typename Line> bool each_line(const accel_cpu_op *op, int threads, Line line)
{
    const size_t k = op->k;
    const long long lines = (long long)(op->m * k);
    bool ok = true;
#pragma omp parallel num_threads(lines > 1 ? threads : 1) reduction(&& : ok)
    {
        std::vector<S> scratch;
#pragma omp for schedule(dynamic, 1)
        for (long long l = 0; l < lines; l++) {
            try {
                line((size_t)l / k, (size_t)l % k, scratch);
            } catch (const std::bad_alloc &) {
                ok = false;
            }
        }
    }
    return ok;
}

// Every line of out: argsort's from x's keys, or sort's in place (out
// already holding x's values); false when scratch memory ran out.
template <typename T, typename Less> bool sort_all(const accel_cpu_op *op, int threads, Less less)
{
    const size_t n = op->n, k = op->k;
    const bool desc = (op->flags & ACCEL_OP_FLAG_SORT_DESCENDING) != 0;
    if (op->op == ACCEL_OP_ARGSORT) {
        const T *x = static_cast<const T *>(op->ptr[0]);
        int64_t *out = static_cast<int64_t *>(op->ptr[1]);
        return each_line<int64_t>(
            op, threads, [&](size_t o, size_t i, std::vector<int64_t> &scratch) {
                argsort_line<T>(x + o * n * k + i, out + o * n * k + i, n, k, desc, less, scratch);
            });
    }
    T *out = static_cast<T *>(op->ptr[1]);
    return each_line<T>(op, threads, [&](size_t o, size_t i, std::vector<T> &scratch) {
        sort_line<T>(out + o * n * k + i, n, k, desc, less, scratch);
    });
}

bool dispatch(const accel_cpu_op *op, int threads)
{
    switch (op->dtype) {
    case ACCEL_F32:
        return sort_all<float>(op, threads, asc_less<float>{});
    case ACCEL_F64:
        return sort_all<double>(op, threads, asc_less<double>{});
    case ACCEL_F16:
        return sort_all<uint16_t>(op, threads, half_less{0x7c00});
    case ACCEL_BF16:
        return sort_all<uint16_t>(op, threads, half_less{0x7f80});
    case ACCEL_BOOL:
    case ACCEL_U8:
        return sort_all<uint8_t>(op, threads, asc_less<uint8_t>{});
    case ACCEL_I8:
        return sort_all<int8_t>(op, threads, asc_less<int8_t>{});
    case ACCEL_I16:
        return sort_all<int16_t>(op, threads, asc_less<int16_t>{});
    case ACCEL_U16:
        return sort_all<uint16_t>(op, threads, asc_less<uint16_t>{});
    case ACCEL_I32:
        return sort_all<int32_t>(op, threads, asc_less<int32_t>{});
    case ACCEL_U32:
        return sort_all<uint32_t>(op, threads, asc_less<uint32_t>{});
    case ACCEL_I64:
        return sort_all<int64_t>(op, threads, asc_less<int64_t>{});
    case ACCEL_U64:
        return sort_all<uint64_t>(op, threads, asc_less<uint64_t>{});
    default:
        return false;
    }
}

} // namespace

extern "C" int32_t accel_cpu__sort(const accel_cpu_op *op, int threads, char *msg, size_t msg_size)
{
    size_t es = accel_backend_dtype_size(op->dtype);
    size_t bytes = op->count[0] * es;
    if (bytes == 0)
        return ACCEL_SUCCESS;
    if (op->op == ACCEL_OP_SORT && op->ptr[0] != op->ptr[1])
        std::memcpy(op->ptr[1], op->ptr[0], bytes);
    if (op->op == ACCEL_OP_SORT && op->n < 2)
        return ACCEL_SUCCESS;
    if (!dispatch(op, threads)) {
        std::snprintf(msg, msg_size, "%s: out of host memory for a sort line of %zu elements",
                      op->name, op->n);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    return ACCEL_SUCCESS;
}
