// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The accel authors
// sort.cc — ACCEL_OP_SORT and ACCEL_OP_ARGSORT on the CPU, behind one
// extern "C" call (accel_cpu__sort, cpu.h): the classic LSD radix sort
// (Knuth, TAOCP vol. 3, 5.2.5, radix sorting: one stable counting
// distribution per 8-bit digit, least significant digit first), O(n) per
// line. One read of a line makes its keys and counts every digit; a pass
// is skipped where every key has the same digit (small integers).
//
// The order is backend.h's: floats as NumPy's sort (NaNs last, -0 == +0),
// ties kept in their original order, descending as the stable sort under
// the reversed comparison. Each value's bits map to an unsigned key of the
// same width whose unsigned order is that order: integers with the sign
// bit flipped; floats (f16, bf16, f32, f64) with negatives complemented
// and positives given the sign bit, -0 mapped to +0's key and every NaN
// to the all-ones key; complemented again for descending. Equal values
// get equal keys, so stability keeps ties, -0/+0 and NaNs (first when
// descending) in input order. Sort writes the values back from the sorted
// keys, except in a float line holding a -0 or a NaN, whose bits its key
// does not keep: such a line sorts (key, original bits) pairs instead.
// Argsort sorts (key, index) pairs, 32-bit indices where n fits. Lines
// under small_line elements (26 to 96 by key width) use an insertion sort
// on the same keys. Lines (m*k of them) run in parallel over the plugin's
// OpenMP team, one line to a thread; strided lines (k > 1) are read into
// and written from the scratch keys.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

extern "C" {
#include "cpu.h"
}

namespace
{

// 8-bit digits: 11-bit ones (3 passes for 32-bit keys, 6 for 64-bit) were
// no faster on one thread of the 2-core EPYC VM (2^22 keys: float32 56-59
// ms against 46-59, int64 151 against 120-136).
constexpr int digit_bits = 8;
constexpr size_t radix = size_t(1) << digit_bits;
template <typename U> constexpr int digits = int(8 * sizeof(U)) / digit_bits;

// Below this many elements a line is insertion-sorted: the radix sort's
// counts (256 per digit) cost more there. Measured crossovers: about 32
// elements for 16-bit keys, 48 for 32-bit, 90 for 64-bit.
template <typename U> constexpr size_t small_line = 16 + 10 * sizeof(U);

template <typename U> size_t digit(U key, int d)
{
    return size_t(key >> (d * digit_bits)) & (radix - 1);
}

enum class keys { unsigned_int, signed_int, ieee_float };

// A value's bits (U, unsigned) to its key and back (see the header).
template <typename U, keys K> struct key_map {
    static constexpr U sign = U(U(1) << (8 * sizeof(U) - 1));
    U inf;  // ieee_float: +inf's bits; larger magnitudes are NaNs
    U flip; // all ones when descending, else 0

    U key(U b) const
    {
        U k = b;
        if constexpr (K == keys::signed_int)
            k = U(b ^ sign);
        if constexpr (K == keys::ieee_float) {
            U mag = U(b & U(~sign));
            k = mag > inf ? U(~U(0)) : mag == 0 ? sign : (b & sign) ? U(~b) : U(b | sign);
        }
        return U(k ^ flip);
    }
    // The bits of the value whose key is k, for a line without -0 and NaN.
    U value(U k) const
    {
        k = U(k ^ flip);
        if constexpr (K == keys::signed_int)
            return U(k ^ sign);
        if constexpr (K == keys::ieee_float)
            return (k & sign) ? U(k ^ sign) : U(~k);
        return k;
    }
    // Whether value(key(b)) is not b: -0 and NaNs.
    bool lossy(U b) const
    {
        if constexpr (K == keys::ieee_float)
            return b == sign || U(b & U(~sign)) > inf;
        return false;
    }
};

// The payload of a keys-only sort.
struct none {
};

// Per-thread scratch that grows on demand, uninitialized (no zero fill).
template <typename T> struct grow {
    std::unique_ptr<T[]> p;
    size_t size = 0;
    T *at_least(size_t n)
    {
        if (n > size) {
            p.reset(); // the old buffer first: a lower peak
            size = 0;  // and none, should new throw
            p.reset(new T[n]);
            size = n;
        }
        return p.get();
    }
};

// Two key buffers and two payload buffers (the distribution ping-pongs
// between them) and the digit counts.
template <typename U, typename P> struct scratch {
    grow<U> key[2];
    grow<P> val[2];
    grow<size_t> count;
};

// The keys of the n values k apart at x, into key; with count (else a
// small line), every digit of every key counted there. True when a value's
// bits are not its key's value (a -0 or a NaN).
template <typename U, keys K>
bool make_keys(const U *x, size_t n, size_t k, key_map<U, K> m, U *key, size_t *count)
{
    bool lossy = false;
    if (count)
        std::fill(count, count + digits<U> * radix, size_t(0));
    for (size_t j = 0; j < n; j++) {
        U b = x[j * k];
        lossy |= m.lossy(b);
        key[j] = m.key(b);
        if (count)
            for (int d = 0; d < digits<U>; d++)
                count[d * radix + digit(key[j], d)]++;
    }
    return lossy;
}

// One stable counting distribution by digit d (TAOCP 5.2.5): each key of
// from, and its payload, to the next slot of its digit in to (at: each
// digit's next slot).
template <typename U, typename P>
void distribute(const U *from, U *to, const P *val_from, P *val_to, size_t n, int d, size_t *at)
{
    for (size_t j = 0; j < n; j++) {
        size_t i = at[digit(from[j], d)]++;
        to[i] = from[j];
        if constexpr (!std::is_same_v<P, none>)
            val_to[i] = val_from[j];
    }
}

// key[0][0..n) sorted stably, val[0] alongside, by the digits counted in
// count; returns the index (0 or 1) of the buffers holding the result.
template <typename U, typename P> int radix_sort(U *key[2], P *val[2], size_t n, size_t *count)
{
    int cur = 0;
    for (int d = 0; d < digits<U>; d++) {
        size_t *at = count + d * radix;
        if (at[digit(key[cur][0], d)] == n)
            continue; // every key has the same digit d
        size_t start = 0;
        for (size_t v = 0; v < radix; v++)
            start += std::exchange(at[v], start);
        distribute(key[cur], key[1 - cur], val[cur], val[1 - cur], n, d, at);
        cur = 1 - cur;
    }
    return cur;
}

// key[0..n) sorted stably by straight insertion, val alongside.
template <typename U, typename P> void insertion_sort(U *key, P *val, size_t n)
{
    for (size_t j = 1; j < n; j++) {
        U k = key[j];
        P v{};
        if constexpr (!std::is_same_v<P, none>)
            v = val[j];
        size_t i = j;
        for (; i > 0 && key[i - 1] > k; i--) {
            key[i] = key[i - 1];
            if constexpr (!std::is_same_v<P, none>)
                val[i] = val[i - 1];
        }
        key[i] = k;
        if constexpr (!std::is_same_v<P, none>)
            val[i] = v;
    }
}

// The n keys in key[0] sorted, val[0] alongside: radix with count, else
// (a small line) insertion; returns the index of the buffers holding them.
template <typename U, typename P> int sort_keys(U *key[2], P *val[2], size_t n, size_t *count)
{
    if (count)
        return radix_sort(key, val, n, count);
    insertion_sort(key[0], val[0], n);
    return 0;
}

// A line's buffers from s: keys for n elements, the second key buffer and
// the counts only for a radix sort (n >= small_line<U>); payloads on demand.
template <typename U, typename P> struct line_buffers {
    scratch<U, P> &s;
    size_t n;
    U *key[2];
    P *val[2] = {nullptr, nullptr};
    size_t *count = nullptr;
    line_buffers(scratch<U, P> &s_, size_t n_) : s(s_), n(n_)
    {
        key[0] = s.key[0].at_least(n);
        key[1] = n >= small_line<U> ? s.key[1].at_least(n) : nullptr;
        if (n >= small_line<U>)
            count = s.count.at_least(digits<U> * radix);
    }
    void with_payload()
    {
        val[0] = s.val[0].at_least(n);
        val[1] = count ? s.val[1].at_least(n) : nullptr;
    }
};

// One line: the n values k apart at x sorted into out (n values k apart;
// out may be x).
template <typename U, keys K>
void sort_line(const U *x, U *out, size_t n, size_t k, key_map<U, K> m, scratch<U, U> &s)
{
    line_buffers<U, U> b(s, n);
    if (!make_keys(x, n, k, m, b.key[0], b.count)) {
        none *no[2] = {nullptr, nullptr};
        const U *key = b.key[sort_keys(b.key, no, n, b.count)];
        for (size_t j = 0; j < n; j++)
            out[j * k] = m.value(key[j]);
        return;
    }
    b.with_payload();
    for (size_t j = 0; j < n; j++)
        b.val[0][j] = x[j * k];
    const U *val = b.val[sort_keys(b.key, b.val, n, b.count)];
    for (size_t j = 0; j < n; j++)
        out[j * k] = val[j];
}

// One line's argsort: the indices 0..n-1 of the n values k apart at x,
// stably sorted by key, into out (n int64 k apart).
template <typename U, keys K, typename I>
void argsort_line(const U *x, int64_t *out, size_t n, size_t k, key_map<U, K> m, scratch<U, I> &s)
{
    line_buffers<U, I> b(s, n);
    b.with_payload();
    make_keys(x, n, k, m, b.key[0], b.count);
    for (size_t j = 0; j < n; j++)
        b.val[0][j] = I(j);
    const I *idx = b.val[sort_keys(b.key, b.val, n, b.count)];
    for (size_t j = 0; j < n; j++)
        out[j * k] = int64_t(idx[j]);
}

// line(o, i, scratch) for every line (o, i), o < m, i < k, in parallel, each
// thread with its own scratch S; false when scratch memory ran out.
template <typename S, typename Line> bool each_line(const accel_cpu_op *op, int threads, Line line)
{
    const size_t k = op->k;
    const long long lines = (long long)(op->m * k);
    bool ok = true;
#pragma omp parallel num_threads(lines > 1 ? threads : 1) reduction(&& : ok)
    {
        S scratch;
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

template <typename I, typename U, keys K>
bool argsort_all(const accel_cpu_op *op, int threads, key_map<U, K> m)
{
    const size_t n = op->n, k = op->k;
    const U *x = static_cast<const U *>(op->ptr[0]);
    int64_t *out = static_cast<int64_t *>(op->ptr[1]);
    return each_line<scratch<U, I>>(op, threads, [&](size_t o, size_t i, scratch<U, I> &s) {
        argsort_line(x + o * n * k + i, out + o * n * k + i, n, k, m, s);
    });
}

// Every line of x sorted into out (sort) or argsorted; inf: a float's +inf
// bits. False when scratch memory ran out.
template <typename U, keys K> bool sort_all(const accel_cpu_op *op, int threads, U inf = 0)
{
    const size_t n = op->n, k = op->k;
    const bool desc = (op->flags & ACCEL_OP_FLAG_SORT_DESCENDING) != 0;
    const key_map<U, K> m{inf, desc ? U(~U(0)) : U(0)};
    if (op->op == ACCEL_OP_ARGSORT)
        return n <= UINT32_MAX ? argsort_all<uint32_t>(op, threads, m)
                               : argsort_all<uint64_t>(op, threads, m);
    const U *x = static_cast<const U *>(op->ptr[0]);
    U *out = static_cast<U *>(op->ptr[1]);
    return each_line<scratch<U, U>>(op, threads, [&](size_t o, size_t i, scratch<U, U> &s) {
        sort_line(x + o * n * k + i, out + o * n * k + i, n, k, m, s);
    });
}

bool dispatch(const accel_cpu_op *op, int threads)
{
    switch (op->dtype) {
    case ACCEL_F32:
        return sort_all<uint32_t, keys::ieee_float>(op, threads, 0x7f800000u);
    case ACCEL_F64:
        return sort_all<uint64_t, keys::ieee_float>(op, threads, 0x7ff0000000000000u);
    case ACCEL_F16:
        return sort_all<uint16_t, keys::ieee_float>(op, threads, 0x7c00);
    case ACCEL_BF16:
        return sort_all<uint16_t, keys::ieee_float>(op, threads, 0x7f80);
    case ACCEL_BOOL:
    case ACCEL_U8:
        return sort_all<uint8_t, keys::unsigned_int>(op, threads);
    case ACCEL_I8:
        return sort_all<uint8_t, keys::signed_int>(op, threads);
    case ACCEL_I16:
        return sort_all<uint16_t, keys::signed_int>(op, threads);
    case ACCEL_U16:
        return sort_all<uint16_t, keys::unsigned_int>(op, threads);
    case ACCEL_I32:
        return sort_all<uint32_t, keys::signed_int>(op, threads);
    case ACCEL_U32:
        return sort_all<uint32_t, keys::unsigned_int>(op, threads);
    case ACCEL_I64:
        return sort_all<uint64_t, keys::signed_int>(op, threads);
    case ACCEL_U64:
        return sort_all<uint64_t, keys::unsigned_int>(op, threads);
    default:
        return false;
    }
}

} // namespace

extern "C" int32_t accel_cpu__sort(const accel_cpu_op *op, int threads, char *msg, size_t msg_size)
{
    size_t bytes = op->count[0] * accel_backend_dtype_size(op->dtype);
    if (bytes == 0)
        return ACCEL_SUCCESS;
    if (op->op == ACCEL_OP_SORT && op->n < 2) {
        if (op->ptr[0] != op->ptr[1])
            std::memcpy(op->ptr[1], op->ptr[0], bytes);
        return ACCEL_SUCCESS;
    }
    if (!dispatch(op, threads)) {
        std::snprintf(msg, msg_size, "%s: out of host memory for a sort line of %zu elements",
                      op->name, op->n);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    return ACCEL_SUCCESS;
}
