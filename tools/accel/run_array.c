/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_array.c — `accel run array FN IN.npy [IN2.npy [IN3.npy]] -o OUT.npy`:
 * one function of the C array layer (accel/array.h) on .npy files, with
 * its rules: every elementwise function of the table (exp, hypot, where,
 * ...) with broadcasting and type promotion over any dtype the file holds
 * (bool, integers, floats, complex), or a reduction (sum, prod, min, max,
 * mean, any, all, argmin, argmax) over --axis (repeatable; all axes by
 * default) with --keepdims. --verify runs it in verify mode against the
 * CPU (the function's tolerance; integers and comparisons exact). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/array.h"
#include "accel/npy.h"
#include "cli.h"

enum { ARR_CONFIG = CLI_LONG, ARR_VERIFY, ARR_AXIS, ARR_KEEPDIMS };

static const cli_option array_options[] = {
    {"output", 'o', "FILE", "where to write the result (required)", NULL},
    {"device", 'd', "NAME", "cpu, cuda, cuda:1, ... or default (the default)", NULL},
    {"config", ARR_CONFIG, "FILE", "the plugins.ini to read", NULL},
    {"verify", ARR_VERIFY, NULL, "run in verify mode against the CPU", NULL},
    {"axis", ARR_AXIS, "N", "a reduction's axis (repeat it for several; negative from the end)",
     NULL},
    {"keepdims", ARR_KEEPDIMS, NULL, "keep a reduction's axes with size 1", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static int run_array_main(int argc, char **argv);

/* `accel run array`: a subcommand of `accel run` (run.c lists it). */
const cli_command cli_run_array_command = {
    .name = "run array",
    .summary = "run an array function (elementwise with broadcasting, or a reduction) on .npy "
               "files",
    .synopsis = "FN IN.npy [IN2.npy [IN3.npy]] -o OUT.npy [--device NAME] [--config FILE]\n"
                "    [--verify] [--axis N ...] [--keepdims]",
    .description =
        "Runs FN of the C array layer (accel/array.h) on the inputs and writes its result.\n"
        "FN is an elementwise function of the Array API (add, exp, hypot, logaddexp,\n"
        "bitwise_and, isnan, where, clip, ...: `accel info` does not list them; see\n"
        "docs/arrays.md) taking one to three inputs that broadcast, of any dtype a .npy\n"
        "file holds here (bool, int8..int64, uint8..uint64, float16, float32, float64,\n"
        "complex64, complex128), promoted by the standard's rules; or a reduction (sum,\n"
        "prod, min, max, mean, any, all, argmin, argmax) of one input over the --axis\n"
        "axes (all by default). A function that does not take the inputs' dtypes is an\n"
        "error naming them (exit 1).",
    .options = array_options,
    .notes = "examples:\n  accel run array hypot x.npy y.npy -o r.npy\n"
             "  accel run array sum x.npy --axis 0 --keepdims -o s.npy --device cuda",
    .main = run_array_main,
};

typedef struct arr_job {
    const char *output, *device_name, *config, *fn_name;
    const char *paths[3];
    int nin, naxes;
    int axes[ACCEL_ARRAY_MAX_NDIM];
    bool verify, keepdims;
    accel_array_fn fn;               /* elementwise, or 0 */
    accel_array_reduce_fn reduction; /* or 0 */
    accel_npy_array in[3];
    accel_runtime *rt;
    accel_device *dev;
    accel_queue *q;
    accel_buffer *bufs[4];
    accel_array views[4];
} arr_job;

/* FN as an elementwise function or a reduction; false when neither. */
static bool find_fn(arr_job *j)
{
    for (int f = 1; f < ACCEL_ARRAY_REDUCE_LIMIT_; f++)
        if (strcmp(accel_array_reduce_name((accel_array_reduce_fn)f), j->fn_name) == 0) {
            j->reduction = (accel_array_reduce_fn)f;
            return true;
        }
    for (int f = 1; f < ACCEL_ARRAY_FN_LIMIT_; f++) {
        const accel_array_fn_properties *p = accel_array_fn_info((accel_array_fn)f);
        if (p && strcmp(p->name, j->fn_name) == 0 && p->result != ACCEL_ARRAY_RESULT_OUT) {
            j->fn = (accel_array_fn)f;
            return true;
        }
    }
    return false;
}

/* The command line into j; -1 when it is complete, else the exit code. */
static int arr_parse(arr_job *j, int argc, char **argv)
{
    cli_parser p;
    cli_parser_init(&p, &cli_run_array_command, argc, argv);
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (key == 'o')
            j->output = p.value;
        else if (key == 'd')
            j->device_name = p.value;
        else if (key == ARR_CONFIG)
            j->config = p.value;
        else if (key == ARR_VERIFY)
            j->verify = true;
        else if (key == ARR_KEEPDIMS)
            j->keepdims = true;
        else if (key == ARR_AXIS) {
            char *end;
            long v = strtol(p.value, &end, 10);
            if (!*p.value || isspace((unsigned char)*p.value) || *end ||
                v < -ACCEL_ARRAY_MAX_NDIM || v >= ACCEL_ARRAY_MAX_NDIM)
                return cli_usage_error("run array", "--axis %s is not an axis", p.value);
            if (j->naxes == ACCEL_ARRAY_MAX_NDIM)
                return cli_usage_error("run array", "too many --axis");
            j->axes[j->naxes++] = (int)v;
        }
    }
    int npos = argc - p.next;
    if (npos < 1)
        return cli_usage_error("run array", "missing FN (exp, hypot, sum, ...)");
    j->fn_name = argv[p.next];
    if (!find_fn(j))
        return cli_usage_error("run array",
                               "unknown function '%s' (an elementwise function "
                               "of accel/array.h or a reduction)",
                               j->fn_name);
    int want = j->reduction ? 1 : (int)accel_array_fn_info(j->fn)->arity;
    if (npos - 1 != want)
        return cli_usage_error("run array", "%s takes %d input file%s, got %d", j->fn_name, want,
                               want == 1 ? "" : "s", npos - 1);
    for (int i = 0; i < want; i++)
        j->paths[j->nin++] = argv[p.next + 1 + i];
    if (!j->output || !*j->output)
        return cli_usage_error("run array", "missing -o OUT.npy");
    if ((j->naxes || j->keepdims) && !j->reduction)
        return cli_usage_error("run array", "--axis and --keepdims are for reductions");
    return -1;
}

/* Input i uploaded to the device and viewed (C order). */
static accel_status upload(arr_job *j, int i)
{
    const accel_npy_array *a = &j->in[i];
    size_t bytes = a->count * accel_dtype_size(a->dtype);
    accel_status st = accel_buffer_create(j->dev, bytes ? bytes : 1, &j->bufs[i]);
    if (st == ACCEL_SUCCESS && bytes)
        st = accel_queue_write(j->q, j->bufs[i], 0, a->data, bytes);
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t d = 0; d < a->ndim; d++)
        shape[d] = (int64_t)a->shape[d];
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&j->views[i], j->bufs[i], a->dtype, a->ndim, shape);
    return st;
}

/* The result's dtype and shape: elementwise by the table's rule and
 * broadcasting, a reduction by accel_array_reduce_dtype and the axes. */
static accel_status out_layout(arr_job *j, accel_dtype *dt, uint32_t *nd, int64_t *shape,
                               uint64_t *mask)
{
    const accel_array *v[3] = {&j->views[0], &j->views[1], &j->views[2]};
    if (j->reduction) {
        const accel_array *x = v[0];
        *mask = j->naxes ? 0 : (x->ndim ? (~0ull >> (64 - x->ndim)) : 0);
        for (int k = 0; k < j->naxes; k++) {
            int a = j->axes[k] < 0 ? j->axes[k] + (int)x->ndim : j->axes[k];
            if (a < 0 || a >= (int)x->ndim) {
                return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT, "--axis %d for a %u-d input",
                                       j->axes[k], x->ndim);
            }
            if (*mask >> a & 1u) /* NumPy's "repeated axis" */
                return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                                       "--axis %d repeats axis %d of the %u-d input", j->axes[k], a,
                                       x->ndim);
            *mask |= 1ull << a;
        }
        *nd = 0;
        for (uint32_t d = 0; d < x->ndim; d++)
            if (!(*mask >> d & 1u) || j->keepdims)
                shape[(*nd)++] = *mask >> d & 1u ? 1 : x->shape[d];
        return accel_array_reduce_dtype(j->reduction, x->dtype, dt);
    }
    const accel_array_fn_properties *p = accel_array_fn_info(j->fn);
    accel_status st = accel_broadcast_shapes((size_t)j->nin, v, nd, shape);
    int first = j->fn == ACCEL_ARRAY_WHERE ? 1 : 0;
    *dt = v[first]->dtype;
    for (int i = first + 1; st == ACCEL_SUCCESS && i < j->nin; i++)
        st = accel_result_type(*dt, v[i]->dtype, dt);
    if (p->result == ACCEL_ARRAY_RESULT_BOOL)
        *dt = ACCEL_BOOL;
    else if (p->result == ACCEL_ARRAY_RESULT_REAL && (*dt == ACCEL_C64 || *dt == ACCEL_C128))
        *dt = *dt == ACCEL_C64 ? ACCEL_F32 : ACCEL_F64;
    return st;
}

/* Run FN into out (a fresh buffer) and read the result into *data. */
static accel_status compute(arr_job *j, accel_dtype dt, uint32_t nd, const int64_t *shape,
                            uint64_t mask, void **data, size_t *count)
{
    size_t n = 1;
    for (uint32_t d = 0; d < nd; d++)
        n *= (size_t)shape[d];
    size_t bytes = n * accel_dtype_size(dt);
    accel_status st = accel_buffer_create(j->dev, bytes ? bytes : 1, &j->bufs[3]);
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&j->views[3], j->bufs[3], dt, nd, shape);
    const accel_array *v = j->views, *o = &j->views[3];
    if (st == ACCEL_SUCCESS && n) {
        if (j->reduction)
            st = accel_array_reduce(j->q, j->reduction, v, mask, j->keepdims, o);
        else if (j->nin == 1)
            st = accel_array_unary(j->q, j->fn, v, o);
        else if (j->nin == 2)
            st = accel_array_binary(j->q, j->fn, v, v + 1, o);
        else if (j->fn == ACCEL_ARRAY_WHERE)
            st = accel_array_where(j->q, v, v + 1, v + 2, o);
        else
            st = accel_array_clip(j->q, v, v + 1, v + 2, o);
    }
    *count = n;
    if (st == ACCEL_SUCCESS && !(*data = malloc(bytes ? bytes : 1)))
        st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    if (st == ACCEL_SUCCESS)
        st = bytes ? accel_queue_read_blocking(j->q, j->bufs[3], 0, *data, bytes)
                   : accel_queue_finish(j->q);
    return st;
}

/* Load, open, upload, compute, save: the exit code. */
static int arr_run(arr_job *j)
{
    for (int i = 0; i < j->nin; i++) {
        accel_status st = accel_npy_load(j->paths[i], &j->in[i]);
        if (st != ACCEL_SUCCESS)
            return cli_runtime_error("run array", st, "cannot read input");
    }
    int rc = cli_open_device("run array", j->config, j->device_name, j->verify, &j->rt, &j->dev);
    if (rc != CLI_EXIT_OK)
        return rc;
    accel_status st = accel_queue_create(j->dev, &j->q);
    for (int i = 0; st == ACCEL_SUCCESS && i < j->nin; i++)
        st = upload(j, i);
    accel_dtype dt = ACCEL_DTYPE_INVALID;
    uint32_t nd = 0;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    uint64_t mask = 0;
    void *data = NULL;
    size_t count = 0;
    if (st == ACCEL_SUCCESS)
        st = out_layout(j, &dt, &nd, shape, &mask);
    if (st == ACCEL_SUCCESS)
        st = compute(j, dt, nd, shape, mask, &data, &count);
    size_t dims[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t d = 0; d < nd; d++)
        dims[d] = (size_t)shape[d];
    if (st == ACCEL_SUCCESS) {
        st = accel_npy_save(j->output, dt, nd, dims, data);
        if (st != ACCEL_SUCCESS)
            rc = cli_runtime_error("run array", st, "cannot write the output");
        else
            fprintf(stderr, "accel: %s ran on %s%s\n", j->fn_name, accel_device_name(j->dev),
                    j->verify ? " (verify mode: checked against cpu)" : "");
    } else {
        rc = cli_runtime_error("run array", st, j->fn_name);
    }
    free(data);
    return rc;
}

static int run_array_main(int argc, char **argv)
{
    arr_job *j = calloc(1, sizeof *j);
    if (!j)
        return cli_runtime_error("run array", ACCEL_ERROR_OUT_OF_HOST_MEMORY, "the command");
    int rc = arr_parse(j, argc, argv);
    if (rc < 0)
        rc = arr_run(j);
    for (int i = 0; i < 4; i++)
        accel_buffer_release(j->bufs[i]);
    accel_queue_release(j->q);
    accel_runtime_close(j->rt);
    for (int i = 0; i < j->nin; i++)
        accel_npy_free(&j->in[i]);
    free(j);
    return rc;
}
