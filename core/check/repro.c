/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/repro.c — the repro file of a verify-mode mismatch: a NumPy .npz
 * archive (what np.savez writes: a zip of uncompressed .npy members) holding
 * the op's inputs, its output range with the guard elements around it before
 * the op, after it on the device and as the reference computed it, the
 * scalars, and the op's description as JSON (op.json). `accel replay FILE`
 * runs it again; include/accel/verify.h lists the members.
 *
 * Zip layout: PKWARE's APPNOTE.TXT 6.3.x, sections 4.3.7 (local file
 * header), 4.3.12 (central directory header) and 4.3.16 (end of central
 * directory record); stored entries (method 0) with their CRC-32 from zlib.
 * No zip64: a repro file of 4 GiB or more is not written (logged). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/objects.h"
#include "base/status.h"
#include "check/hooks.h"
#include "io/npy_preamble.h"
#include "json.h"

enum { MAX_MEMBERS = 9, MAX_SEGS = 3 };

/* One member: its .npy preamble (or none) then up to three byte ranges. */
typedef struct member {
    const char *name;
    unsigned char head[ACCEL__NPY_PREAMBLE_MAX];
    size_t head_len;
    const void *seg[MAX_SEGS];
    size_t seg_len[MAX_SEGS];
    uint32_t crc;
    uint64_t size, offset;
} member;

typedef struct archive {
    member m[MAX_MEMBERS];
    unsigned count;
    void *owned[16]; /* converted copies (bf16 as f32), the JSON text */
    unsigned owned_count;
} archive;

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
    for (unsigned i = 0; i < nsegs; i++) {
        total += counts[i];
        m->seg[i] = counts[i] ? stored_data(a, t, segs[i], counts[i]) : NULL;
        m->seg_len[i] = counts[i] * es;
        if (counts[i] && !m->seg[i])
            return false;
    }
    m->head_len = accel__npy_preamble(st, 1, &total, m->head);
    return true;
}

/* DOS date and time of now (APPNOTE 4.4.6), local time as zip tools use. */
static void dos_now(uint16_t *date, uint16_t *tod)
{
    time_t t = time(NULL);
    struct tm tm;
    if (!localtime_r(&t, &tm) || tm.tm_year < 80) {
        *date = (0 << 9) | (1 << 5) | 1; /* 1980-01-01 */
        *tod = 0;
        return;
    }
    *date = (uint16_t)(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
    *tod = (uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
}

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static bool write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static uint32_t crc_of(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = (uint32_t)crc32(crc, b, chunk);
        b += chunk;
        n -= chunk;
    }
    return crc;
}

/* The archive's bytes to fd; false with errno set on a write error, or
 * with *too_big when it would need zip64. */
static bool write_archive(int fd, archive *a, bool *too_big)
{
    uint16_t date, tod;
    dos_now(&date, &tod);
    uint64_t at = 0;
    *too_big = false;
    for (unsigned i = 0; i < a->count; i++) {
        member *m = &a->m[i];
        m->crc = crc_of((uint32_t)crc32(0, Z_NULL, 0), m->head, m->head_len);
        m->size = m->head_len;
        for (unsigned s = 0; s < MAX_SEGS; s++) {
            m->crc = crc_of(m->crc, m->seg[s], m->seg_len[s]);
            m->size += m->seg_len[s];
        }
        m->offset = at;
        at += 30 + strlen(m->name) + m->size;
    }
    uint64_t cd_size = 0;
    for (unsigned i = 0; i < a->count; i++)
        cd_size += 46 + strlen(a->m[i].name);
    if (at + cd_size + 22 >= 0xffffffffu) {
        *too_big = true;
        return false;
    }
    for (unsigned i = 0; i < a->count; i++) {
        const member *m = &a->m[i];
        size_t nlen = strlen(m->name);
        unsigned char h[30];
        put32(h, 0x04034b50);
        put16(h + 4, 20); /* version needed: 2.0 */
        put16(h + 6, 0);  /* flags */
        put16(h + 8, 0);  /* stored */
        put16(h + 10, tod);
        put16(h + 12, date);
        put32(h + 14, m->crc);
        put32(h + 18, m->size);
        put32(h + 22, m->size);
        put16(h + 26, (unsigned)nlen);
        put16(h + 28, 0);
        if (!write_all(fd, h, sizeof h) || !write_all(fd, m->name, nlen) ||
            !write_all(fd, m->head, m->head_len))
            return false;
        for (unsigned s = 0; s < MAX_SEGS; s++)
            if (m->seg_len[s] && !write_all(fd, m->seg[s], m->seg_len[s]))
                return false;
    }
    for (unsigned i = 0; i < a->count; i++) {
        const member *m = &a->m[i];
        size_t nlen = strlen(m->name);
        unsigned char h[46];
        put32(h, 0x02014b50);
        put16(h + 4, (3u << 8) | 20); /* made by: Unix, 2.0 */
        put16(h + 6, 20);
        put16(h + 8, 0);
        put16(h + 10, 0);
        put16(h + 12, tod);
        put16(h + 14, date);
        put32(h + 16, m->crc);
        put32(h + 20, m->size);
        put32(h + 24, m->size);
        put16(h + 28, (unsigned)nlen);
        put16(h + 30, 0); /* extra */
        put16(h + 32, 0); /* comment */
        put16(h + 34, 0); /* disk */
        put16(h + 36, 0); /* internal attributes */
        put32(h + 38, (uint64_t)(0100644) << 16);
        put32(h + 42, m->offset);
        if (!write_all(fd, h, sizeof h) || !write_all(fd, m->name, nlen))
            return false;
    }
    unsigned char e[22];
    put32(e, 0x06054b50);
    put16(e + 4, 0);
    put16(e + 6, 0);
    put16(e + 8, a->count);
    put16(e + 10, a->count);
    put32(e + 12, cd_size);
    put32(e + 16, at);
    put16(e + 20, 0);
    return write_all(fd, e, sizeof e);
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
    m->seg[0] = json;
    m->seg_len[0] = jlen;
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
    bool built = a && build(a, r);
    int fd = built ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666) : -1;
    bool too_big = false, ok = fd >= 0 && write_archive(fd, a, &too_big);
    int err = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        err = errno;
    }
    if (fd >= 0 && !ok)
        unlink(tmp);
    if (!built)
        accel__log(ACCEL_LOG_WARN, "verify: no repro file for %s: out of host memory", op);
    else if (too_big)
        accel__log(ACCEL_LOG_WARN,
                   "verify: no repro file for %s: its operands take 4 GiB or more, more than "
                   "a zip without zip64 holds",
                   op);
    else if (!ok)
        accel__log(ACCEL_LOG_WARN, "verify: cannot write repro file %s: %s", path, strerror(err));
    else
        snprintf(path_out, cap, "%s", path);
    if (a)
        for (unsigned i = 0; i < a->owned_count; i++)
            free(a->owned[i]);
    free(a);
}
