/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/repro.c — the repro file of a verify-mode mismatch: a NumPy .npz
 * archive (what np.savez writes: a zip of uncompressed .npy members) holding
 * the op's inputs, its output range with the guard elements around it before
 * the op, after it on the device and as the reference computed it, the
 * scalars, and the op's description as JSON (op.json). `accel replay FILE`
 * runs it again; include/accel/verify.h lists the members.
 *
 * The zip is written by libzip (stored members, zip64 where needed), the
 * library `accel replay` reads it with, so one implementation of the format
 * serves both sides. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "base/objects.h"
#include "base/status.h"
#include "check/repro.h"
#include "io/npy_preamble.h"
#include "json.h"

enum { MAX_MEMBERS = 9, MAX_SEGS = 3 };

/* One member: its .npy preamble (or none) then up to three byte ranges, as
 * libzip's buffer fragments (empty ranges left out). */
typedef struct member {
    const char *name;
    unsigned char head[ACCEL__NPY_PREAMBLE_MAX];
    zip_buffer_fragment_t frag[1 + MAX_SEGS];
    unsigned nfrag;
} member;

typedef struct archive {
    member m[MAX_MEMBERS];
    unsigned count;
    void *owned[16]; /* converted copies (bf16 as f32), the JSON text */
    unsigned owned_count;
} archive;

/* Append len bytes at p to m's fragments (none when len is 0). libzip's
 * fragment type is not const, but with freep 0 it only reads the bytes. */
static void add_fragment(member *m, const void *p, size_t len)
{
    if (!len)
        return;
    m->frag[m->nfrag].data = (zip_uint8_t *)(uintptr_t)p;
    m->frag[m->nfrag].length = len;
    m->nfrag++;
}

/* The dtype a member stores for the op's dtype: bf16 as f32 (exact both
 * ways; NumPy has no bf16), the rest as they are. */
static accel_dtype stored_dtype(accel_dtype t)
{
    return t == ACCEL_BF16 ? ACCEL_F32 : t;
}

/* n elements of dtype t at p as the member stores them; NULL when out of
 * memory. Points at p itself unless a copy was needed. */
static const void *stored_data(archive *a, accel_dtype t, const void *p, size_t n)
{
    if (t != ACCEL_BF16 || !n)
        return p;
    uint32_t *f = malloc(n * sizeof *f);
    if (!f || a->owned_count == sizeof a->owned / sizeof a->owned[0]) {
        free(f);
        return NULL;
    }
    a->owned[a->owned_count++] = f;
    const uint16_t *b = p;
    for (size_t i = 0; i < n; i++)
        f[i] = (uint32_t)b[i] << 16;
    return f;
}

/* Add member name: a 1-D array of dtype t of the segments' element counts
 * (pointers and counts; a count of 0 takes no pointer). false: out of memory. */
static bool add_array(archive *a, const char *name, accel_dtype t, const void *const *segs,
                      const size_t *counts, unsigned nsegs)
{
    member *m = &a->m[a->count++];
    m->name = name;
    accel_dtype st = stored_dtype(t);
    size_t es = accel_dtype_size(st), total = 0;
    for (unsigned i = 0; i < nsegs; i++)
        total += counts[i];
    add_fragment(m, m->head, accel__npy_preamble(st, 1, &total, m->head));
    for (unsigned i = 0; i < nsegs; i++) {
        const void *seg = counts[i] ? stored_data(a, t, segs[i], counts[i]) : NULL;
        if (counts[i] && !seg)
            return false;
        add_fragment(m, seg, counts[i] * es);
    }
    return true;
}

/* The archive's members into a new zip file at tmp (stored, as np.savez
 * writes them; zip64 where a member needs it); false with the reason in why. */
static bool write_archive(archive *a, const char *tmp, char *why, size_t cap)
{
    int code = 0;
    zip_t *z = zip_open(tmp, ZIP_CREATE | ZIP_EXCL, &code);
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        snprintf(why, cap, "%s", zip_error_strerror(&e));
        zip_error_fini(&e);
        return false;
    }
    for (unsigned i = 0; i < a->count; i++) {
        member *m = &a->m[i];
        /* freep 0: libzip reads the fragments in zip_close and frees none. */
        zip_source_t *src = zip_source_buffer_fragment(z, m->frag, m->nfrag, 0);
        zip_int64_t at = src ? zip_file_add(z, m->name, src, ZIP_FL_ENC_UTF_8) : -1;
        if (at < 0)
            zip_source_free(src);
        if (at < 0 || zip_set_file_compression(z, (zip_uint64_t)at, ZIP_CM_STORE, 0) != 0)
            goto fail;
    }
    if (zip_close(z) == 0)
        return true;
fail:
    snprintf(why, cap, "%s", zip_strerror(z));
    zip_discard(z);
    return false;
}

static void json_u64(FILE *f, const char *key, uint64_t v)
{
    /* As a string: JSON readers that keep numbers as doubles would round it. */
    fprintf(f, ",\n  \"%s\": \"%" PRIu64 "\"", key, v);
}

static void json_size(FILE *f, const char *key, size_t v)
{
    fprintf(f, ",\n  \"%s\": %zu", key, v);
}

/* op.json: what replay needs, and what a person reads. */
static char *describe(const accel__repro *r, size_t *out_len)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    const accel_op_desc *d = r->d;
    fprintf(f, "{\n  \"format\": \"accel-repro\",\n  \"version\": 2,\n  \"device\": ");
    accel__json_string(f, r->device);
    fprintf(f, ",\n  \"reference\": ");
    accel__json_string(f, r->reference);
    fprintf(f, ",\n  \"op\": ");
    accel__json_string(f, accel_op_name((accel_op_code)d->op));
    fprintf(f, ",\n  \"op_code\": %u,\n  \"function\": ", d->op);
    accel__json_string(f, d->name);
    fprintf(f, ",\n  \"dtype\": ");
    accel__json_string(f, accel_dtype_name((accel_dtype)d->dtype));
    fprintf(f, ",\n  \"dtype_code\": %u,\n  \"flags\": %u,\n  \"scalars\": [", d->dtype, d->flags);
    for (int i = 0; i < 4; i++) {
        fprintf(f, "%s", i ? ", " : "");
        if (isfinite(d->scalars[i]))
            fprintf(f, "%.17g", d->scalars[i]);
        else
            accel__json_string(f, isnan(d->scalars[i]) ? "nan"
                                  : d->scalars[i] > 0  ? "inf"
                                                       : "-inf");
    }
    fprintf(f, "]");
    json_u64(f, "seed", d->seed);
    json_u64(f, "rng_offset", d->rng_offset);
    json_u64(f, "verify_seed", r->verify_seed);
    fprintf(f, ",\n  \"trans_a\": %u,\n  \"trans_b\": %u", d->trans_a, d->trans_b);
    json_size(f, "m", d->m);
    json_size(f, "n", d->n);
    json_size(f, "k", d->k);
    json_size(f, "lda", d->lda);
    json_size(f, "ldb", d->ldb);
    json_size(f, "ldc", d->ldc);
    json_size(f, "batch_count", d->batch_count);
    json_size(f, "stride_a", d->stride_a);
    json_size(f, "stride_b", d->stride_b);
    json_size(f, "stride_c", d->stride_c);
    fprintf(f, ",\n  \"num_operands\": %u,\n  \"offsets\": [", d->num_operands);
    for (uint32_t i = 0; i < d->num_operands; i++)
        fprintf(f, "%s%zu", i ? ", " : "", d->operands[i].offset);
    fprintf(f, "],\n  \"counts\": [");
    for (uint32_t i = 0; i < d->num_operands; i++)
        fprintf(f, "%s%zu", i ? ", " : "", d->operands[i].count);
    fprintf(f, "]");
    json_size(f, "guard_before", r->lo);
    json_size(f, "guard_after", r->hi);
    fprintf(f, ",\n  \"mismatch\": ");
    accel__json_string(f, r->what);
    fprintf(f, "\n}\n");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    *out_len = len;
    return text;
}

/* The members of r (verify.h lists them); false: out of host memory. */
static bool build(archive *a, const accel__repro *r)
{
    static const char *const input_names[3] = {"input0.npy", "input1.npy", "input2.npy"};
    const accel_op_desc *d = r->d;
    accel_dtype t = (accel_dtype)d->dtype;
    size_t es = accel_dtype_size(t);
    uint32_t out = d->num_operands - 1;
    for (uint32_t i = 0; i < out; i++)
        if (!add_array(a, input_names[i], t, &r->inputs[i], &d->operands[i].count, 1))
            return false;
    size_t n = d->operands[out].count;
    const char *gb = r->guard_before, *ga = r->guard_after;
    const size_t counts[3] = {r->lo, n, r->hi};
    const void *before[3] = {gb, r->inputs[out], gb + r->lo * es};
    const void *device[3] = {ga, r->got, ga + r->lo * es};
    const void *reference[3] = {gb, r->expected, gb + r->lo * es};
    if (!add_array(a, "output_before.npy", t, before, counts, 3) ||
        !add_array(a, "output_device.npy", t, device, counts, 3) ||
        !add_array(a, "output_reference.npy", t, reference, counts, 3))
        return false;
    const void *sc = d->scalars;
    const size_t four = 4;
    if (!add_array(a, "scalars.npy", ACCEL_F64, &sc, &four, 1))
        return false;
    size_t jlen = 0;
    char *json = describe(r, &jlen);
    if (!json)
        return false;
    a->owned[a->owned_count++] = json;
    member *m = &a->m[a->count++];
    m->name = "op.json";
    add_fragment(m, json, jlen);
    return true;
}

void accel__repro_write(const accel__repro *r, uint64_t n, char *path_out, size_t cap)
{
    path_out[0] = '\0';
    const accel_op_desc *d = r->d;
    const char *op = accel_op_name((accel_op_code)d->op);
    accel_dtype t = (accel_dtype)d->dtype;
    if (stored_dtype(t) != ACCEL_F32 && t != ACCEL_F64 && t != ACCEL_F16) {
        accel__log(ACCEL_LOG_WARN, "verify: no repro file for %s on %s: dtype %s", op, r->device,
                   accel_dtype_name(t));
        return;
    }
    /* an output of another dtype than the op's (argsort's, a wide cumsum's)
     * is not in the format */
    accel_dtype ot = (accel_dtype)accel_op_operand_dtype(d, d->num_operands - 1);
    if (ot != t) {
        accel__log(ACCEL_LOG_WARN, "verify: no repro file for %s on %s (its output is %s)", op,
                   r->device, accel_dtype_name(ot));
        return;
    }
    if (mkdir(r->dir, 0777) != 0 && errno != EEXIST) {
        accel__log(ACCEL_LOG_WARN, "verify: cannot make the repro folder %s: %s", r->dir,
                   strerror(errno));
        return;
    }
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/accel-repro-%ld-%" PRIu64 "-%s.npz", r->dir, (long)getpid(), n,
             op);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    archive *a = calloc(1, sizeof *a);
    char why[512] = "";
    if (!a || !build(a, r))
        accel__log(ACCEL_LOG_WARN, "verify: no repro file for %s: out of host memory", op);
    else if (!write_archive(a, tmp, why, sizeof why))
        accel__log(ACCEL_LOG_WARN, "verify: cannot write repro file %s: %s", path, why);
    else if (rename(tmp, path) != 0) {
        accel__log(ACCEL_LOG_WARN, "verify: cannot write repro file %s: %s", path, strerror(errno));
        unlink(tmp);
    } else
        snprintf(path_out, cap, "%s", path);
    if (a)
        for (unsigned i = 0; i < a->owned_count; i++)
            free(a->owned[i]);
    free(a);
}
