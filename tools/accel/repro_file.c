/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* repro_file.c — reading a verify-mode repro file for `accel replay`: the
 * .npz archive through libzip (stored members as core/repro.c writes them,
 * or deflated ones as np.savez_compressed writes them), each .npy member
 * through accel_npy_load_memory, op.json through cJSON. The file may come
 * from anywhere, so every size is checked against the op description and
 * this machine's memory before anything is allocated, member names must be
 * plain names, each member is read to its end (where libzip checks its
 * CRC-32) and never past the size its directory entry gives. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <zip.h>

#include "accel/npy.h"
#include "repro_file.h"

/* The repro members (accel/verify.h). op.json.npy is what np.savez makes of
 * op.json when a file is written again from np.load's dict: the same JSON
 * as a 0-d bytes array. */
enum {
    M_JSON,
    M_JSON_NPY,
    M_SCALARS,
    M_BEFORE,
    M_DEVICE,
    M_REFERENCE,
    M_INPUT0,
    M_COUNT_ = M_INPUT0 + 3
};
static const char *const member_names[M_COUNT_] = {
    "op.json",           "op.json.npy",       "scalars.npy",
    "output_before.npy", "output_device.npy", "output_reference.npy",
    "input0.npy",        "input1.npy",        "input2.npy",
};

enum { MAX_ENTRIES = 64, MAX_JSON_BYTES = 1 << 16, MAX_NPY_HEADER = 1 << 20 };

typedef struct reader {
    zip_t *za;
    zip_int64_t index[M_COUNT_]; /* -1: absent */
    char *why;
    size_t cap;
    const char *sizes_from; /* the op.json fields a member's size follows from */
} reader;

static bool fail(reader *rd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->why, rd->cap, fmt, ap);
    va_end(ap);
    return false;
}

void repro_free(repro *r)
{
    for (int i = 0; i < 4; i++)
        free(r->data[i]);
    free(r->device_out);
    free(r->reference_out);
    memset(r, 0, sizeof *r);
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* A plain member name: no folder part, no "..", no control bytes. */
static bool plain_name(const char *s)
{
    if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0 || strstr(s, ".."))
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '/' || *p == '\\' || *p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

/* The archive's directory: every name checked, the known members found. */
static bool scan(reader *rd)
{
    zip_int64_t n = zip_get_num_entries(rd->za, 0);
    if (n < 0 || n > MAX_ENTRIES)
        return fail(rd, "the archive lists %" PRId64 " members; a repro file has at most %d",
                    (int64_t)n, MAX_ENTRIES);
    for (int m = 0; m < M_COUNT_; m++)
        rd->index[m] = -1;
    for (zip_int64_t i = 0; i < n; i++) {
        const char *name = zip_get_name(rd->za, (zip_uint64_t)i, ZIP_FL_ENC_RAW);
        if (!name)
            return fail(rd, "member %" PRId64 ": %s", (int64_t)i, zip_strerror(rd->za));
        if (!plain_name(name))
            return fail(rd,
                        "member name '%.200s' is not a plain file name (a path, '..' or "
                        "control characters); repro members are plain names",
                        name);
        int found = -1;
        for (int m = 0; m < M_COUNT_; m++)
            if (strcmp(name, member_names[m]) == 0)
                found = m;
        if (found < 0)
            return fail(rd,
                        "member '%.200s' is none of a repro file's (input0..input2, "
                        "output_before, output_device, output_reference, scalars, op.json)",
                        name);
        if (rd->index[found] >= 0)
            return fail(rd, "member %s is in the archive twice", name);
        rd->index[found] = i;
    }
    return true;
}

/* Member m's bytes (its uncompressed size, between min and max bytes) into
 * a new buffer; libzip checks the CRC-32 when the end is read. */
static bool read_member(reader *rd, int m, uint64_t min, uint64_t max, void **out, size_t *len)
{
    const char *name = member_names[m];
    *out = NULL;
    if (rd->index[m] < 0)
        return fail(rd, "member %s is missing", name);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(rd->za, (zip_uint64_t)rd->index[m], 0, &st) != 0 ||
        !(st.valid & ZIP_STAT_SIZE))
        return fail(rd, "member %s: %s", name, zip_strerror(rd->za));
    if (st.size < min || st.size > max)
        return fail(
            rd, "member %s holds %" PRIu64 " bytes; op.json's %s allows %" PRIu64 " to %" PRIu64,
            name, (uint64_t)st.size, rd->sizes_from ? rd->sizes_from : "description", min, max);
    zip_file_t *zf = zip_fopen_index(rd->za, (zip_uint64_t)rd->index[m], 0);
    if (!zf)
        return fail(rd, "member %s: %s", name, zip_strerror(rd->za));
    size_t n = (size_t)st.size;
    char *buf = malloc(n + 1);
    if (!buf) {
        zip_fclose(zf);
        return fail(rd, "member %s: out of host memory for %zu bytes", name, n);
    }
    size_t got = 0;
    bool ok = true;
    while (ok && got < n) {
        zip_int64_t r = zip_fread(zf, buf + got, n - got);
        if (r < 0)
            ok = fail(rd, "member %s: %s", name, zip_file_strerror(zf));
        else if (r == 0)
            ok = fail(rd, "member %s ends after %zu of its %zu bytes", name, got, n);
        else
            got += (size_t)r;
    }
    /* Past the end: 0 bytes, and the CRC check, or data beyond the size. */
    char extra;
    zip_int64_t r = ok ? zip_fread(zf, &extra, 1) : 0;
    if (ok && r < 0)
        ok = fail(rd, "member %s: %s", name, zip_file_strerror(zf));
    else if (ok && r > 0)
        ok = fail(rd, "member %s holds more than the %zu bytes its directory entry says", name, n);
    zip_fclose(zf);
    if (!ok) {
        free(buf);
        return false;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return true;
}

/* ------------------------------------------------------------ op.json */

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* What a field holds, for a message: "missing", "a string", ... */
static const char *json_kind(const cJSON *v)
{
    return !v                  ? "missing"
           : cJSON_IsString(v) ? "a string"
           : cJSON_IsNumber(v) ? "a number"
           : cJSON_IsBool(v)   ? "a boolean"
           : cJSON_IsNull(v)   ? "null"
           : cJSON_IsArray(v)  ? "a list"
           : cJSON_IsObject(v) ? "an object"
                               : "no JSON value";
}

/* A field of the wrong type (or missing): its name, what it holds and what
 * a repro description has there. */
static bool wrong_field(reader *rd, const char *key, const cJSON *v, const char *expected)
{
    return fail(rd, "op.json: \"%s\" is %s; expected %s", key, json_kind(v), expected);
}

/* A non-negative integer below 2^53 (exact in a double). */
static bool json_size(reader *rd, const cJSON *v, const char *key, size_t *out)
{
    if (!cJSON_IsNumber(v))
        return wrong_field(rd, key, v, "a non-negative integer");
    double x = v->valuedouble;
    if (x > 0x1p53 && x == floor(x))
        return fail(rd, "op.json: \"%s\" = %.17g is out of range (at most 2^53)", key, x);
    if (!(x >= 0 && x <= 0x1p53 && x == floor(x)))
        return fail(rd, "op.json: \"%s\" = %.17g is not a non-negative integer", key, x);
    *out = (size_t)x;
    return true;
}

static bool get_size(reader *rd, const cJSON *o, const char *key, size_t *out)
{
    return json_size(rd, field(o, key), key, out);
}

static bool get_u32(reader *rd, const cJSON *o, const char *key, uint32_t *out)
{
    size_t v = 0;
    if (!get_size(rd, o, key, &v))
        return false;
    if (v > UINT32_MAX)
        return fail(rd, "op.json: \"%s\" = %zu is too large", key, v);
    *out = (uint32_t)v;
    return true;
}

/* A 64-bit value written as a decimal string. */
static bool get_u64(reader *rd, const cJSON *o, const char *key, uint64_t *out)
{
    const cJSON *v = field(o, key);
    const char *s = cJSON_IsString(v) ? v->valuestring : NULL;
    char *end = NULL;
    errno = 0;
    unsigned long long x = s && *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
    if (!s)
        return wrong_field(rd, key, v, "a 64-bit unsigned integer as a decimal string");
    if (!end || *end || errno)
        return fail(rd,
                    "op.json: \"%s\" is '%.40s'; expected a 64-bit unsigned integer as a "
                    "decimal string",
                    key, s);
    *out = (uint64_t)x;
    return true;
}

static bool get_name(reader *rd, const cJSON *o, const char *key, char *out, size_t cap)
{
    const cJSON *v = field(o, key);
    if (!cJSON_IsString(v))
        return wrong_field(rd, key, v, "a device name (\"cpu:0\", \"cuda:0\")");
    if (!v->valuestring[0] || strlen(v->valuestring) >= cap)
        return fail(rd, "op.json: \"%s\" is '%.40s'; expected a device name (\"cpu:0\")", key,
                    v->valuestring);
    snprintf(out, cap, "%s", v->valuestring);
    return true;
}

static bool get_sizes(reader *rd, const cJSON *o, const char *key, uint32_t n, size_t *out,
                      size_t stride)
{
    const cJSON *a = field(o, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != (int)n)
        return fail(rd, "op.json: \"%s\" is %s%s%d%s; expected a list of %u integers", key,
                    json_kind(a), cJSON_IsArray(a) ? " of " : "",
                    cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0, cJSON_IsArray(a) ? " values" : "",
                    n);
    for (uint32_t i = 0; i < n; i++)
        if (!json_size(rd, cJSON_GetArrayItem(a, (int)i), key,
                       (size_t *)((char *)out + i * stride)))
            return false;
    return true;
}

/* The keys of op.json as core/repro.c writes them. The informational ones
 * (op, function, dtype, scalars, verify_seed, mismatch) may be absent; when
 * present they must agree with the rest and with the members. */
static const char *const known_keys[] = {
    "format",      "version",     "device",       "reference", "op",          "op_code",
    "function",    "dtype",       "dtype_code",   "flags",     "scalars",     "seed",
    "rng_offset",  "verify_seed", "trans_a",      "trans_b",   "m",           "n",
    "k",           "lda",         "ldb",          "ldc",       "batch_count", "stride_a",
    "stride_b",    "stride_c",    "num_operands", "offsets",   "counts",      "guard_before",
    "guard_after", "mismatch",
};

/* Every key of o is one op.json has, and none comes twice (cJSON would take
 * the first, Python's json module the last: the two would disagree). */
static bool check_keys(reader *rd, const cJSON *o)
{
    for (const cJSON *c = o->child; c; c = c->next) {
        bool known = false;
        for (size_t i = 0; i < sizeof known_keys / sizeof known_keys[0] && !known; i++)
            known = strcmp(c->string, known_keys[i]) == 0;
        if (!known)
            return fail(rd, "op.json: unknown key \"%.80s\" (not a field of a repro description)",
                        c->string);
        for (const cJSON *e = o->child; e != c; e = e->next)
            if (strcmp(e->string, c->string) == 0)
                return fail(rd, "op.json: key \"%.80s\" appears twice", c->string);
    }
    return true;
}

/* An informational string field: absent, or a string. */
static bool optional_string(reader *rd, const cJSON *o, const char *key)
{
    const cJSON *v = field(o, key);
    if (v && !cJSON_IsString(v))
        return fail(rd, "op.json: \"%s\" is not a string (it is %s)", key, json_kind(v));
    return true;
}

/* A name field that must say what its code field says ("op" and op_code). */
static bool name_agrees(reader *rd, const cJSON *o, const char *key, const char *want,
                        const char *code_key, uint32_t code)
{
    const cJSON *v = field(o, key);
    if (!v)
        return true;
    if (!cJSON_IsString(v) || strcmp(v->valuestring, want) != 0)
        return fail(rd, "op.json: \"%s\" is %s%.40s%s but \"%s\" %u is %s", key,
                    cJSON_IsString(v) ? "'" : "", cJSON_IsString(v) ? v->valuestring : "no string",
                    cJSON_IsString(v) ? "'" : "", code_key, code, want);
    return true;
}

/* op.json's "scalars" (numbers, or "nan", "inf", "-inf"), when present,
 * against scalars.npy's four values. */
static bool scalars_agree(reader *rd, const cJSON *o, const double got[4])
{
    const cJSON *a = field(o, "scalars");
    if (!a)
        return true;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 4)
        return fail(rd, "op.json: \"scalars\" is not a list of 4 values");
    for (int i = 0; i < 4; i++) {
        const cJSON *v = cJSON_GetArrayItem(a, i);
        const char *s = cJSON_IsString(v) ? v->valuestring : "";
        double x = cJSON_IsNumber(v)        ? v->valuedouble
                   : strcmp(s, "nan") == 0  ? NAN
                   : strcmp(s, "inf") == 0  ? INFINITY
                   : strcmp(s, "-inf") == 0 ? -INFINITY
                                            : 0;
        if (!cJSON_IsNumber(v) && x == 0)
            return fail(rd,
                        "op.json: \"scalars\"[%d] is not a number, \"nan\", \"inf\" or "
                        "\"-inf\"",
                        i);
        if (!(x == got[i] || (isnan(x) && isnan(got[i]))))
            return fail(rd, "op.json: \"scalars\"[%d] is %.17g but scalars.npy holds %.17g", i, x,
                        got[i]);
    }
    return true;
}

static bool parse_desc(reader *rd, const cJSON *o, repro *r)
{
    accel_op_desc *d = &r->d;
    const cJSON *fmt = field(o, "format"), *ver = field(o, "version");
    if (!cJSON_IsObject(o))
        return fail(rd,
                    "op.json is not an accel repro description: it holds %s; expected an "
                    "object with \"format\": \"accel-repro\"",
                    json_kind(o));
    if (!cJSON_IsString(fmt))
        return wrong_field(rd, "format", fmt, "\"accel-repro\" (not an accel repro description)");
    if (strcmp(fmt->valuestring, "accel-repro") != 0)
        return fail(rd,
                    "op.json: \"format\" is '%.40s'; expected \"accel-repro\" (not an accel "
                    "repro description)",
                    fmt->valuestring);
    uint64_t verify_seed = 0;
    if (!check_keys(rd, o) || !optional_string(rd, o, "function") ||
        !optional_string(rd, o, "mismatch") ||
        (field(o, "verify_seed") && !get_u64(rd, o, "verify_seed", &verify_seed)))
        return false;
    if (!cJSON_IsNumber(ver))
        return wrong_field(rd, "version", ver, "the repro format version 2");
    if (ver->valuedouble != 2)
        return fail(rd, "op.json: repro format version %g; this accel reads version 2",
                    ver->valuedouble);
    uint32_t op = 0, dt = 0, ta = 0, tb = 0;
    if (!get_name(rd, o, "device", r->device, sizeof r->device) ||
        !get_name(rd, o, "reference", r->reference, sizeof r->reference) ||
        !get_u32(rd, o, "op_code", &op) || !get_u32(rd, o, "dtype_code", &dt) ||
        !get_u32(rd, o, "flags", &d->flags) || !get_u64(rd, o, "seed", &d->seed) ||
        !get_u64(rd, o, "rng_offset", &d->rng_offset) || !get_u32(rd, o, "trans_a", &ta) ||
        !get_u32(rd, o, "trans_b", &tb) || !get_size(rd, o, "m", &d->m) ||
        !get_size(rd, o, "n", &d->n) || !get_size(rd, o, "k", &d->k) ||
        !get_size(rd, o, "lda", &d->lda) || !get_size(rd, o, "ldb", &d->ldb) ||
        !get_size(rd, o, "ldc", &d->ldc) || !get_size(rd, o, "batch_count", &d->batch_count) ||
        !get_size(rd, o, "stride_a", &d->stride_a) || !get_size(rd, o, "stride_b", &d->stride_b) ||
        !get_size(rd, o, "stride_c", &d->stride_c) ||
        !get_u32(rd, o, "num_operands", &d->num_operands) ||
        !get_size(rd, o, "guard_before", &r->lo) || !get_size(rd, o, "guard_after", &r->hi))
        return false;
    const accel_op_properties *p = accel_op_info((accel_op_code)op);
    if (!p || op == ACCEL_OP_KERNEL)
        return fail(rd, "op.json: op_code %u is no op accel replays", op);
    d->op = op;
    r->esize = accel_dtype_size((accel_dtype)dt);
    if (dt != ACCEL_F32 && dt != ACCEL_F64 && dt != ACCEL_F16 && dt != ACCEL_BF16)
        return fail(rd, "op.json: dtype_code %u is not f32, f64, f16 or bf16", dt);
    d->dtype = dt;
    if (!name_agrees(rd, o, "op", accel_op_name((accel_op_code)op), "op_code", op) ||
        !name_agrees(rd, o, "dtype", accel_dtype_name((accel_dtype)dt), "dtype_code", dt))
        return false;
    if (d->num_operands != p->num_operands)
        return fail(rd, "op.json: num_operands = %u, but %s has %u", d->num_operands, p->name,
                    p->num_operands);
    d->trans_a = ta;
    d->trans_b = tb;
    return get_sizes(rd, o, "offsets", d->num_operands, &d->operands[0].offset,
                     sizeof d->operands[0]) &&
           get_sizes(rd, o, "counts", d->num_operands, &d->operands[0].count,
                     sizeof d->operands[0]);
}

/* ------------------------------------------------------------ arrays */

/* Bytes the arrays take, or false when they would not fit in memory. */
static bool check_sizes(reader *rd, const repro *r)
{
    const accel_op_desc *d = &r->d;
    uint32_t out = d->num_operands - 1;
    const uint64_t limit = (uint64_t)1 << 46;
    uint64_t es = r->esize < 4 ? 4 : r->esize; /* bf16 is stored as f32 */
    uint64_t total = 0;
    for (uint32_t i = 0; i <= out + 2; i++) {
        uint64_t n = i < out ? d->operands[i].count : (uint64_t)d->operands[out].count + r->lo;
        if (i >= out && n > limit - r->hi)
            return fail(rd, "op.json: the output and its guards are implausibly large");
        if (i >= out)
            n += r->hi;
        if (n > limit / es)
            return fail(rd, "op.json: operand %u of %" PRIu64 " elements is implausibly large", i,
                        n);
        total += n * es;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t mem = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : limit;
    if (total > mem)
        return fail(rd,
                    "the op's arrays take %.3g GiB, more than this machine's %.3g GiB of "
                    "memory",
                    (double)total / (1 << 30), (double)mem / (1 << 30));
    return true;
}

/* The .npy member m as n elements of the op's dtype, into a new buffer. */
static bool load_array(reader *rd, int m, size_t n, accel_dtype want, const char *count_field,
                       void **out)
{
    accel_dtype stored = want == ACCEL_BF16 ? ACCEL_F32 : want;
    size_t es = accel_dtype_size(stored), data = n * es;
    void *bytes = NULL;
    size_t len = 0;
    char from[160];
    snprintf(from, sizeof from, "%s (%zu %s elements)", count_field ? count_field : "description",
             n, accel_dtype_name(want));
    rd->sizes_from = from;
    bool ok =
        read_member(rd, m, (uint64_t)data + 10, (uint64_t)data + MAX_NPY_HEADER, &bytes, &len);
    rd->sizes_from = NULL;
    if (!ok)
        return false;
    accel_npy_array a;
    accel_status st = accel_npy_load_memory(bytes, len, member_names[m], &a);
    free(bytes);
    if (st != ACCEL_SUCCESS)
        return fail(rd, "%s", accel_last_error());
    if (a.dtype != stored || a.count != n) {
        if (!count_field)
            fail(rd, "member %s holds %zu %s elements; it is the op's 4 scalars as f64",
                 member_names[m], a.count, accel_dtype_name(a.dtype));
        else if (a.dtype != stored)
            fail(rd, "member %s holds %s elements; op.json's \"dtype_code\" %u (%s) needs %s",
                 member_names[m], accel_dtype_name(a.dtype), (unsigned)want, accel_dtype_name(want),
                 accel_dtype_name(stored));
        else
            fail(rd, "member %s holds %zu elements; op.json's %s says %zu", member_names[m],
                 a.count, count_field ? count_field : "description", n);
        accel_npy_free(&a);
        return false;
    }
    if (want == ACCEL_BF16) {
        /* bf16 values are the high halves of the stored f32 values. */
        unsigned char *p = a.data;
        for (size_t i = 0; i < n; i++) {
            uint32_t f;
            memcpy(&f, p + 4 * i, 4);
            if (f & 0xffffu) {
                fail(rd, "member %s: element %zu is no bf16 value (its low 16 bits are set)",
                     member_names[m], i);
                accel_npy_free(&a);
                return false;
            }
            uint16_t b = (uint16_t)(f >> 16);
            memcpy(p + 2 * i, &b, 2);
        }
    }
    *out = a.data; /* malloc'ed by accel_npy_load_memory: the caller frees it */
    return true;
}

/* The JSON text inside op.json.npy's bytes (a format 1.0 to 3.0 .npy file
 * of one 0-d '|S<n>' element, as np.save writes a bytes object): *text and
 * *len point into b. */
static bool json_of_npy(reader *rd, const unsigned char *b, size_t n, const char **text,
                        size_t *len)
{
    static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    const char *name = member_names[M_JSON_NPY];
    if (n < 12 || memcmp(b, magic, 6) != 0 || b[6] < 1 || b[6] > 3)
        return fail(rd, "member %s is not a .npy file of format 1.0 to 3.0", name);
    size_t hstart = b[6] == 1 ? 10 : 12;
    size_t hlen =
        b[6] == 1 ? (size_t)b[8] | (size_t)b[9] << 8
                  : (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    if (hlen < 1 || hlen > n - hstart || b[hstart + hlen - 1] != '\n')
        return fail(rd, "member %s: its .npy header is truncated", name);
    char header[512];
    if (hlen >= sizeof header)
        return fail(rd, "member %s: its .npy header is too long", name);
    memcpy(header, b + hstart, hlen);
    header[hlen] = '\0';
    const char *d = strstr(header, "'descr': '|S");
    char *end = NULL;
    unsigned long long size = d ? strtoull(d + 12, &end, 10) : 0;
    size_t data = n - hstart - hlen;
    if (!d || !end || *end != '\'' || !strstr(header, "'fortran_order': False") ||
        !strstr(header, "'shape': ()") || size != data)
        return fail(rd, "member %s is not one bytes string ('|S' of shape ()) holding op.json",
                    name);
    *text = (const char *)b + hstart + hlen;
    *len = strnlen(*text, data); /* the array pads with NULs; NumPy drops them */
    return true;
}

/* Every member is one the op reads: no inputN past its inputs, not both
 * forms of op.json (they could say different things). */
static bool check_members(reader *rd, const repro *r)
{
    if (rd->index[M_JSON] >= 0 && rd->index[M_JSON_NPY] >= 0)
        return fail(rd, "the archive holds both op.json and op.json.npy; a repro file has one");
    uint32_t inputs = r->d.num_operands - 1;
    for (uint32_t i = inputs; i < 3; i++)
        if (rd->index[M_INPUT0 + (int)i] >= 0)
            return fail(rd,
                        "member %s is in the archive, but %s has %u input%s (op.json's "
                        "\"op_code\" %u)",
                        member_names[M_INPUT0 + (int)i], accel_op_name((accel_op_code)r->d.op),
                        inputs, inputs == 1 ? "" : "s", r->d.op);
    return true;
}

/* The JSON text before a position, as far as a message needs it: the last
 * character outside strings and white space, the innermost open object or
 * list, whether an object's next string is a key or was one, whether the
 * position is inside a string, and the line it is on. */
typedef struct json_scan {
    char prev; /* 0: nothing before */
    bool object, in_list, key_next, after_key, in_str;
    unsigned line;
    size_t line_start;
} json_scan;

static json_scan scan_json(const char *text, size_t n, size_t upto)
{
    char stack[64]; /* '{' or '[' per open container, the innermost last */
    bool key_next[64];
    int depth = 0, lost = 0; /* lost: containers deeper than the stack */
    json_scan s = {.line = 1};
    for (size_t i = 0; i < upto && i < n; i++) {
        char c = text[i];
        if (c == '\n')
            s.line++, s.line_start = i + 1;
        if (s.in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                s.in_str = false, s.prev = '"';
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        bool in_object = depth > 0 && !lost && stack[depth - 1] == '{';
        if (c == '"') {
            s.in_str = true;
            s.after_key = in_object && key_next[depth - 1];
            if (in_object)
                key_next[depth - 1] = false;
        } else if (c == '{' || c == '[') {
            if (depth < 64 && !lost) {
                stack[depth] = c;
                key_next[depth++] = c == '{';
            } else {
                lost++;
            }
            s.after_key = false;
        } else if (c == '}' || c == ']') {
            if (lost)
                lost--;
            else if (depth > 0)
                depth--;
            s.after_key = false;
        } else if (c == ',') {
            if (in_object)
                key_next[depth - 1] = true;
            s.after_key = false;
        } else if (c == ':') {
            s.after_key = false;
        }
        s.prev = c;
    }
    s.object = depth > 0 && !lost && stack[depth - 1] == '{';
    s.in_list = depth > 0 && !lost && stack[depth - 1] == '[';
    s.key_next = s.object && (s.prev == '{' || s.prev == ',');
    return s;
}

/* Where cJSON stopped in text (n bytes) as line and column, what is there
 * and what JSON has there after the token before it, so that a reader can
 * fix the file. cJSON's position at is the byte it could not take, except
 * after a failed string (a key or a string value): then it is one past the
 * byte where the string should begin. */
static bool json_syntax_error(reader *rd, const char *text, size_t n, size_t at)
{
    json_scan s = scan_json(text, n, at);
    if (at > 0 && at <= n && text[at - 1] == '"' && s.in_str) {
        at--; /* a string that does not end, or holds what JSON forbids */
        s = scan_json(text, n, at);
        s.in_str = true;
    } else if (at > 0 && at <= n && !strchr(" \t\r\n", text[at - 1])) {
        json_scan before = scan_json(text, n, at - 1);
        if (before.key_next) /* a key expected where another byte is */
            at--, s = before;
    }
    while (!s.in_str && at < n && strchr(" \t\r\n", text[at]))
        at++;
    const char *expected = s.in_str                      ? "'\"' to close it (and inside it no raw "
                                                           "control character, only JSON escapes)"
                           : !s.prev                     ? "'{', the start of the object"
                           : s.prev == ':'               ? "a value (a string, number, object, "
                                                           "list, true, false or null)"
                           : s.key_next && s.prev == '{' ? "a \"key\" in double quotes, or '}'"
                           : s.key_next                  ? "a \"key\" in double quotes"
                           : s.prev == '['               ? "a value, or ']'"
                           : s.prev == ','               ? "a value"
                           : s.prev == '"' && s.after_key ? "':' after the key"
                           : s.object                     ? "',' or '}'"
                           : s.in_list                    ? "',' or ']'"
                                                          : "the end of the text";
    char found[32];
    unsigned char c = at < n ? (unsigned char)text[at] : 0;
    if (s.in_str)
        snprintf(found, sizeof found, "a string starts here");
    else if (at >= n)
        snprintf(found, sizeof found, "the text ends");
    else if (c >= 0x21 && c < 0x7f)
        snprintf(found, sizeof found, "found '%c'", c);
    else
        snprintf(found, sizeof found, "found byte 0x%02X", c);
    for (size_t i = s.line_start; i < at && i < n; i++) /* the line of at itself */
        if (text[i] == '\n')
            s.line++, s.line_start = i + 1;
    return fail(rd,
                "op.json is not valid JSON: line %u, column %zu (byte %zu of %zu): %s; "
                "expected %s",
                s.line, at - s.line_start + 1, at, n, found, expected);
}

static bool read_all(reader *rd, repro *r)
{
    if (!scan(rd))
        return false;
    void *member = NULL;
    size_t mlen = 0, jlen = 0;
    const char *json = NULL;
    if (rd->index[M_JSON] < 0 && rd->index[M_JSON_NPY] >= 0) {
        if (!read_member(rd, M_JSON_NPY, 12, MAX_JSON_BYTES + 512, &member, &mlen) ||
            !json_of_npy(rd, member, mlen, &json, &jlen)) {
            free(member);
            return false;
        }
    } else {
        if (!read_member(rd, M_JSON, 2, MAX_JSON_BYTES, &member, &jlen))
            return false;
        json = member;
    }
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithLengthOpts(json, jlen, &end, false);
    if (!o) {
        /* cJSON leaves end where it failed, clamped to the last byte:
         * parsed again with a space after it, a failure at or past the end
         * shows as such. */
        size_t bad = end ? (size_t)(end - json) : jlen;
        char *longer = bad + 1 == jlen ? malloc(jlen + 1) : NULL;
        if (longer) {
            memcpy(longer, json, jlen);
            longer[jlen] = ' ';
            const char *end2 = NULL;
            cJSON *again = cJSON_ParseWithLengthOpts(longer, jlen + 1, &end2, false);
            if (!again && end2)
                bad = (size_t)(end2 - longer) < jlen ? (size_t)(end2 - longer) : jlen;
            cJSON_Delete(again);
            free(longer);
        }
        bool ok = json_syntax_error(rd, json, jlen, bad);
        free(member);
        return ok;
    }
    /* Only white space may follow the object (Python's json.loads says
     * "Extra data" too). */
    size_t at = end ? (size_t)(end - json) : jlen;
    while (at < jlen && strchr(" \t\r\n", json[at]) && json[at])
        at++;
    unsigned line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < at && i < jlen; i++)
        if (json[i] == '\n')
            line++, line_start = i + 1;
    bool ok = at >= jlen || fail(rd,
                                 "op.json: text after the JSON object, at line %u, column %zu "
                                 "(byte %zu of %zu); expected one object and white space only",
                                 line, at - line_start + 1, at, jlen);
    free(member);
    ok = ok && parse_desc(rd, o, r);
    if (!ok || !check_sizes(rd, r) || !check_members(rd, r)) {
        cJSON_Delete(o);
        return false;
    }
    accel_op_desc *d = &r->d;
    d->struct_size = sizeof *d;
    d->name = "accel replay";
    accel_dtype t = (accel_dtype)d->dtype;
    uint32_t out = d->num_operands - 1;
    size_t window = r->lo + d->operands[out].count + r->hi;
    static const char *const counts[3] = {"counts[0]", "counts[1]", "counts[2]"};
    ok = true;
    for (uint32_t i = 0; i < out && ok; i++)
        ok = load_array(rd, M_INPUT0 + (int)i, d->operands[i].count, t, counts[i], &r->data[i]);
    const char *wfield = out == 1   ? "guard_before + counts[1] + guard_after"
                         : out == 2 ? "guard_before + counts[2] + guard_after"
                                    : "guard_before + counts[3] + guard_after";
    void *scalars = NULL;
    ok = ok && load_array(rd, M_BEFORE, window, t, wfield, &r->data[out]) &&
         load_array(rd, M_DEVICE, window, t, wfield, &r->device_out) &&
         load_array(rd, M_REFERENCE, window, t, wfield, &r->reference_out) &&
         load_array(rd, M_SCALARS, 4, ACCEL_F64, NULL, &scalars);
    if (ok) {
        memcpy(d->scalars, scalars, sizeof d->scalars);
        ok = scalars_agree(rd, o, d->scalars);
    }
    free(scalars);
    cJSON_Delete(o);
    return ok;
}

/* Where the archive of fd (size bytes) ends: after its end of central
 * directory record and that record's comment. NumPy's np.load opens a .npz
 * only when it starts with a zip member ("PK\3\4"; numpy/lib/npyio.py) and
 * then reads it with Python's zipfile, which finds the record as the last
 * "PK\5\6" in the file's last 64 KiB + 22 bytes and ignores what follows
 * the record's comment (zipfile._EndRecData): bytes appended to a .npz are
 * accepted, bytes put in front are not. This does the same: size when
 * nothing follows, the end when something does, and why_zip set (a file np.load
 * would not read as .npz) when it does not start with a member. Files with
 * no record are left to libzip, which says why. */
static uint64_t archive_end(int fd, uint64_t size, char *why_zip, size_t cap)
{
    unsigned char head[4];
    if (size >= 4 && (pread(fd, head, 4, 0) != 4 || memcmp(head, "PK\3\4", 4) != 0)) {
        snprintf(why_zip, cap,
                 "it does not start with a zip member (PK\\3\\4), so np.load would not "
                 "read it as .npz either");
        return size;
    }
    enum { EOCD = 22, MAX_COMMENT = 65535 };
    uint64_t from = size > EOCD + MAX_COMMENT ? size - EOCD - MAX_COMMENT : 0;
    size_t n = (size_t)(size - from);
    unsigned char *tail = n >= EOCD ? malloc(n) : NULL;
    if (!tail || pread(fd, tail, n, (off_t)from) != (ssize_t)n) {
        free(tail);
        return size;
    }
    uint64_t end = size;
    for (size_t i = n - EOCD + 1; i-- > 0;)
        if (memcmp(tail + i, "PK\5\6", 4) == 0) {
            uint64_t comment = (uint64_t)tail[i + 20] | (uint64_t)tail[i + 21] << 8;
            end = from + i + EOCD + comment;
            break;
        }
    free(tail);
    return end < size ? end : size;
}

/* The archive of fd's first len bytes (what follows is ignored). */
static zip_t *open_prefix(int fd, uint64_t len, int *err)
{
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        *err = ZIP_ER_OPEN;
        return NULL;
    }
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_filep_create(f, 0, (zip_int64_t)len, &ze);
    zip_t *za = src ? zip_open_from_source(src, ZIP_CHECKCONS, &ze) : NULL;
    if (!src)
        fclose(f);
    else if (!za)
        zip_source_free(src); /* closes f */
    *err = zip_error_code_zip(&ze);
    zip_error_fini(&ze);
    return za;
}

bool repro_load(const char *path, repro *r, char *why, size_t cap)
{
    memset(r, 0, sizeof *r);
    reader rd = {.why = why, .cap = cap};
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat sb;
    if (fd < 0)
        return fail(&rd, "%s", strerror(errno));
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        int e = errno;
        close(fd);
        return fail(&rd, "%s", S_ISREG(sb.st_mode) ? strerror(e) : kind_of(sb.st_mode));
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    static const char old[] = "accel-repro 1\n";
    char head[sizeof old - 1];
    if (pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
        memcmp(head, old, sizeof head) == 0) {
        close(fd);
        return fail(&rd, "a repro file of the old text format (version 1), which this accel no "
                         "longer reads; verify mode now writes .npz files (accel/verify.h)");
    }
    char why_zip[200] = "";
    uint64_t end = archive_end(fd, (uint64_t)sb.st_size, why_zip, sizeof why_zip);
    if (why_zip[0]) {
        close(fd);
        return fail(&rd, "not a readable .npz (zip) archive: %s", why_zip);
    }
    int err = 0;
    if (end < (uint64_t)sb.st_size) {
        r->trailing_bytes = (size_t)((uint64_t)sb.st_size - end);
        rd.za = open_prefix(fd, end, &err);
    } else {
        rd.za = zip_fdopen(fd, ZIP_CHECKCONS, &err);
        if (!rd.za)
            close(fd);
    }
    if (!rd.za) {
        if (err == ZIP_ER_EXISTS)
            return fail(&rd, "two members of the archive have the same name");
        zip_error_t ze;
        zip_error_init_with_code(&ze, err);
        fail(&rd, "not a readable .npz (zip) archive: %s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return false;
    }
    bool ok = read_all(&rd, r);
    zip_discard(rd.za);
    return ok;
}
