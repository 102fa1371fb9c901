/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/fft.c — the Array API's fft extension on views: fft, ifft,
 * rfft, irfft along one axis with n= and norm=, and fftfreq, rfftfreq.
 * A transform is one FFT op (accel_fft_segments: kissfft on the CPU, cuFFT
 * on CUDA) over a row-major block; a view that is not one (strided, or of
 * another length along the axis: NumPy's truncation and zero padding) is
 * staged through a contiguous temporary with the array copy, complex
 * elements moved as pairs of reals (the array functions take no complex
 * dtype yet). The frequencies are arange times 1/(d*n). */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* One transform call: which op, the direction, and the views. */
typedef struct fcall {
    const char *fn;
    accel_op_code op;
    bool inverse;
    accel_fft_norm norm;
    int64_t n;     /* the transform's length */
    int64_t lx;    /* x's length along the axis the op reads: n or n/2+1 */
    int64_t lo;    /* out's: n or n/2+1 */
    uint32_t axis; /* 0..ndim-1 */
    accel_buffer *tmp[2];
} fcall;

static bool is_complex(accel_dtype dt)
{
    return accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_COMPLEX;
}

static accel_dtype real_of(accel_dtype dt)
{
    return dt == ACCEL_C128 ? ACCEL_F64 : dt == ACCEL_C64 ? ACCEL_F32 : dt;
}

/* a's elements as reals: a complex view gets a last axis of 2 (real,
 * imaginary), its strides doubled; a real view is itself. */
static accel_status as_real(const char *fn, const accel_array *a, accel_array *r)
{
    *r = *a;
    if (!is_complex(a->dtype))
        return ACCEL_SUCCESS;
    if (a->ndim >= ACCEL_ARRAY_MAX_NDIM)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: a complex view of %u axes cannot be staged (the copy sees it as "
                           "reals with one more axis)",
                           fn, a->ndim);
    r->dtype = real_of(a->dtype);
    for (uint32_t d = 0; d < a->ndim; d++)
        r->strides[d] *= 2;
    r->shape[a->ndim] = 2;
    r->strides[a->ndim] = 1;
    r->ndim = a->ndim + 1;
    return ACCEL_SUCCESS;
}

/* dst = src for complex or real views of one shape (the strided copy). */
static accel_status copy_any(const char *fn, accel_queue *q, const accel_array *src,
                             const accel_array *dst)
{
    accel_array rs, rd;
    accel_status st = as_real(fn, src, &rs);
    if (st == ACCEL_SUCCESS)
        st = as_real(fn, dst, &rd);
    return st == ACCEL_SUCCESS ? accel_array_copy(q, &rs, &rd) : st;
}

/* A row-major temporary of a's dtype and shape, with len along axis. */
static accel_status temp_like(fcall *c, accel_queue *q, const accel_array *a, int64_t len,
                              accel_array *t, int slot)
{
    int64_t shape[ACCEL_ARRAY_MAX_NDIM], count = 1;
    bool over = false;
    for (uint32_t d = 0; d < a->ndim; d++) {
        shape[d] = d == c->axis ? len : a->shape[d];
        over |= __builtin_mul_overflow(count, shape[d], &count);
    }
    size_t bytes;
    if (over || __builtin_mul_overflow((size_t)count, accel_dtype_size(a->dtype), &bytes))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: a contiguous temporary with %lld elements along axis %u (n) "
                           "overflows the address space",
                           c->fn, (long long)len, c->axis);
    accel_status st = accel_buffer_create(accel_queue_device(q), bytes, &c->tmp[slot]);
    return st == ACCEL_SUCCESS ? accel_array_init(t, c->tmp[slot], a->dtype, a->ndim, shape) : st;
}

/* x as the op's input: itself when row-major with lx along the axis, else
 * a temporary holding x's first min(len, lx) elements along the axis and
 * zeros after them. */
static accel_status stage_in(fcall *c, accel_queue *q, const accel_array *x, accel_array *in)
{
    if (accel__array_row_major(x) && x->shape[c->axis] == c->lx) {
        *in = *x;
        return ACCEL_SUCCESS;
    }
    accel_status st = temp_like(c, q, x, c->lx, in, 0);
    accel_array rin, src = *x, dst = *in;
    int64_t keep = x->shape[c->axis] < c->lx ? x->shape[c->axis] : c->lx;
    src.shape[c->axis] = dst.shape[c->axis] = keep;
    if (st == ACCEL_SUCCESS && keep < c->lx)
        st = as_real(c->fn, in, &rin);
    if (st == ACCEL_SUCCESS && keep < c->lx)
        st = accel_array_full(q, &rin, 0.0);
    return st == ACCEL_SUCCESS ? copy_any(c->fn, q, &src, &dst) : st;
}

/* The scale of the transform: norm "backward" scales the inverse by 1/n,
 * "forward" the forward one, "ortho" both by 1/sqrt(n). */
static double scale_of(const fcall *c)
{
    double n = (double)c->n;
    if (c->norm == ACCEL_FFT_NORM_ORTHO)
        return 1.0 / sqrt(n);
    bool scaled = c->norm == ACCEL_FFT_NORM_BACKWARD ? c->inverse : !c->inverse;
    return scaled ? 1.0 / n : 1.0;
}

/* The slice of a row-major view's elements (in its own dtype). */
static accel_slice slice_of(const accel_array *a)
{
    int64_t count = 1;
    for (uint32_t d = 0; d < a->ndim; d++)
        count *= a->shape[d];
    size_t es = accel_dtype_size(a->dtype);
    return accel_slice_of(a->buffer, (size_t)(a->offset / es), (size_t)count);
}

/* Stage, one FFT op, copy back; temporaries given up in q's order. */
static accel_status transform(fcall *c, accel_queue *q, const accel_array *x,
                              const accel_array *out)
{
    size_t outer, inner;
    accel__array_around_axis(out, c->axis, &outer, &inner);
    if (outer * inner == 0)
        return ACCEL_SUCCESS;
    accel_array in, res = *out;
    accel_status st = stage_in(c, q, x, &in);
    bool direct = accel__array_row_major(out);
    if (st == ACCEL_SUCCESS && !direct)
        st = temp_like(c, q, out, c->lo, &res, 1);
    accel_dtype cdt = is_complex(out->dtype) ? out->dtype : x->dtype;
    if (st == ACCEL_SUCCESS)
        st = accel_fft_segments(q, c->op, cdt, outer, (size_t)c->n, inner, c->inverse, scale_of(c),
                                slice_of(&in), slice_of(&res));
    if (st == ACCEL_SUCCESS && !direct)
        st = copy_any(c->fn, q, &res, out);
    accel__array_temps_done(q, c->tmp, 2, st);
    return st;
}

/* Both views valid, on q's device, not overlapping; the dtypes the op
 * takes; the axis and n; out's shape. */
static accel_status check(fcall *c, accel_queue *q, const accel_array *x, int32_t axis,
                          const accel_array *out)
{
    accel__extent ex, eo;
    accel_status st = accel__array_check(c->fn, "x", x, &ex);
    if (st == ACCEL_SUCCESS)
        st = accel__array_check(c->fn, "out", out, &eo);
    if (st == ACCEL_SUCCESS)
        st = accel__array_out_check(c->fn, "out", out);
    if (st == ACCEL_SUCCESS &&
        (!accel_queue_device(q) || accel_buffer_device(x->buffer) != accel_queue_device(q) ||
         accel_buffer_device(out->buffer) != accel_queue_device(q)))
        st = accel__fail(accel_queue_device(q) ? ACCEL_ERROR_DEVICE_MISMATCH
                                               : ACCEL_ERROR_INVALID_HANDLE,
                         "%s: q is not a live queue, or x or out is on another device", c->fn);
    if (st != ACCEL_SUCCESS)
        return st;
    /* fft, ifft: complex to the same; rfft: real to complex; irfft: back */
    bool cx = c->op != ACCEL_OP_RFFT, co = c->op != ACCEL_OP_IRFFT;
    accel_dtype r = real_of(x->dtype);
    bool x_ok = (r == ACCEL_F32 || r == ACCEL_F64) && is_complex(x->dtype) == cx;
    accel_dtype want = !co ? r : r == ACCEL_F64 ? ACCEL_C128 : ACCEL_C64;
    if (!x_ok || out->dtype != want)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: x is %s and out %s; it takes %s x and gives %s of its precision",
                           c->fn, accel_dtype_name(x->dtype), accel_dtype_name(out->dtype),
                           cx ? "a complex64 or complex128" : "a float32 or float64",
                           co ? "complex" : "reals");
    int a = accel__array_axis(axis, x->ndim);
    if (a < 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: axis %d is out of range for %u axes",
                           c->fn, (int)axis, x->ndim);
    c->axis = (uint32_t)a;
    int64_t m = x->shape[a];
    if (c->n < 0 || (c->n == 0 && (c->op == ACCEL_OP_IRFFT ? m < 2 : m < 1)))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: n = %lld with %lld elements along axis %d: the transform needs a "
                           "length >= 1 (n 0 takes x's)",
                           c->fn, (long long)c->n, (long long)m, a);
    if (c->n == 0)
        c->n = c->op == ACCEL_OP_IRFFT ? 2 * (m - 1) : m;
    c->lx = c->op == ACCEL_OP_IRFFT ? c->n / 2 + 1 : c->n;
    c->lo = c->op == ACCEL_OP_RFFT ? c->n / 2 + 1 : c->n;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t d = 0; d < x->ndim; d++)
        shape[d] = (int)d == a ? c->lo : x->shape[d];
    st = accel__array_shape_is(c->fn, "out", out, x->ndim, shape);
    bool same;
    if (st == ACCEL_SUCCESS && accel__views_meet(x, &ex, out, &eo, &same))
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out overlaps x (no in-place FFT)",
                         c->fn);
    if (st == ACCEL_SUCCESS && (unsigned)c->norm > ACCEL_FFT_NORM_FORWARD)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: norm %d is not one of the three", c->fn,
                         (int)c->norm);
    return st;
}

static accel_status fft_any(const char *fn, accel_op_code op, bool inverse, accel_queue *q,
                            const accel_array *x, int64_t n, int32_t axis, accel_fft_norm norm,
                            const accel_array *out)
{
    fcall c = {fn, op, inverse, norm, n, 0, 0, 0, {NULL, NULL}};
    accel_status st = check(&c, q, x, axis, out);
    return st == ACCEL_SUCCESS ? transform(&c, q, x, out) : st;
}

accel_status accel_array_fft(accel_queue *q, const accel_array *x, int64_t n, int32_t axis,
                             accel_fft_norm norm, const accel_array *out)
{
    return fft_any("accel_array_fft", ACCEL_OP_FFT, false, q, x, n, axis, norm, out);
}

accel_status accel_array_ifft(accel_queue *q, const accel_array *x, int64_t n, int32_t axis,
                              accel_fft_norm norm, const accel_array *out)
{
    return fft_any("accel_array_ifft", ACCEL_OP_FFT, true, q, x, n, axis, norm, out);
}

accel_status accel_array_rfft(accel_queue *q, const accel_array *x, int64_t n, int32_t axis,
                              accel_fft_norm norm, const accel_array *out)
{
    return fft_any("accel_array_rfft", ACCEL_OP_RFFT, false, q, x, n, axis, norm, out);
}

accel_status accel_array_irfft(accel_queue *q, const accel_array *x, int64_t n, int32_t axis,
                               accel_fft_norm norm, const accel_array *out)
{
    return fft_any("accel_array_irfft", ACCEL_OP_IRFFT, true, q, x, n, axis, norm, out);
}

/* fftn/ifftn: one 1-D transform per axis of axes (in order), each into a
 * contiguous temporary of the shape so far (the last into out), s[i] the
 * length along axes[i]. The scales multiply to the n-D norm's (1/prod n,
 * or 1/sqrt(prod n) for ortho). Blocking (temporaries). */
static accel_status fftn_any(const char *fn, bool inverse, accel_queue *q, const accel_array *x,
                             uint32_t count, const int64_t *s, const int32_t *axes,
                             accel_fft_norm norm, const accel_array *out)
{
    accel_status st = accel__array_check(fn, "x", x, NULL);
    if (st == ACCEL_SUCCESS && !axes)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: axes is NULL", fn);
    if (st == ACCEL_SUCCESS && (count == 0 || count > x->ndim))
        st =
            accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                        "%s: count %u axes for x of %u dimensions (1 to ndim)", fn, count, x->ndim);
    if (st == ACCEL_SUCCESS)
        st = accel__array_check(fn, "out", out, NULL);
    if (st == ACCEL_SUCCESS)
        st = accel__array_out_check(fn, "out", out);
    int64_t want[ACCEL_ARRAY_MAX_NDIM]; /* out's shape, checked before any work */
    for (uint32_t d = 0; st == ACCEL_SUCCESS && d < x->ndim; d++)
        want[d] = x->shape[d];
    for (uint32_t i = 0; st == ACCEL_SUCCESS && i < count; i++) {
        int a = accel__array_axis(axes[i], x->ndim);
        if (a < 0)
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                             "%s: axes[%u] = %d is out of range for %u dimensions", fn, i,
                             (int)axes[i], x->ndim);
        else if (s && s[i] < 1)
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: s[%u] = %lld (a length >= 1)", fn,
                             i, (long long)s[i]);
        else if (s)
            want[a] = s[i];
    }
    if (st == ACCEL_SUCCESS)
        st = accel__array_shape_is(fn, "out", out, x->ndim, want);
    if (st == ACCEL_SUCCESS && out->dtype != x->dtype)
        st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: x is %s but out %s", fn,
                         accel_dtype_name(x->dtype), accel_dtype_name(out->dtype));
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array cur = *x, next = *out;
    accel_buffer *held[2] = {NULL, NULL};
    for (uint32_t i = 0; st == ACCEL_SUCCESS && i < count; i++) {
        int a = accel__array_axis(axes[i], x->ndim);
        int64_t len = s ? s[i] : cur.shape[a];
        if (i + 1 == count) {
            next = *out;
        } else {
            int64_t shape[ACCEL_ARRAY_MAX_NDIM], all = 1;
            bool over = false;
            for (uint32_t d = 0; d < cur.ndim; d++)
                over |=
                    __builtin_mul_overflow(all, shape[d] = (int)d == a ? len : cur.shape[d], &all);
            size_t bytes;
            accel__array_temps_done(q, &held[i % 2], 1, st); /* the one before cur */
            held[i % 2] = NULL;
            if (over ||
                __builtin_mul_overflow((size_t)(all ? all : 1), accel_dtype_size(x->dtype), &bytes))
                st = accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                                 "%s: the temporary after axes[%u] (s %lld) overflows the address "
                                 "space",
                                 fn, i, (long long)len);
            else
                st = accel_buffer_create(accel_queue_device(q), bytes, &held[i % 2]);
            if (st == ACCEL_SUCCESS)
                st = accel_array_init(&next, held[i % 2], x->dtype, cur.ndim, shape);
        }
        if (st == ACCEL_SUCCESS)
            st = fft_any(fn, ACCEL_OP_FFT, inverse, q, &cur, len, axes[i], norm, &next);
        cur = next;
    }
    accel__array_temps_done(q, held, 2, st);
    return st;
}

accel_status accel_array_fftn(accel_queue *q, const accel_array *x, uint32_t count,
                              const int64_t *s, const int32_t *axes, accel_fft_norm norm,
                              const accel_array *out)
{
    return fftn_any("accel_array_fftn", false, q, x, count, s, axes, norm, out);
}

accel_status accel_array_ifftn(accel_queue *q, const accel_array *x, uint32_t count,
                               const int64_t *s, const int32_t *axes, accel_fft_norm norm,
                               const accel_array *out)
{
    return fftn_any("accel_array_ifftn", true, q, x, count, s, axes, norm, out);
}

/* out[i] = i * val for i < split, (i - len) ... as NumPy's fftfreq: the
 * integers by arange (exact), then one multiplication by val. */
static accel_status freq(const char *fn, accel_queue *q, int64_t n, double d, bool half,
                         const accel_array *out)
{
    accel_status st = accel__array_check(fn, "out", out, NULL);
    if (st == ACCEL_SUCCESS)
        st = accel__array_out_check(fn, "out", out);
    if (st != ACCEL_SUCCESS)
        return st;
    if (n < 1 || !(d != 0) || !isfinite(d))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: n = %lld (>= 1) and d = %g (finite, nonzero)", fn, (long long)n, d);
    if (out->dtype != ACCEL_F32 && out->dtype != ACCEL_F64)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s (float32 or float64)", fn,
                           accel_dtype_name(out->dtype));
    /* n / 2 + (n & 1), not (n + 1) / 2: n may be INT64_MAX */
    int64_t len = half ? n / 2 + 1 : n, pos = half ? len : n / 2 + (n & 1);
    st = accel__array_shape_is(fn, "out", out, 1, &len);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array lo = *out, hi = *out, val;
    lo.shape[0] = pos;
    hi.shape[0] = len - pos;
    hi.offset += (uint64_t)(pos * out->strides[0]) * accel_dtype_size(out->dtype);
    accel_buffer *b = NULL;
    st = accel_array_arange(q, 0, (double)pos, 1, &lo);
    if (st == ACCEL_SUCCESS && len > pos)
        st = accel_array_arange(q, (double)-(n / 2), 0, 1, &hi);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(accel_queue_device(q), 8, &b);
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&val, b, out->dtype, 0, NULL);
    double v = 1.0 / ((double)n * d);
    if (st == ACCEL_SUCCESS)
        st = accel_array_full(q, &val, v);
    if (st == ACCEL_SUCCESS)
        st = accel_array_binary(q, ACCEL_ARRAY_MULTIPLY, out, &val, out);
    /* 1/(n d) finite in double but past float32's range (a tiny d): the
     * other bins are +-inf as NumPy's float64 result rounded, but bin 0
     * became 0 * inf = NaN; it is 0 (with v's sign: NumPy's 0 * v). Where
     * v itself is inf, NumPy's bin 0 is NaN too, and so it stays. */
    bool over = out->dtype == ACCEL_F32 && isfinite(v) && fabs(v) > FLT_MAX;
    accel_array zero = *out;
    zero.ndim = 0;
    if (st == ACCEL_SUCCESS && over)
        st = accel_array_full(q, &zero, copysign(0.0, v));
    accel__array_temps_done(q, &b, 1, st);
    return st;
}

accel_status accel_array_fftfreq(accel_queue *q, int64_t n, double d, const accel_array *out)
{
    return freq("accel_array_fftfreq", q, n, d, false, out);
}

accel_status accel_array_rfftfreq(accel_queue *q, int64_t n, double d, const accel_array *out)
{
    return freq("accel_array_rfftfreq", q, n, d, true, out);
}
