/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernel_launch.c — launching user kernels (accel/kernel.h). A launch
 * checks every argument (count, kind, dtype, range within its buffer,
 * aliasing, shapes, grid limits) before any backend sees it, finds the
 * device's program (kernel.c builds it on first use), then goes down the op
 * path of every op (accel__submit) as an ACCEL_OP_KERNEL desc. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "kernels/kernel_twin.h"
#include "kernels/kernels.h"
#include "ops/submit.h"

/* ------------------------------------------------------------ launch */

/* log2 of a dtype's element size (sizes are powers of two), -1 for an
 * unknown dtype. */
static int dtype_shift(accel_dtype dt)
{
    size_t es = accel_dtype_size(dt);
    return es ? __builtin_ctzll((unsigned long long)es) : -1;
}

/* Whether scalar a may be passed for parameter i (a float for a float
 * parameter, an integer that fits an integer one). */
static accel_status check_scalar(const char *fn, const accel_kernel *k, uint32_t i,
                                 const accel_kernel_arg *a, bool is_float_arg)
{
    const accel__kparam *p = &k->params[i];
    bool is_int_arg = a->dtype == ACCEL_I32 || a->dtype == ACCEL_I64 || a->dtype == ACCEL_U8;
    if (!is_float_arg && !is_int_arg)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: %s: argument %u (%s) is a scalar of dtype %s; scalars are passed "
                           "as i32, i64, u8, f32 or f64",
                           fn, k->label, i, p->name, accel_dtype_name(a->dtype));
    bool float_param = p->dtype == ACCEL_F32 || p->dtype == ACCEL_F64 || p->dtype == ACCEL_F16 ||
                       p->dtype == ACCEL_BF16;
    if (!float_param && is_float_arg)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: %s: argument %u (%s) is %s but a floating-point scalar was "
                           "passed (%s)",
                           fn, k->label, i, p->name, accel_dtype_name(p->dtype),
                           accel_dtype_name(a->dtype));
    /* An integer scalar must fit its parameter's type: a value that would
     * wrap (2^31 + 5 into int32, 300 or -1 into uint8) is refused, not
     * passed modulo 2^width. */
    if (!float_param) {
        int64_t lo = p->dtype == ACCEL_I32 ? INT32_MIN : p->dtype == ACCEL_U8 ? 0 : INT64_MIN;
        int64_t hi = p->dtype == ACCEL_I32 ? INT32_MAX : p->dtype == ACCEL_U8 ? 255 : INT64_MAX;
        if (a->i < lo || a->i > hi)
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: %s: argument %u (%s) is %s but the scalar %lld does not fit "
                               "it [%lld, %lld]",
                               fn, k->label, i, p->name, accel_dtype_name(p->dtype),
                               (long long)a->i, (long long)lo, (long long)hi);
    }
    return ACCEL_SUCCESS;
}

void accel__karg_set_scalar(accel_kernel_arg_desc *o, accel_dtype dt, double f, int64_t i)
{
    o->buffer = NULL;
    o->offset = o->count = 0;
    o->kind = ACCEL_KARG_SCALAR;
    o->dtype = (uint32_t)dt;
    memset(&o->value, 0, sizeof o->value);
    if (dt == ACCEL_F64)
        o->value.f64 = f;
    else if (accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_FLOAT)
        o->value.f32 = (float)f;
    else if (dt == ACCEL_I32)
        o->value.i32 = (int32_t)i;
    else if (dt == ACCEL_I64)
        o->value.i64 = i;
    else if (dt == ACCEL_U8)
        o->value.u8 = (uint8_t)i;
}

/* The scalar a as parameter p stores it. */
static accel_status scalar_value(const char *fn, const accel_kernel *k, uint32_t i,
                                 const accel_kernel_arg *a, accel_kernel_arg_desc *o)
{
    /* The common case on every launch: a float32 or float64 value for a
     * parameter of that type (accel_karg_f32, accel_karg_f64). */
    const accel_dtype pdt = (accel_dtype)k->slot[i].dtype;
    if (a->dtype == pdt && (pdt == ACCEL_F32 || pdt == ACCEL_F64)) {
        accel__karg_set_scalar(o, pdt, a->f, 0);
        return ACCEL_SUCCESS;
    }
    const accel__kparam *p = &k->params[i];
    bool is_float_arg = a->dtype == ACCEL_F32 || a->dtype == ACCEL_F64 || a->dtype == ACCEL_F16 ||
                        a->dtype == ACCEL_BF16;
    accel_status st = check_scalar(fn, k, i, a, is_float_arg);
    if (st != ACCEL_SUCCESS)
        return st;
    accel__karg_set_scalar(o, (accel_dtype)p->dtype, is_float_arg ? a->f : (double)a->i, a->i);
    return ACCEL_SUCCESS;
}

/* Whether array arguments x and y (their buffer objects bx and by) meet:
 * in one buffer, or in two over the same memory (accel__buffers_alias);
 * *same: they start at one address. */
static bool args_meet(const accel_kernel_arg_desc *x, const accel_buffer *bx,
                      const accel_kernel_arg_desc *y, const accel_buffer *by, bool *same)
{
    size_t ex = accel__kesize(x->dtype), ey = accel__kesize(y->dtype);
    *same = false;
    return x->count && y->count &&
           accel__bytes_meet(bx, x->offset * ex, (x->offset + x->count) * ex, by, y->offset * ey,
                             (y->offset + y->count) * ey, same);
}

/* shared's bits for array arguments whose distinct buffers are one memory
 * (a wrapped buffer over another's bytes), beside launch_handles' bits for
 * one buffer passed twice. */
static uint32_t aliased_args(size_t num_args, const accel_kernel_arg *args,
                             accel_buffer *const *bufs)
{
    uint32_t bits = 0;
    int64_t sh;
    bool wrapped = false; /* only a wrapped buffer shares another's memory */
    for (size_t i = 0; i < num_args && !wrapped; i++)
        wrapped = args[i].kind == ACCEL_KARG_ARRAY && bufs[i]->wrapped;
    for (size_t i = 0; wrapped && i < num_args; i++)
        for (size_t j = 0; args[i].kind == ACCEL_KARG_ARRAY && j < i; j++)
            if (args[j].kind == ACCEL_KARG_ARRAY && bufs[j] != bufs[i] &&
                accel__buffers_alias(bufs[j], bufs[i], &sh))
                bits |= 1u << i | 1u << j;
    return bits;
}

/* Shared checks of the three launch calls; fills L (not the shape). */
static const char *const arg_names[ACCEL__KMAX_PARAMS] = {
    "args[0]",  "args[1]",  "args[2]",  "args[3]",  "args[4]",  "args[5]",  "args[6]",  "args[7]",
    "args[8]",  "args[9]",  "args[10]", "args[11]", "args[12]", "args[13]", "args[14]", "args[15]",
    "args[16]", "args[17]", "args[18]", "args[19]", "args[20]", "args[21]", "args[22]", "args[23]",
    "args[24]", "args[25]", "args[26]", "args[27]", "args[28]", "args[29]", "args[30]", "args[31]"};

/* The handles check_args enters: q, k and each array argument's buffer once
 * (a buffer passed twice, y in and out, is resolved once: same[i] is the
 * earlier argument with the same handle, or i). Returns the count in h;
 * *shared: bit i set when array argument i's buffer is another's too. */
static size_t launch_handles(accel_queue **q, accel_kernel **kp, size_t num_args,
                             const accel_kernel_arg *args, accel_buffer **bufs, accel__arg *h,
                             uint8_t *same, uint32_t *shared)
{
    size_t nh = 2;
    h[0] = (accel__arg){*q, ACCEL__T_QUEUE, "q", q, NULL};
    h[1] = (accel__arg){*kp, ACCEL__T_KERNEL, "k", kp, NULL};
    uint32_t pairs = 0;
    bool arrays = args && num_args <= ACCEL__KMAX_PARAMS;
    if (arrays)
        for (size_t i = 0; i < num_args; i++) {
            same[i] = (uint8_t)i;
            if (args[i].kind != ACCEL_KARG_ARRAY)
                continue;
            for (size_t j = 0; j < i; j++)
                if (args[j].kind == ACCEL_KARG_ARRAY &&
                    args[j].slice.buffer == args[i].slice.buffer) {
                    same[i] = (uint8_t)j;
                    pairs |= 1u << i | 1u << j;
                    break;
                }
            if (same[i] == i)
                h[nh++] = (accel__arg){args[i].slice.buffer, ACCEL__T_BUFFER, arg_names[i],
                                       &bufs[i], ".slice.buffer"};
        }
    *shared = pairs;
    return nh;
}

/* The argument count against k's parameters. */
static accel_status check_count(const char *fn, const accel_kernel *k, size_t num_args,
                                const accel_kernel_arg *args)
{
    if (num_args != k->nparams && k->kind == ACCEL_KERNEL_RAW)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s takes %u arguments (the parameters of its __global__ "
                           "signature, in order) but %zu were passed",
                           fn, k->label, k->nparams, num_args);
    if (num_args != k->nparams)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s takes %u arguments (%u inputs, %u outputs) but %zu were "
                           "passed",
                           fn, k->label, k->nparams, k->nin, k->nparams - k->nin, num_args);
    if (num_args && !args)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: args is NULL", fn);
    return ACCEL_SUCCESS;
}

/* Array argument i (its buffer buf resolved, on q's device) into o:
 * dtype and range checked against parameter i. */
static accel_status array_arg(const char *fn, const accel_kernel *k, uint32_t i,
                              const accel_kernel_arg *a, const accel_buffer *buf,
                              const accel_queue *q, accel_kernel_arg_desc *o)
{
    const accel__kparam *p = &k->params[i]; /* only for messages */
    if (buf->dev != q->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: %s: %s is on %s but q is on %s", fn,
                           k->label, p->name, buf->dev->name, q->dev->name);
    accel_dtype dt = (accel_dtype)k->slot[i].dtype;
    if (dt == ACCEL_DTYPE_INVALID) /* a raw pointer of a type we do not know */
        dt = a->dtype != ACCEL_DTYPE_INVALID ? a->dtype : ACCEL_U8;
    else if (a->dtype != ACCEL_DTYPE_INVALID && a->dtype != dt)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: %s: argument %u (%s) is %s but the array was given as %s", fn,
                           k->label, i, p->name, accel_dtype_name(dt), accel_dtype_name(a->dtype));
    int sh = dtype_shift(dt);
    if (sh < 0)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: %s: argument %u (%s): dtype %d is unknown", fn, k->label, i,
                           p->name, (int)dt);
    size_t n = buf->bytes >> sh; /* a shift: this is on every launch */
    accel_slice s = a->slice;
    if (s.offset > n || s.count > n - s.offset)
        return accel__fail(
            ACCEL_ERROR_OUT_OF_RANGE,
            "%s: %s: %s range [%zu, %zu%s) exceeds buffer of %zu %s elements", fn, k->label,
            p->name, s.offset, s.count > SIZE_MAX - s.offset ? SIZE_MAX : s.offset + s.count,
            s.count > SIZE_MAX - s.offset ? " (overflow)" : "", n, accel_dtype_name(dt));
    accel__buffer_mark_enqueued(buf);
    o->value.i64 = 0;
    o->kind = ACCEL_KARG_ARRAY;
    o->dtype = (uint32_t)dt;
    o->buffer = buf->be;
    o->offset = s.offset;
    o->count = s.count;
    return ACCEL_SUCCESS;
}

/* Shared checks of the launch calls; fills L (not the shape). Enters the
 * call: *q, *k and the arrays' buffers (objects in bufs[]) resolved at once.
 * *shared: bit i set when array argument i's buffer is another array
 * argument's too (only those can overlap). */
static accel_status check_args(const char *fn, accel__call *call, accel_queue **q,
                               accel_kernel **kp, size_t num_args, const accel_kernel_arg *args,
                               accel_buffer **bufs, accel__klaunch *L, uint32_t *shared)
{
    accel__arg h[2 + ACCEL__KMAX_PARAMS];
    uint8_t same[ACCEL__KMAX_PARAMS];
    size_t nh = launch_handles(q, kp, num_args, args, bufs, h, same, shared);
    ACCEL__TRY(accel__call_enter(call, fn, nh, h));
    accel_kernel *k = *kp;
    accel_status st = check_count(fn, k, num_args, args);
    if (st != ACCEL_SUCCESS)
        return st;
    memset(&L->be, 0, sizeof L->be);
    L->be.struct_size = sizeof L->be;
    L->be.kind = k->kind;
    L->be.num_args = (uint32_t)num_args;
    L->be.args = L->args;
    L->be.rows = 1;
    L->k = k;
    L->chain = NULL;
    L->mask = 0;
    for (uint32_t i = 0; i < num_args; i++) {
        const accel__kparam *p = &k->params[i];
        const accel_kernel_arg *a = &args[i];
        accel_kernel_arg_desc *o = &L->args[i];
        const accel__kslot sl = k->slot[i]; /* p's record only for messages */
        bool wants_array = (sl.flags & ACCEL__KSLOT_ARRAY) != 0;
        if (a->kind == ACCEL_KARG_SCALAR) {
            if (wants_array && (k->kind == ACCEL_KERNEL_RAW || (sl.flags & ACCEL__KSLOT_OUTPUT)))
                return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                   "%s: %s: argument %u (%s) must be an array, a scalar was "
                                   "passed",
                                   fn, k->label, i, p->name);
            st = scalar_value(fn, k, i, a, o);
            if (st != ACCEL_SUCCESS)
                return st;
            if (k->kind != ACCEL_KERNEL_RAW)
                L->mask |= 1u << i;
            continue;
        }
        if (a->kind != ACCEL_KARG_ARRAY)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: argument %u (%s) has kind %u (ACCEL_KARG_ARRAY or "
                               "ACCEL_KARG_SCALAR)",
                               fn, k->label, i, p->name, a->kind);
        if (!wants_array)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: argument %u (%s, %s) is a scalar parameter but an array "
                               "was passed",
                               fn, k->label, i, p->name, p->ctype);
        bufs[i] = bufs[same[i]];
        st = array_arg(fn, k, i, a, bufs[i], *q, o);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    return ACCEL_SUCCESS;
}

static accel_status submit(const char *fn, accel_queue *q, accel__klaunch *L, bool empty)
{
    accel_kernel *k = L->k;
    accel_be_program *prog = NULL;
    accel_status st = accel__kernel_program(k, q->dev, L->mask, &prog);
    (void)fn; /* the build's message names the kernel */
    if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_UNSUPPORTED)
        return st;
    if (st != ACCEL_SUCCESS)
        accel__clear_error();
    L->be.program = prog; /* NULL: op_supported says no, and fallback may run it */
    accel_op_desc d;
    accel__struct_init(&d, sizeof d);
    d.op = ACCEL_OP_KERNEL;
    d.dtype = k->nparams ? (uint32_t)L->args[k->nparams - 1].dtype : 0;
    d.name = k->label;
    d.kernel = &L->be;
    return accel__submit(q, &d, empty ? ACCEL__SUBMIT_EMPTY : 0);
}

accel_status accel_kernel_launch(accel_queue *q, accel_kernel *k, size_t num_args,
                                 const accel_kernel_arg *args)
{
    static const char fn[] = "accel_kernel_launch";
    ACCEL__CALL(call);
    accel__klaunch L;
    accel_buffer *bufs[ACCEL__KMAX_PARAMS];
    uint32_t shared;
    accel_status st = check_args(fn, &call, &q, &k, num_args, args, bufs, &L, &shared);
    if (st != ACCEL_SUCCESS)
        return st;
    if (k->kind == ACCEL_KERNEL_RAW)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s is a raw kernel; launch it with accel_kernel_launch_grid", fn,
                           k->label);
    const accel_kernel_arg_desc *out = &L.args[k->nin];
    if (k->kind == ACCEL_KERNEL_ELEMENTWISE) {
        size_t n = out->count;
        for (uint32_t i = 0; i < k->nparams; i++) {
            if (L.args[i].kind != ACCEL_KARG_ARRAY)
                continue;
            if (L.args[i].count != n)
                return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                                   "%s: %s: %s has %zu elements but %s has %zu", fn, k->label,
                                   k->params[i].name, L.args[i].count, k->params[k->nin].name, n);
        }
        /* Outputs: each exactly an input's range or apart from it, and
         * apart from every other output. Only arrays of one buffer, or of
         * buffers over one memory (shared), can overlap. */
        shared |= aliased_args(num_args, args, bufs);
        for (uint32_t o = k->nin; shared && o < k->nparams; o++) {
            if (!(shared >> o & 1u))
                continue;
            for (uint32_t m = shared & ~(1u << o); m; m &= m - 1) {
                uint32_t i = (uint32_t)__builtin_ctz(m);
                bool same;
                if (!args_meet(&L.args[o], bufs[o], &L.args[i], bufs[i], &same))
                    continue;
                if (i < k->nin && same)
                    continue;
                return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                   "%s: %s: output %s range [%zu, %zu) overlaps %s range [%zu, "
                                   "%zu) of the same memory (in place needs an input's exact "
                                   "range; outputs may not overlap)",
                                   fn, k->label, k->params[o].name, args[o].slice.offset,
                                   args[o].slice.offset + args[o].slice.count, k->params[i].name,
                                   args[i].slice.offset,
                                   args[i].slice.offset + args[i].slice.count);
            }
        }
        L.be.n = n;
        return submit(fn, q, &L, n == 0);
    }
    /* Reduction: rows = output count, cols = input count / rows. */
    size_t rows = out->count;
    if (rows == 0)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %s: output %s has 0 elements (1 for a whole range, or one per row)",
                           fn, k->label, k->params[k->nin].name);
    size_t cols = 0;
    bool have = false;
    for (uint32_t i = 0; i < k->nin; i++) {
        if (L.args[i].kind != ACCEL_KARG_ARRAY)
            continue;
        size_t c = L.args[i].count;
        if (c % rows != 0 || (have && c / rows != cols))
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: %s: input %s has %zu elements, which is not %zu rows of %s%zu "
                               "columns (the output has %zu elements, one per row)",
                               fn, k->label, k->params[i].name, c, rows, have ? "" : "equal ",
                               have ? cols : c / rows, rows);
        cols = c / rows;
        have = true;
        bool same;
        if (args_meet(&L.args[k->nin], bufs[k->nin], &L.args[i], bufs[i], &same))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: output %s overlaps input %s in the same memory", fn,
                               k->label, k->params[k->nin].name, k->params[i].name);
    }
    L.be.n = cols;
    L.be.rows = rows;
    return submit(fn, q, &L, false);
}

void accel_kernel_launch_options_init(accel_kernel_launch_options *o)
{
    accel__struct_init(o, sizeof *o);
}

/* CUDA's grid and block limits (kernel.h). */
static accel_status check_grid(const char *fn, const accel_kernel *k, const uint32_t grid[3],
                               const uint32_t block[3])
{
    if (!grid || !block)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !grid ? "grid" : "block");
    static const uint32_t gmax[3] = {0x7fffffffu, 65535u, 65535u};
    static const uint32_t bmax[3] = {1024u, 1024u, 64u};
    static const char dim[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++) {
        if (grid[i] == 0 || grid[i] > gmax[i])
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: grid.%c = %u is outside [1, %u]", fn, k->label, dim[i],
                               grid[i], gmax[i]);
        if (block[i] == 0 || block[i] > bmax[i])
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: block.%c = %u is outside [1, %u]", fn, k->label, dim[i],
                               block[i], bmax[i]);
    }
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (threads > 1024)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s: a block of %u x %u x %u = %llu threads exceeds 1024", fn,
                           k->label, block[0], block[1], block[2], (unsigned long long)threads);
    return ACCEL_SUCCESS;
}

#define ACCEL__SHARED_MAX 49152u

static accel_status launch_grid(const char *fn, accel__call *call, accel_queue *q, accel_kernel *k,
                                const uint32_t grid[3], const uint32_t block[3],
                                const accel_kernel_launch_options *opt, uint32_t launch_flags,
                                size_t num_args, const accel_kernel_arg *args)
{
    accel__klaunch L;
    accel_buffer *bufs[ACCEL__KMAX_PARAMS];
    uint32_t shared;
    accel_status st = check_args(fn, call, &q, &k, num_args, args, bufs, &L, &shared);
    if (st != ACCEL_SUCCESS)
        return st;
    if (k->kind != ACCEL_KERNEL_RAW)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s is not a raw kernel; launch it with accel_kernel_launch", fn,
                           k->label);
    if ((st = check_grid(fn, k, grid, block)) != ACCEL_SUCCESS)
        return st;
    if (opt && opt->struct_size < sizeof *opt)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: opt->struct_size is %u, expected %zu (call "
                           "accel_kernel_launch_options_init)",
                           fn, opt->struct_size, sizeof *opt);
    if (opt && opt->shared_bytes > ACCEL__SHARED_MAX)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s: opt->shared_bytes = %zu exceeds %u (48 KiB)", fn, k->label,
                           opt->shared_bytes, ACCEL__SHARED_MAX);
    for (int i = 0; i < 3; i++) {
        L.be.grid[i] = grid[i];
        L.be.block[i] = block[i];
    }
    L.be.n = (size_t)grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
    L.be.shared_bytes = opt ? opt->shared_bytes : 0;
    L.be.launch_flags = k->library ? launch_flags : 0; /* a user's kernel is never brief */
    if ((opt && opt->debug) || k->debug || q->dev->rt->cfg->kernel_debug) {
        L.mask = ACCEL__KMASK_DEBUG;
        L.be.twin_flags = ACCEL_TWIN_DEBUG;
        if (accel__kernel_language(q->dev) != ACCEL_PROGRAM_C)
            return accel__kernel_debug_enqueue(q, &L);
    }
    return submit(fn, q, &L, false);
}

accel_status accel_kernel_launch_grid(accel_queue *q, accel_kernel *k, const uint32_t grid[3],
                                      const uint32_t block[3], size_t num_args,
                                      const accel_kernel_arg *args)
{
    static const char fn[] = "accel_kernel_launch_grid";
    ACCEL__CALL(call);
    return launch_grid(fn, &call, q, k, grid, block, NULL, 0, num_args, args);
}

accel_status accel_kernel_launch_grid_ex(accel_queue *q, accel_kernel *k, const uint32_t grid[3],
                                         const uint32_t block[3],
                                         const accel_kernel_launch_options *opt, size_t num_args,
                                         const accel_kernel_arg *args)
{
    static const char fn[] = "accel_kernel_launch_grid_ex";
    ACCEL__CALL(call);
    return launch_grid(fn, &call, q, k, grid, block, opt, 0, num_args, args);
}

accel_status accel__kernel_launch_library(accel_queue *q, accel_kernel *k, const uint32_t grid[3],
                                          const uint32_t block[3], int64_t elements,
                                          size_t num_args, const accel_kernel_arg *args)
{
    static const char fn[] = "accel_kernel_launch_grid";
    ACCEL__CALL(call);
    uint32_t flags =
        elements >= 0 && elements <= ACCEL_LAUNCH_BRIEF_ELEMENTS ? ACCEL_LAUNCH_BRIEF : 0;
    return launch_grid(fn, &call, q, k, grid, block, NULL, flags, num_args, args);
}
