/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/elementwise.c — the elementwise calls of accel/array.h: check
 * the views, promote the dtypes, broadcast, refuse partial overlaps, coalesce
 * the dimensions, then launch the generated kernel (cache.c) through
 * accel_kernel_launch_grid, i.e. the op path of every op (fallback, verify,
 * trace, report). Nothing here knows a function's math: table.c does. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "kernels/kernels.h"

/* One call as the launcher sees it. */
typedef struct acall {
    const char *fn; /* the public function, for messages */
    accel_array_fn f;
    const accel__arow *row;
    uint32_t nin;
    const accel_array *a[4]; /* inputs, then out */
    const char *name[4];
    accel__extent ext[4];
    accel_runtime *rt;  /* the object */
    uint32_t cpu_units; /* q's device's workers when it is a CPU, else 0 */
    uint32_t nd;        /* after coalescing */
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    int64_t stride[4][ACCEL_ARRAY_MAX_NDIM];
} acall;

/* q's runtime (object), device (handle) and, on a CPU device, its workers
 * (0 elsewhere: cpu_units may be NULL), through a call of its own. */
static accel_status queue_info(const char *fn, accel_queue *q, accel_runtime **rt,
                               accel_device **dev, uint32_t *cpu_units)
{
    ACCEL__CALL(call);
    accel_queue *qo;
    ACCEL__TRY(accel__enter(&call, fn, q, ACCEL__T_QUEUE, "q", &qo));
    *rt = qo->dev->rt;
    *dev = qo->dev->handle;
    const accel_device_properties *p = &qo->dev->props;
    if (cpu_units)
        *cpu_units = p->kind == ACCEL_DEVICE_CPU && p->compute_units <= 1024 ? p->compute_units : 0;
    return ACCEL_SUCCESS;
}

/* ACCEL_ARRAY_WALK=grid[:B] or grid64[:B]: every device walks grid-stride,
 * as a GPU does, with at most B blocks (default 65535, at most 2^24): the tests run the
 * GPU's walk on the CPU that way, several elements per thread
 * (docs/config.md); grid64 also indexes in 64 bits where the elements and
 * offsets would fit an int (elementwise fits_int). Read once: the blocks
 * (0 when unset) and whether grid64 was asked for. */
static int64_t walk_setting(bool *wide)
{
    static _Atomic int64_t set = -1;
    int64_t v = atomic_load_explicit(&set, memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("ACCEL_ARRAY_WALK");
        v = 0;
        size_t k = e && strncmp(e, "grid64", 6) == 0 ? 6 : 4;
        if (e && strncmp(e, "grid", 4) == 0 && (e[k] == 0 || e[k] == ':')) {
            char *end = NULL;
            long long b = e[k] ? strtoll(e + k + 1, &end, 10) : 65535;
            if (e[k] && (end == e + k + 1 || *end || b < 1 || b > (1 << 24))) {
                accel__log(ACCEL_LOG_WARN,
                           "ACCEL_ARRAY_WALK=%s: B must be 1 to 2^24 blocks; 65535 taken", e);
                b = 65535;
            }
            v = b | (k == 6 ? (int64_t)1 << 32 : 0);
        } else if (e && *e) {
            accel__log(ACCEL_LOG_WARN,
                       "ACCEL_ARRAY_WALK=%s is not grid, grid:B, grid64 or grid64:B; ignored", e);
        }
        atomic_store_explicit(&set, v, memory_order_relaxed);
    }
    *wide = (v >> 32) != 0;
    return v & 0xffffffff;
}

int64_t accel__array_walk_grid(void)
{
    bool wide;
    return walk_setting(&wide);
}

uint32_t accel__array_blocks(int64_t items, int64_t most)
{
    int64_t b = (items + 255) / 256;
    return (uint32_t)(b < most ? (b > 0 ? b : 1) : most);
}

void accel__array_walk(uint32_t cpu_units, int64_t n, uint32_t *blocks, int64_t *chunk)
{
    int64_t grid = accel__array_walk_grid();
    *chunk = 0;
    if (grid || cpu_units == 0) {
        *blocks = accel__array_blocks(n, grid ? grid : 65535);
        return;
    }
    /* Chunks long enough that a thread's call and set-up are small beside
     * its loop: 256-thread blocks of n / (256 * blocks) elements each had
     * given a 1024-element add 1024 calls of one element (1.4 us of the
     * 4 us a call from Python on the 2-core VM). */
    const int64_t most = 4096 * (int64_t)cpu_units, least = 2048;
    int64_t chunks = (n + least - 1) / least;
    chunks = chunks < 1 ? 1 : chunks > most ? most : chunks;
    *blocks = (uint32_t)chunks;
    *chunk = (n + chunks - 1) / chunks;
}

accel_status accel__array_views_walk(const char *fn, accel_queue *q, uint32_t n,
                                     const accel_array *const *a, const char *const *names,
                                     accel__extent *ext, accel_runtime **rt, uint32_t *cpu_units)
{
    accel_device *dev;
    accel_status st = queue_info(fn, q, rt, &dev, cpu_units);
    for (uint32_t k = 0; st == ACCEL_SUCCESS && k < n; k++) {
        st = accel__array_check(fn, names[k], a[k], &ext[k]);
        if (st == ACCEL_SUCCESS && accel_buffer_device(a[k]->buffer) != dev)
            st = accel__fail(ACCEL_ERROR_DEVICE_MISMATCH,
                             "%s: %s.buffer is on another device than q", fn, names[k]);
    }
    return st;
}

/* The checks of accel__array_views but the dtype's: the elementwise
 * functions take complex views (the table's complex column says which). */
accel_status accel__array_views_any(const char *fn, accel_queue *q, uint32_t n,
                                    const accel_array *const *a, const char *const *names,
                                    accel__extent *ext, accel_runtime **rt)
{
    return accel__array_views_walk(fn, q, n, a, names, ext, rt, NULL);
}

accel_status accel__array_views(const char *fn, accel_queue *q, uint32_t n,
                                const accel_array *const *a, const char *const *names,
                                accel__extent *ext, accel_runtime **rt)
{
    accel_status st = accel__array_views_any(fn, q, n, a, names, ext, rt);
    for (uint32_t k = 0; st == ACCEL_SUCCESS && k < n; k++)
        if (accel_dtype_kind_of(a[k]->dtype) == ACCEL_DTYPE_KIND_COMPLEX)
            st = accel__fail(ACCEL_ERROR_UNSUPPORTED,
                             "%s: %s is %s: complex dtypes are not taken by this function yet", fn,
                             names[k], accel_dtype_name(a[k]->dtype));
    return st;
}

static const char *kinds_str(const accel__arow *r, char *buf, size_t cap)
{
    static const char *const names[ACCEL__AK_COUNT] = {"bool", "signed integers",
                                                       "unsigned integers", "floats", "complex"};
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < ACCEL__AK_COUNT; k++)
        if (r->e[k] && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", names[k]);
    return buf;
}

/* The compute dtype, the result dtype, and out's dtype checked against it. */
static accel_status check_dtypes(acall *c, accel__aspec *s)
{
    const accel_array *const *a = c->a;
    uint32_t first = c->f == ACCEL_ARRAY_WHERE ? 1 : 0;
    if (c->f == ACCEL_ARRAY_WHERE && a[0]->dtype != ACCEL_BOOL)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s is %s; the condition must be bool",
                           c->fn, c->name[0], accel_dtype_name(a[0]->dtype));
    accel_dtype ct = a[first]->dtype;
    for (uint32_t k = first + 1; k < c->nin; k++)
        accel_result_type(ct, a[k]->dtype, &ct);
    bool cplx = accel_dtype_kind_of(ct) == ACCEL_DTYPE_KIND_COMPLEX;
    if (c->f == ACCEL_ARRAY_ASTYPE && cplx &&
        accel_dtype_kind_of(a[1]->dtype) != ACCEL_DTYPE_KIND_COMPLEX)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: x is %s and out %s: complex to a real dtype is not permitted (the "
                           "Array API's astype; take real, imag or abs first)",
                           c->fn, accel_dtype_name(ct), accel_dtype_name(a[1]->dtype));
    char kinds[128];
    if (!c->row->e[accel__array_column(ct)] ||
        ((c->row->flags & ACCEL__AF_NOHALF) && (ct == ACCEL_F16 || ct == ACCEL_BF16)))
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s takes %s%s; the input%s %s%s", c->fn,
                           c->row->name, kinds_str(c->row, kinds, sizeof kinds),
                           c->row->flags & ACCEL__AF_NOHALF ? " (f32 and f64 only)" : "",
                           c->nin - first > 1 ? "s promote to" : " is", accel_dtype_name(ct),
                           cplx ? " (the Array API does not define it for complex)" : "");
    accel_dtype res = c->row->result == ACCEL_ARRAY_RESULT_BOOL  ? ACCEL_BOOL
                      : c->row->result == ACCEL_ARRAY_RESULT_OUT ? a[c->nin]->dtype
                      : c->row->result == ACCEL_ARRAY_RESULT_REAL && cplx
                          ? (ct == ACCEL_C64 ? ACCEL_F32 : ACCEL_F64)
                          : ct;
    if (a[c->nin]->dtype != res)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: %s is %s but %s gives %s here (cast with accel_array_astype)",
                           c->fn, c->name[c->nin], accel_dtype_name(a[c->nin]->dtype), c->row->name,
                           accel_dtype_name(res));
    memset(s, 0, sizeof *s);
    s->fn = c->f;
    s->row = c->row;
    s->nin = c->nin;
    for (uint32_t k = 0; k < c->nin; k++)
        s->in[k] = a[k]->dtype;
    s->out = res;
    s->ct = ct;
    s->icmp = c->f >= ACCEL_ARRAY_EQUAL && c->f <= ACCEL_ARRAY_GREATER_EQUAL && c->nin == 2 &&
              ((a[0]->dtype == ACCEL_I64 && a[1]->dtype == ACCEL_U64) ||
               (a[0]->dtype == ACCEL_U64 && a[1]->dtype == ACCEL_I64));
    return ACCEL_SUCCESS;
}

/* Out's shape is the broadcast shape of the inputs and out (NumPy's out=:
 * inputs broadcast to out, out never broadcasts); the strides of every
 * operand on out's axes (0 where an input broadcasts). */
static accel_status check_shapes(acall *c)
{
    uint32_t nd;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    accel_status st = accel__broadcast(c->fn, c->nin + 1, c->a, c->name, &nd, shape);
    if (st != ACCEL_SUCCESS)
        return st;
    const accel_array *o = c->a[c->nin];
    bool same = o->ndim == nd;
    for (uint32_t d = 0; same && d < nd; d++)
        same = o->shape[d] == shape[d];
    if (!same) {
        char s1[512], s2[512];
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %s has shape %s but the inputs broadcast to %s with it", c->fn,
                           c->name[c->nin], accel__shape_str(o->ndim, o->shape, s1, sizeof s1),
                           accel__shape_str(nd, shape, s2, sizeof s2));
    }
    c->nd = nd;
    memcpy(c->shape, shape, nd * sizeof *shape);
    for (uint32_t k = 0; k <= c->nin; k++) {
        const accel_array *a = c->a[k];
        for (uint32_t d = 0; d < nd; d++) {
            bool have = d >= nd - a->ndim;
            uint32_t i = have ? d - (nd - a->ndim) : 0;
            c->stride[k][d] = have && a->shape[i] != 1 ? a->strides[i] : 0;
        }
    }
    return ACCEL_SUCCESS;
}

/* An output meets an input only as exactly the same elements (in place). */
static accel_status check_overlap(const acall *c)
{
    const accel_array *o = c->a[c->nin];
    const accel__extent *eo = &c->ext[c->nin];
    size_t eso = accel_dtype_size(o->dtype);
    for (uint32_t k = 0; k < c->nin; k++) {
        const accel_array *x = c->a[k];
        bool same;
        if (!accel__views_meet(x, &c->ext[k], o, eo, &same))
            continue;
        size_t es = accel_dtype_size(x->dtype);
        uint64_t xlo = (uint64_t)c->ext[k].lo * es, xhi = (uint64_t)(c->ext[k].hi + 1) * es;
        uint64_t olo = (uint64_t)eo->lo * eso, ohi = (uint64_t)(eo->hi + 1) * eso;
        bool exact = es == eso && same;
        for (uint32_t d = 0; exact && d < c->nd; d++)
            exact = c->shape[d] == 1 || c->stride[k][d] == c->stride[c->nin][d];
        if (!exact)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s overlaps %s in the same memory other than element for "
                               "element (bytes [%llu, %llu) and [%llu, %llu) of their buffers); "
                               "in place needs the very same view, else copy first",
                               c->fn, c->name[c->nin], c->name[k], (unsigned long long)olo,
                               (unsigned long long)ohi, (unsigned long long)xlo,
                               (unsigned long long)xhi);
    }
    return ACCEL_SUCCESS;
}

/* Drop size-1 axes, merge an axis into the next when every operand steps
 * through both as one (NumPy's and TensorIterator's coalescing). */
static void coalesce(acall *c)
{
    uint32_t narr = c->nin + 1, n = 0;
    for (uint32_t d = 0; d < c->nd; d++) {
        if (c->shape[d] == 1)
            continue;
        bool merge = n > 0;
        for (uint32_t k = 0; merge && k < narr; k++)
            merge = c->stride[k][n - 1] == c->stride[k][d] * c->shape[d];
        if (merge) {
            c->shape[n - 1] *= c->shape[d];
            for (uint32_t k = 0; k < narr; k++)
                c->stride[k][n - 1] = c->stride[k][d];
            continue;
        }
        c->shape[n] = c->shape[d];
        for (uint32_t k = 0; k < narr; k++)
            c->stride[k][n] = c->stride[k][d];
        n++;
    }
    c->nd = n;
}

/* The most axes a strided kernel takes with narr arrays: its pointers,
 * bases, n, the chunk, nd-1 sizes and narr*nd strides within
 * ACCEL__KMAX_PARAMS. */
static uint32_t max_axes(uint32_t narr)
{
    return (31u - 2u * narr) / (narr + 1u);
}

/* The most blocks of a GPU walk's launch where no ACCEL_ARRAY_WALK caps
 * them (gridDim.x is below 2^31). */
#define WALK_BLOCKS_MOST 0x7fffffff

static accel_status launch(acall *c, accel_queue *q, accel_kernel *k, const accel__aspec *s,
                           const int64_t *base, int64_t n)
{
    uint32_t narr = c->nin + 1, na = 0;
    accel_kernel_arg args[32];
    for (uint32_t a = 0; a < narr; a++) {
        args[na++] = accel__extent_arg(c->a[a]->buffer, c->a[a]->dtype, &c->ext[a]);
    }
    uint32_t off = c->nd - s->nd; /* leading axes the host loops over */
    for (uint32_t a = 0; s->nd && a < narr; a++)
        args[na++] = accel_karg_i64(base[a] - c->ext[a].lo);
    /* runs (codegen.c, element_run): the kernel walks them as elements of
     * an inner axis ACCEL__ARRAY_RUN times shorter with strides that many
     * times longer */
    const int64_t r = s->run ? ACCEL__ARRAY_RUN : 1;
    uint32_t grid[3] = {1, 1, 1}, block[3] = {256, 1, 1};
    int64_t chunk = 0, items = n / r;
    if (s->tiled) { /* a block of 256 threads per 32 x 32 tile */
        int64_t cols = c->shape[off + 1], rows = n / cols;
        items = (rows + 31) / 32 * ((cols + 31) / 32) * 256;
    }
    /* tiles go a block each where no ACCEL_ARRAY_WALK caps the blocks */
    if (s->tiled && !accel__array_walk_grid())
        grid[0] = accel__array_blocks(items, WALK_BLOCKS_MOST);
    else
        accel__array_walk(c->cpu_units, items, &grid[0], &chunk);
    if (chunk)
        block[0] = 1; /* the CPU's walk: a thread a block (accel__array_walk) */
    args[na++] = accel_karg_i64(n / r);
    args[na++] = accel_karg_i64(chunk);
    for (uint32_t d = 1; d < s->nd; d++)
        args[na++] = accel_karg_i64(c->shape[off + d] / (d + 1 == s->nd ? r : 1));
    for (uint32_t a = 0; a < narr; a++)
        for (uint32_t d = 0; d < s->nd; d++)
            args[na++] = accel_karg_i64(c->stride[a][off + d] * (d + 1 == s->nd ? r : 1));
    return accel__kernel_launch_library(q, k, grid, block, n, na, args);
}

static char *source_of(const void *ctx)
{
    char entry[ACCEL__ANAME_MAX];
    return accel__array_codegen((const accel__aspec *)ctx, entry);
}

/* A copy of contiguous x into contiguous out of its dtype: the bytes, by
 * the backend's own copy (a device's copy engine, the CPU's memcpy) rather
 * than a kernel. Overlapping ranges (out exactly x) copy nothing. */
static accel_status copy_bytes(acall *c, accel_queue *q)
{
    size_t es = accel_dtype_size(c->a[0]->dtype), n = 1;
    for (uint32_t d = 0; d < c->nd; d++)
        n *= (size_t)c->shape[d];
    size_t from = (size_t)c->ext[0].base * es, to = (size_t)c->ext[1].base * es;
    bool same;
    if (n == 0 || (accel__views_meet(c->a[0], &c->ext[0], c->a[1], &c->ext[1], &same) && same))
        return ACCEL_SUCCESS;
    return accel_queue_copy(q, c->a[0]->buffer, from, c->a[1]->buffer, to, n * es);
}

/* Whether a launch over c's inner axes (from nd - inner) indexes in int:
 * the elements under 2^30 (an index plus a grid's step stays under 2^31)
 * and every array's offsets, the sum of (size - 1) |stride| over those
 * axes, under 2^30. */
static bool fits_int(const acall *c, uint32_t inner)
{
    bool wide;
    if (walk_setting(&wide) && wide)
        return false;
    const int64_t lim = (int64_t)1 << 30;
    int64_t n = 1;
    for (uint32_t d = c->nd - inner; d < c->nd; d++) {
        n *= c->shape[d];
        if (n >= lim)
            return false;
    }
    for (uint32_t a = 0; a <= c->nin; a++) {
        int64_t span = 0;
        for (uint32_t d = c->nd - inner; d < c->nd; d++) {
            span += (c->shape[d] - 1) * llabs(c->stride[a][d]);
            if (span >= lim)
                return false;
        }
    }
    return true;
}

/* Whether c's elements can run in runs of ACCEL__ARRAY_RUN along the inner
 * axis (codegen.c, element_run): real dtypes, an inner axis of a multiple
 * of that many elements, out and each input of inner stride 1 (every other
 * stride and the first element's offset a multiple of the run, so each run
 * starts aligned where the first does) or an input of inner stride 0 (bit
 * k of *bcast, written only when this answers true). A GPU's elementwise
 * kernel otherwise stores 4 bytes at a time: (16384,1)+(1,16384) float32
 * wrote 1 GiB at 0.56 of the bound on an H100 (docs/performance.md). */
static bool run_fits(const acall *c, const accel__aspec *s, uint8_t *bcast)
{
    uint32_t last = c->nd - 1;
    uint8_t b = 0;
    if (accel_dtype_kind_of(s->ct) == ACCEL_DTYPE_KIND_COMPLEX || c->shape[last] % ACCEL__ARRAY_RUN)
        return false;
    for (uint32_t a = 0; a <= c->nin; a++) {
        if (accel_dtype_kind_of(c->a[a]->dtype) == ACCEL_DTYPE_KIND_COMPLEX)
            return false;
        if (a < c->nin && c->stride[a][last] == 0) {
            b |= (uint8_t)(1u << a);
            continue;
        }
        if (c->stride[a][last] != 1 || c->ext[a].base % ACCEL__ARRAY_RUN)
            return false;
        for (uint32_t d = 0; d < last; d++)
            if (c->stride[a][d] % ACCEL__ARRAY_RUN)
                return false;
    }
    *bcast = b;
    return true;
}

/* Pick the variant, get its kernel, launch it (once per index of the
 * leading axes when there are more than a kernel takes). */
static accel_status run(acall *c, accel_queue *q, accel__aspec *s)
{
    uint32_t narr = c->nin + 1;
    bool contiguous = c->nd <= 1;
    for (uint32_t a = 0; contiguous && a < narr; a++)
        contiguous = c->nd == 0 || c->stride[a][0] == 1;
    if (contiguous && c->f == ACCEL_ARRAY_ASTYPE && c->a[0]->dtype == c->a[1]->dtype)
        return copy_bytes(c, q);
    uint32_t inner = c->nd < max_axes(narr) ? c->nd : max_axes(narr);
    bool gpu_walk = c->cpu_units == 0 || accel__array_walk_grid() != 0;
    /* runs of 4 along the inner axis (16-byte loads and stores) on a GPU
     * where the lengths and offsets allow, a contiguous line included, which
     * then walks as one axis: the plain variant moves 4-byte elements one at
     * a time (add int32 2^28 on an H100: 0.86 of the copy bound, where the
     * built-in float add's float4 loads read 1.04) */
    s->bcast = 0;
    bool runs = c->nd >= 1 && gpu_walk && run_fits(c, s, &s->bcast);
    s->nd = contiguous && !runs ? 0 : inner;
    /* the tiled walk: two axes on a GPU (or a CPU walking as one:
     * ACCEL_ARRAY_WALK=grid), an operand whose outer axis is its inner one
     * in memory (codegen.c, tile_walk) */
    s->tiled = false;
    s->stage = 0;
    for (uint32_t a = 0; s->nd == 2 && c->nd == 2 && gpu_walk && a < narr; a++) {
        bool other = c->stride[a][0] != 0 && c->stride[a][1] != 0 &&
                     llabs(c->stride[a][0]) < llabs(c->stride[a][1]);
        s->tiled |= other;
        if (other && a < c->nin && accel_dtype_kind_of(c->a[a]->dtype) != ACCEL_DTYPE_KIND_COMPLEX)
            s->stage |= (uint8_t)(1u << a);
    }
    s->idx32 = s->nd && gpu_walk && fits_int(c, inner);
    s->run = runs && !s->tiled;
    if (!s->run)
        s->bcast = 0;
    accel_kernel *k;
    char entry[ACCEL__ANAME_MAX];
    accel__array_entry(s, entry);
    bool cplx = accel_dtype_kind_of(s->ct) == ACCEL_DTYPE_KIND_COMPLEX;
    accel_status st = accel__array_kernel(c->rt, entry, source_of, s,
                                          cplx ? s->row->tol_cplx : s->row->tol_ulp, &k);
    if (st != ACCEL_SUCCESS)
        return st;
    int64_t base[4], n = 1, outer = 1;
    for (uint32_t d = 0; d < c->nd; d++) {
        if (d < c->nd - inner)
            outer *= c->shape[d];
        else
            n *= c->shape[d];
    }
    uint32_t lead = c->nd - inner;
    int64_t idx[ACCEL_ARRAY_MAX_NDIM] = {0};
    for (int64_t it = 0; it < outer; it++) {
        int64_t r = it;
        for (uint32_t d = lead; d-- > 0;) {
            idx[d] = r % c->shape[d];
            r /= c->shape[d];
        }
        for (uint32_t a = 0; a < narr; a++) {
            base[a] = c->ext[a].base;
            for (uint32_t d = 0; d < lead; d++)
                base[a] += idx[d] * c->stride[a][d];
        }
        st = launch(c, q, k, s, base, n);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    return ACCEL_SUCCESS;
}

static accel_status elementwise(acall *c, accel_queue *q)
{
    c->row = accel__array_row(c->f);
    if (!c->row || c->row->arity != c->nin)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: fn %d is %s", c->fn, (int)c->f,
                           c->row ? "of another arity (see accel_array_fn_info)" : "unknown");
    accel_status st =
        accel__array_views_walk(c->fn, q, c->nin + 1, c->a, c->name, c->ext, &c->rt, &c->cpu_units);
    if (st == ACCEL_SUCCESS)
        st = accel__array_out_check(c->fn, c->name[c->nin], c->a[c->nin]);
    accel__aspec s;
    if (st == ACCEL_SUCCESS)
        st = check_dtypes(c, &s);
    if (st == ACCEL_SUCCESS)
        st = check_shapes(c);
    if (st == ACCEL_SUCCESS)
        st = check_overlap(c);
    if (st != ACCEL_SUCCESS || c->ext[c->nin].count == 0)
        return st;
    coalesce(c);
    return run(c, q, &s);
}

accel_status accel_array_unary(accel_queue *q, accel_array_fn fn, const accel_array *x,
                               const accel_array *out)
{
    acall c = {.fn = "accel_array_unary", .f = fn, .nin = 1, .a = {x, out}, .name = {"x", "out"}};
    return elementwise(&c, q);
}

accel_status accel_array_binary(accel_queue *q, accel_array_fn fn, const accel_array *x1,
                                const accel_array *x2, const accel_array *out)
{
    acall c = {.fn = "accel_array_binary",
               .f = fn,
               .nin = 2,
               .a = {x1, x2, out},
               .name = {"x1", "x2", "out"}};
    return elementwise(&c, q);
}

accel_status accel_array_clip(accel_queue *q, const accel_array *x, const accel_array *lo,
                              const accel_array *hi, const accel_array *out)
{
    acall c = {.fn = "accel_array_clip",
               .f = ACCEL_ARRAY_CLIP,
               .nin = 3,
               .a = {x, lo, hi, out},
               .name = {"x", "lo", "hi", "out"}};
    return elementwise(&c, q);
}

accel_status accel_array_where(accel_queue *q, const accel_array *cond, const accel_array *x1,
                               const accel_array *x2, const accel_array *out)
{
    acall c = {.fn = "accel_array_where",
               .f = ACCEL_ARRAY_WHERE,
               .nin = 3,
               .a = {cond, x1, x2, out},
               .name = {"cond", "x1", "x2", "out"}};
    return elementwise(&c, q);
}

accel_status accel_array_astype(accel_queue *q, const accel_array *x, const accel_array *out)
{
    acall c = {.fn = "accel_array_astype",
               .f = ACCEL_ARRAY_ASTYPE,
               .nin = 1,
               .a = {x, out},
               .name = {"x", "out"}};
    return elementwise(&c, q);
}

accel_status accel_array_copy(accel_queue *q, const accel_array *x, const accel_array *out)
{
    static const char fn[] = "accel_array_copy";
    if (x && out && x->dtype != out->dtype)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: x is %s but out is %s (accel_array_astype converts)", fn,
                           accel_dtype_name(x->dtype), accel_dtype_name(out->dtype));
    acall c = {.fn = fn, .f = ACCEL_ARRAY_ASTYPE, .nin = 1, .a = {x, out}, .name = {"x", "out"}};
    return elementwise(&c, q);
}
