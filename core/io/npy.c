/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* npy.c — the NumPy .npy reader and writer (accel/npy.h).
 *
 * Format reference: NEP 1 / numpy.lib.format. The reader treats every byte of
 * the file as hostile: the header is a Python literal parsed by a small
 * recursive-descent parser that accepts only what NumPy writes (a dict of
 * strings, booleans and a tuple of integers), every size is computed with
 * overflow checks, and the data size is checked against the file size before
 * anything large is allocated. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accel/npy.h"

#include "base/status.h"
#include "io/npy_preamble.h"

/* A header longer than this is not something NumPy writes for the dtypes we
 * accept (it needs ~120 bytes); refusing early bounds the allocation. NumPy's
 * own reader refuses headers over 10000 bytes by default. */
#define NPY_MAX_HEADER (1u << 20)
#define NPY_DESCR_MAX 64

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* The shapes an .npy file may have, the same for reading and writing, so
 * that whatever accel saves it (and NumPy) can load: NumPy's rule
 * (PyArray_NewFromDescr) that every dimension is at most NPY_MAX_INTP and
 * that itemsize times the product of the non-zero dimensions does not
 * overflow intp, also when another dimension is 0 (np.empty((0, 2**62),
 * 'f4') is "array is too big"). accel's own reading needs the byte count to
 * fit size_t as well, which this implies. *out_count: the element count. */
static bool npy_shape_check(const char *func, const char *name, uint32_t ndim, const size_t *shape,
                            size_t esize, size_t *out_count)
{
    size_t nonzero_bytes = esize, count = 1;
    for (uint32_t d = 0; d < ndim; d++) {
        if (shape[d] > (size_t)PTRDIFF_MAX) {
            accel__set_error("%s: %s: shape[%u] = %zu is larger than 2^63-1, the largest "
                             "dimension NumPy (intp) can hold",
                             func, name, d, shape[d]);
            return false;
        }
        if (shape[d] == 0) {
            count = 0;
            continue;
        }
        if (nonzero_bytes > (size_t)PTRDIFF_MAX / shape[d]) {
            accel__set_error("%s: %s: the shape's non-zero dimensions times %zu bytes per "
                             "element exceed 2^63-1 bytes, which NumPy refuses (\"array is too "
                             "big\") even when another dimension is 0",
                             func, name, esize);
            return false;
        }
        nonzero_bytes *= shape[d];
        count *= shape[d];
    }
    *out_count = count;
    return true;
}

static bool host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* ------------------------------------------------------------ byte source */

/* Where the bytes come from: a FILE or a memory block. */
typedef struct npy_source {
    FILE *file;
    const unsigned char *mem;
    size_t mem_size;
    size_t pos;
    long long remaining; /* bytes left when known (regular file, memory), else -1 */
} npy_source;

static size_t source_read(npy_source *s, void *dst, size_t n)
{
    size_t got;
    if (s->file) {
        got = fread(dst, 1, n, s->file);
    } else {
        size_t left = s->mem_size - s->pos;
        got = n < left ? n : left;
        if (got)
            memcpy(dst, s->mem + s->pos, got);
    }
    s->pos += got;
    if (s->remaining >= 0)
        s->remaining -= (long long)got;
    return got;
}

/* True when no byte is left. */
static bool source_at_end(npy_source *s)
{
    if (s->file) {
        int c = fgetc(s->file);
        if (c == EOF)
            return true;
        ungetc(c, s->file);
        return false;
    }
    return s->pos >= s->mem_size;
}

/* --------------------------------------------------------- header parser */

typedef struct npy_header {
    char descr[NPY_DESCR_MAX + 1]; /* the descr string, sanitized, maybe cut */
    size_t descr_len;              /* its full length */
    bool descr_is_list;            /* a structured dtype */
    bool has_descr, has_fortran, has_shape;
    bool fortran_order;
    uint32_t ndim; /* entries in the shape tuple (may exceed ACCEL_NPY_MAX_DIMS) */
    size_t shape[ACCEL_NPY_MAX_DIMS];
} npy_header;

typedef struct npy_parser {
    const char *s;
    size_t n, i;
    const char *func, *name;
    char err[160]; /* first syntax error */
} npy_parser;

static void parse_fail(npy_parser *p, const char *fmt, ...)
{
    if (p->err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
}

static void skip_space(npy_parser *p)
{
    while (p->i < p->n &&
           (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int peek(npy_parser *p)
{
    skip_space(p);
    return p->i < p->n ? (unsigned char)p->s[p->i] : -1;
}

static bool expect(npy_parser *p, char c, const char *what)
{
    if (peek(p) != (unsigned char)c) {
        parse_fail(p, "expected %s at byte %zu", what, p->i);
        return false;
    }
    p->i++;
    return true;
}

/* A quoted string without escapes; copies up to cap-1 bytes (non-printable
 * ones as '?') into out and its full length into *out_len. */
static bool parse_string(npy_parser *p, char *out, size_t cap, size_t *out_len)
{
    int q = peek(p);
    if (q != '\'' && q != '"') {
        parse_fail(p, "expected a quoted string at byte %zu", p->i);
        return false;
    }
    size_t start = ++p->i, len = 0;
    while (p->i < p->n && p->s[p->i] != (char)q) {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '\\' || c == '\n') {
            parse_fail(p, "unsupported character in string at byte %zu", p->i);
            return false;
        }
        if (len + 1 < cap)
            out[len] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
        len++;
        p->i++;
    }
    if (p->i >= p->n) {
        parse_fail(p, "unterminated string starting at byte %zu", start - 1);
        return false;
    }
    p->i++;
    out[len < cap ? len : cap - 1] = '\0';
    *out_len = len;
    return true;
}

static bool parse_word(npy_parser *p, const char *w)
{
    size_t l = strlen(w);
    if (p->n - p->i >= l && memcmp(p->s + p->i, w, l) == 0) {
        char next = p->i + l < p->n ? p->s[p->i + l] : ' ';
        if (!(next == '_' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
              (next >= '0' && next <= '9'))) {
            p->i += l;
            return true;
        }
    }
    return false;
}

/* A non-negative decimal integer (Python 2 files may append 'L'). */
static bool parse_size(npy_parser *p, size_t *out)
{
    skip_space(p);
    size_t start = p->i, v = 0;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
        size_t d = (size_t)(p->s[p->i] - '0');
        if (v > (SIZE_MAX - d) / 10) {
            parse_fail(p, "shape entry at byte %zu is too large", start);
            return false;
        }
        v = v * 10 + d;
        p->i++;
    }
    if (p->i == start) {
        if (p->i < p->n && p->s[p->i] == '-')
            parse_fail(p, "negative shape entry at byte %zu", start);
        else
            parse_fail(p, "expected a non-negative integer in shape at byte %zu", start);
        return false;
    }
    /* NumPy's dimensions are intp; larger ones cannot come from NumPy. */
    if (v > (size_t)PTRDIFF_MAX) {
        parse_fail(p, "shape entry at byte %zu is too large", start);
        return false;
    }
    if (p->i < p->n && p->s[p->i] == 'L')
        p->i++;
    *out = v;
    return true;
}

/* (), (n,), (n, m), (n, m,) ... */
static bool parse_shape(npy_parser *p, npy_header *h)
{
    if (peek(p) != '(') {
        parse_fail(p, "'shape' is not a tuple (byte %zu)", p->i);
        return false;
    }
    p->i++;
    h->ndim = 0;
    bool trailing_comma = false;
    while (peek(p) != ')') {
        size_t v;
        if (!parse_size(p, &v))
            return false;
        if (h->ndim < ACCEL_NPY_MAX_DIMS)
            h->shape[h->ndim] = v;
        if (h->ndim == UINT32_MAX) {
            parse_fail(p, "too many shape entries");
            return false;
        }
        h->ndim++;
        trailing_comma = false;
        int c = peek(p);
        if (c == ',') {
            p->i++;
            trailing_comma = true;
        } else if (c != ')') {
            parse_fail(p, "expected ',' or ')' in shape at byte %zu", p->i);
            return false;
        }
    }
    p->i++;
    if (h->ndim == 1 && !trailing_comma) {
        parse_fail(p, "'shape' is a parenthesized integer, not a tuple");
        return false;
    }
    return true;
}

/* Skip a bracketed value (the field list of a structured dtype), honouring
 * strings and nesting, so that the message can say what it was. */
static bool skip_bracketed(npy_parser *p)
{
    int depth = 0;
    while (p->i < p->n) {
        char c = p->s[p->i];
        if (c == '\'' || c == '"') {
            char tmp[2];
            size_t len;
            if (!parse_string(p, tmp, sizeof tmp, &len))
                return false;
            continue;
        }
        if (c == '[' || c == '(')
            depth++;
        else if (c == ']' || c == ')') {
            if (--depth == 0) {
                p->i++;
                return true;
            }
        }
        p->i++;
    }
    parse_fail(p, "unterminated list");
    return false;
}

/* Key key seen now: false (a parse error) where it was seen before. */
static bool first_key(npy_parser *p, bool *seen, const char *key)
{
    if (*seen) {
        parse_fail(p, "duplicate key '%s'", key);
        return false;
    }
    *seen = true;
    return true;
}

static bool parse_header(npy_parser *p, npy_header *h)
{
    memset(h, 0, sizeof *h);
    if (!expect(p, '{', "'{'"))
        return false;
    while (peek(p) != '}') {
        char key[32];
        size_t key_len;
        size_t key_at = p->i;
        if (!parse_string(p, key, sizeof key, &key_len) || !expect(p, ':', "':' after a key"))
            return false;
        if (key_len == 5 && strcmp(key, "descr") == 0) {
            if (!first_key(p, &h->has_descr, "descr"))
                return false;
            int c = peek(p);
            if (c == '[') {
                h->descr_is_list = true;
                if (!skip_bracketed(p))
                    return false;
            } else if (!parse_string(p, h->descr, sizeof h->descr, &h->descr_len)) {
                return false;
            }
        } else if (key_len == 13 && strcmp(key, "fortran_order") == 0) {
            if (!first_key(p, &h->has_fortran, "fortran_order"))
                return false;
            skip_space(p);
            if (parse_word(p, "True"))
                h->fortran_order = true;
            else if (parse_word(p, "False"))
                h->fortran_order = false;
            else {
                parse_fail(p, "'fortran_order' is not True or False (byte %zu)", p->i);
                return false;
            }
        } else if (key_len == 5 && strcmp(key, "shape") == 0) {
            if (!first_key(p, &h->has_shape, "shape"))
                return false;
            if (!parse_shape(p, h))
                return false;
        } else {
            parse_fail(p, "unexpected key '%s' at byte %zu", key, key_at);
            return false;
        }
        int c = peek(p);
        if (c == ',')
            p->i++;
        else if (c != '}') {
            parse_fail(p, "expected ',' or '}' at byte %zu", p->i);
            return false;
        }
    }
    p->i++;
    skip_space(p);
    if (p->i != p->n) {
        parse_fail(p, "unexpected bytes after the header dict at byte %zu", p->i);
        return false;
    }
    if (!h->has_descr || !h->has_fortran || !h->has_shape) {
        parse_fail(p, "header lacks key '%s'",
                   !h->has_descr     ? "descr"
                   : !h->has_fortran ? "fortran_order"
                                     : "shape");
        return false;
    }
    return true;
}

/* What a NumPy type character means, for messages. */
static const char *kind_name(char k)
{
    switch (k) {
    case 'f':
        return "floating point";
    case 'i':
        return "signed integer";
    case 'u':
        return "unsigned integer";
    case 'b':
        return "boolean";
    case 'c':
        return "complex";
    case 'O':
        return "Python object";
    case 'U':
        return "unicode string";
    case 'S':
    case 'a':
        return "byte string";
    case 'V':
        return "void/raw";
    case 'M':
        return "datetime64";
    case 'm':
        return "timedelta64";
    default:
        return "unknown";
    }
}

/* The NumPy descr and element size of each dtype a .npy file carries here
 * (every Array API dtype and float16; bf16 has no NumPy dtype). This file
 * stands alone in the fuzz targets, so it does not call accel_dtype_size. */
static const struct {
    const char *descr;
    size_t size;
} npy_types[ACCEL_DTYPE_COUNT_] = {
    [ACCEL_F32] = {"<f4", 4},  [ACCEL_F64] = {"<f8", 8},   [ACCEL_F16] = {"<f2", 2},
    [ACCEL_I32] = {"<i4", 4},  [ACCEL_I64] = {"<i8", 8},   [ACCEL_U8] = {"|u1", 1},
    [ACCEL_BOOL] = {"|b1", 1}, [ACCEL_I8] = {"|i1", 1},    [ACCEL_I16] = {"<i2", 2},
    [ACCEL_U16] = {"<u2", 2},  [ACCEL_U32] = {"<u4", 4},   [ACCEL_U64] = {"<u8", 8},
    [ACCEL_C64] = {"<c8", 8},  [ACCEL_C128] = {"<c16", 16}};

static accel_status descr_to_dtype(const char *func, const char *name, const npy_header *h,
                                   accel_dtype *out)
{
    const char *want = "accel reads little-endian bool, int8..int64, uint8..uint64, float16, "
                       "float32, float64, complex64 and complex128 ('|b1', '<i4', '<f8', '<c8', "
                       "...)";
    if (h->descr_is_list) {
        accel__set_error("%s: %s: structured dtype (a list of fields) is not supported; %s", func,
                         name, want);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    const char *d = h->descr;
    /* '<' (little-endian), '|' (no order: one byte) and '=' (native: this
     * little-endian host) are the same bytes */
    if (h->descr_len >= 3 && strchr("<|=", d[0]))
        for (unsigned t = 0; t < ACCEL_DTYPE_COUNT_; t++)
            if (npy_types[t].descr && strcmp(npy_types[t].descr + 1, d + 1) == 0) {
                *out = (accel_dtype)t;
                return ACCEL_SUCCESS;
            }
    if (h->descr_len >= 2 && d[0] == '>' && d[1] != '\0' && strchr("fiucb", d[1])) {
        accel__set_error("%s: %s: dtype '%s' is big-endian %s; %s (convert with "
                         "a.astype(a.dtype.newbyteorder('<')))",
                         func, name, d, kind_name(d[1]), want);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    const char *k = h->descr_len >= 2 && strchr("<>|=", d[0]) ? d + 1 : d;
    accel__set_error("%s: %s: dtype '%s' (%s) is not supported; %s", func, name, d,
                     k[0] ? kind_name(k[0]) : "empty", want);
    return ACCEL_ERROR_UNSUPPORTED;
}

static const char *dtype_descr(accel_dtype t)
{
    return (unsigned)t < ACCEL_DTYPE_COUNT_ ? npy_types[t].descr : NULL;
}

static size_t dtype_bytes(accel_dtype t)
{
    return (unsigned)t < ACCEL_DTYPE_COUNT_ ? npy_types[t].size : 0;
}

/* ------------------------------------------------------------------ load */

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The preamble: magic, version and the header's length (APPNOTE of NumPy's
 * format: numpy.lib.format, versions 1.0, 2.0 and 3.0). */
static accel_status read_preamble(npy_source *src, const char *func, const char *name,
                                  size_t *out_header_len)
{
    unsigned char pre[12];
    size_t got = source_read(src, pre, 10);
    size_t cmp = got < 6 ? got : 6;
    if (got == 0) {
        accel__set_error("%s: %s: empty file, not a .npy file", func, name);
        return ACCEL_ERROR_IO;
    }
    if (memcmp(pre, npy_magic, cmp) != 0) {
        accel__set_error("%s: %s: not a .npy file (it does not start with the \\x93NUMPY magic)",
                         func, name);
        return ACCEL_ERROR_IO;
    }
    if (got < 10) {
        accel__set_error("%s: %s: truncated .npy file (%zu bytes, shorter than the preamble)", func,
                         name, got);
        return ACCEL_ERROR_IO;
    }
    unsigned major = pre[6], minor = pre[7];
    if (major == 1 && minor == 0) {
        *out_header_len = (size_t)pre[8] | (size_t)pre[9] << 8;
    } else if ((major == 2 || major == 3) && minor == 0) {
        if (source_read(src, pre + 10, 2) < 2) {
            accel__set_error("%s: %s: truncated .npy file (ends inside the preamble)", func, name);
            return ACCEL_ERROR_IO;
        }
        *out_header_len = le32(pre + 8);
    } else {
        accel__set_error("%s: %s: .npy format version %u.%u is not supported (1.0, 2.0, 3.0 are)",
                         func, name, major, minor);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    return ACCEL_SUCCESS;
}

/* The header dict of header_len bytes, read and parsed into h. */
static accel_status read_header(npy_source *src, const char *func, const char *name,
                                size_t header_len, npy_header *h)
{
    if (header_len > NPY_MAX_HEADER) {
        accel__set_error("%s: %s: header length %zu is larger than the %u bytes accel accepts",
                         func, name, header_len, NPY_MAX_HEADER);
        return ACCEL_ERROR_IO;
    }
    if (src->remaining >= 0 && (long long)header_len > src->remaining) {
        accel__set_error("%s: %s: truncated .npy file (header of %zu bytes, only %lld follow)",
                         func, name, header_len, src->remaining);
        return ACCEL_ERROR_IO;
    }
    char *text = malloc(header_len + 1);
    if (!text) {
        accel__set_error("%s: %s: out of host memory for a %zu-byte header", func, name,
                         header_len);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (source_read(src, text, header_len) < header_len) {
        free(text);
        accel__set_error("%s: %s: truncated .npy file (ends inside the header)", func, name);
        return ACCEL_ERROR_IO;
    }
    text[header_len] = '\0';
    npy_parser p = {.s = text, .n = header_len, .func = func, .name = name};
    bool ok = parse_header(&p, h);
    free(text);
    if (!ok) {
        accel__set_error("%s: %s: malformed .npy header: %s", func, name, p.err);
        return ACCEL_ERROR_IO;
    }
    return ACCEL_SUCCESS;
}

/* The dtype and element count h describes, if accel reads such an array. */
static accel_status header_layout(const npy_header *h, const char *func, const char *name,
                                  accel_dtype *out_dtype, size_t *out_count)
{
    accel_status st = descr_to_dtype(func, name, h, out_dtype);
    if (st != ACCEL_SUCCESS)
        return st;
    if (h->fortran_order) {
        accel__set_error("%s: %s: fortran_order is True (column-major data) and accel reads C "
                         "order only (save np.ascontiguousarray(a))",
                         func, name);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (h->ndim > ACCEL_NPY_MAX_DIMS) {
        accel__set_error("%s: %s: array has %u dimensions, accel takes at most %d", func, name,
                         h->ndim, ACCEL_NPY_MAX_DIMS);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (!npy_shape_check(func, name, h->ndim, h->shape, dtype_bytes(*out_dtype), out_count))
        return ACCEL_ERROR_IO;
    return ACCEL_SUCCESS;
}

/* The bytes data bytes that end the source (exactly: none may follow),
 * malloc'd into *out_data; descr and count name them in messages. */
static accel_status read_data(npy_source *src, const char *func, const char *name,
                              const char *descr, size_t count, size_t bytes, void **out_data)
{
    if (src->remaining >= 0 && (unsigned long long)src->remaining != (unsigned long long)bytes) {
        if ((unsigned long long)src->remaining < (unsigned long long)bytes)
            accel__set_error("%s: %s: truncated .npy file: the header promises %zu elements of %s "
                             "(%zu bytes) but only %lld data bytes follow",
                             func, name, count, descr, bytes, src->remaining);
        else
            accel__set_error("%s: %s: %lld trailing bytes after the %zu data bytes the header "
                             "promises",
                             func, name, src->remaining - (long long)bytes, bytes);
        return ACCEL_ERROR_IO;
    }
    void *data = malloc(bytes ? bytes : 1);
    if (!data) {
        accel__set_error("%s: %s: out of host memory for %zu bytes of data", func, name, bytes);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    size_t have = source_read(src, data, bytes);
    if (have < bytes) {
        free(data);
        if (src->file && ferror(src->file))
            accel__set_error("%s: %s: read error: %s", func, name, strerror(errno));
        else
            accel__set_error("%s: %s: truncated .npy file: the header promises %zu data bytes but "
                             "only %zu follow",
                             func, name, bytes, have);
        return ACCEL_ERROR_IO;
    }
    if (!source_at_end(src)) {
        free(data);
        accel__set_error("%s: %s: unexpected bytes after the %zu data bytes the header promises",
                         func, name, bytes);
        return ACCEL_ERROR_IO;
    }
    *out_data = data;
    return ACCEL_SUCCESS;
}

static accel_status load_from(npy_source *src, const char *func, const char *name,
                              accel_npy_array *out)
{
    if (!host_is_little_endian()) {
        accel__set_error("%s: %s: big-endian hosts are not supported", func, name);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    size_t header_len = 0, count = 1;
    npy_header h;
    accel_dtype dtype = ACCEL_DTYPE_INVALID;
    void *data = NULL;
    accel_status st = read_preamble(src, func, name, &header_len);
    if (st == ACCEL_SUCCESS)
        st = read_header(src, func, name, header_len, &h);
    if (st == ACCEL_SUCCESS)
        st = header_layout(&h, func, name, &dtype, &count);
    if (st == ACCEL_SUCCESS)
        st = read_data(src, func, name, h.descr, count, count * dtype_bytes(dtype), &data);
    if (st != ACCEL_SUCCESS)
        return st;
    out->dtype = dtype;
    out->ndim = h.ndim;
    for (uint32_t d = 0; d < h.ndim; d++)
        out->shape[d] = h.shape[d];
    out->count = count;
    out->data = data;
    return ACCEL_SUCCESS;
}

static const char *file_kind(mode_t m);

ACCEL_API accel_status accel_npy_load(const char *path, accel_npy_array *out)
{
    static const char func[] = "accel_npy_load";
    if (out)
        memset(out, 0, sizeof *out);
    if (!path || !out) {
        accel__set_error("%s: %s is NULL", func, !path ? "path" : "out");
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    /* Regular files only, opened without blocking: open() of a FIFO would
     * wait for a writer, and /dev/zero or /dev/urandom never end. (The
     * shared accel__open_regular of the settings work does the same.) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        accel__set_error("%s: %s: cannot open: %s", func, path, strerror(e));
        return e == ENOENT ? ACCEL_ERROR_NOT_FOUND : ACCEL_ERROR_IO;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        accel__set_error("%s: %s: cannot examine: %s", func, path, strerror(e));
        return ACCEL_ERROR_IO;
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        accel__set_error("%s: %s: is %s, not a .npy file (a regular file)", func, path,
                         file_kind(sb.st_mode));
        return ACCEL_ERROR_IO;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        accel__set_error("%s: %s: cannot open: %s", func, path, strerror(e));
        return ACCEL_ERROR_IO;
    }
    npy_source src = {.file = f, .remaining = (long long)sb.st_size};
    accel_status st = load_from(&src, func, path, out);
    fclose(f);
    return st;
}

ACCEL_API accel_status accel_npy_load_memory(const void *bytes, size_t size, const char *name,
                                             accel_npy_array *out)
{
    static const char func[] = "accel_npy_load_memory";
    if (out)
        memset(out, 0, sizeof *out);
    if (!name)
        name = "<memory>";
    if (!out || (!bytes && size > 0)) {
        accel__set_error("%s: %s is NULL", func, !out ? "out" : "bytes");
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    npy_source src = {.mem = bytes,
                      .mem_size = size,
                      .remaining = size > (size_t)INT64_MAX ? -1 : (long long)size};
    return load_from(&src, func, name, out);
}

ACCEL_API void accel_npy_free(accel_npy_array *a)
{
    if (!a)
        return;
    free(a->data);
    memset(a, 0, sizeof *a);
}

/* ------------------------------------------------------------------ save */

static bool write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        /* Chunks below 1 GiB: Linux writes at most ~2 GiB per call. */
        size_t chunk = n < (1u << 30) ? n : (1u << 30);
        ssize_t w = write(fd, p, chunk);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* The file accel_npy_save replaces for path (malloc'd into *out_target) and,
 * when it exists (*out_exists), its stat. Refuses (ACCEL_ERROR_IO) what must
 * not be replaced by a rename: anything but a regular file after following
 * symbolic links, a dangling link, and a file the caller cannot write. */
static accel_status resolve_destination(const char *func, const char *path, char **out_target,
                                        struct stat *out_st, bool *out_exists)
{
    struct stat lst;
    *out_target = NULL;
    *out_exists = false;
    if (lstat(path, &lst) != 0) {
        /* Absent (or unreachable): open() of the temporary says why. */
        *out_target = strdup(path);
    } else {
        if (stat(path, out_st) != 0) {
            int e = errno;
            if (S_ISLNK(lst.st_mode) && e == ENOENT) {
                char to[512];
                ssize_t n = readlink(path, to, sizeof to - 1);
                to[n > 0 ? (size_t)n : 0] = '\0';
                accel__set_error("%s: %s: is a symbolic link to %s, which does not exist; accel "
                                 "writes through links but does not create their target",
                                 func, path, to);
            } else {
                accel__set_error("%s: %s: cannot follow: %s", func, path, strerror(e));
            }
            return ACCEL_ERROR_IO;
        }
        if (!S_ISREG(out_st->st_mode)) {
            accel__set_error("%s: %s is not a regular file (it is %s); refusing to replace it",
                             func, path, file_kind(out_st->st_mode));
            return ACCEL_ERROR_IO;
        }
        if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0) {
            accel__set_error("%s: %s: not writable (%s); accel does not replace a read-only file",
                             func, path, strerror(errno));
            return ACCEL_ERROR_IO;
        }
        *out_exists = true;
        if (S_ISLNK(lst.st_mode)) {
            char *resolved = realpath(path, NULL);
            if (!resolved) {
                accel__set_error("%s: %s: cannot resolve the symbolic link: %s", func, path,
                                 strerror(errno));
                return ACCEL_ERROR_IO;
            }
            *out_target = resolved;
        } else {
            *out_target = strdup(path);
        }
    }
    if (!*out_target) {
        accel__set_error("%s: %s: out of host memory", func, path);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    return ACCEL_SUCCESS;
}

size_t accel__npy_preamble(accel_dtype dtype, uint32_t ndim, const size_t *shape,
                           unsigned char out[ACCEL__NPY_PREAMBLE_MAX])
{
    const char *descr = dtype_descr(dtype);
    if (!descr || ndim > ACCEL_NPY_MAX_DIMS)
        return 0;
    /* The header as numpy.lib.format writes it, padded with spaces and a
     * final newline so that the data starts at a multiple of 64 bytes. */
    char *header = (char *)out + 10;
    size_t cap = ACCEL__NPY_PREAMBLE_MAX - 10;
    int len = snprintf(header, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (uint32_t d = 0; d < ndim; d++)
        len += snprintf(header + len, cap - (size_t)len, "%s%zu", d ? ", " : "", shape[d]);
    len += snprintf(header + len, cap - (size_t)len, "%s), }", ndim == 1 ? "," : "");
    size_t total = 10 + (size_t)len + 1;
    size_t padded = (total + 63) / 64 * 64;
    size_t hlen = padded - 10;
    memset(header + len, ' ', hlen - 1 - (size_t)len);
    header[hlen - 1] = '\n';
    memcpy(out, npy_magic, 6);
    out[6] = 1;
    out[7] = 0;
    out[8] = (unsigned char)(hlen & 0xff);
    out[9] = (unsigned char)(hlen >> 8);
    return padded;
}

/* accel_npy_save's arguments, checked; *out_bytes is the data's size. Only
 * what can be loaded back is saved: the rule of npy_shape_check, which is
 * NumPy's (every dimension and itemsize times the product of the non-zero
 * dimensions fit in intp, also for an empty array). */
static accel_status save_check(const char *func, const char *path, accel_dtype dtype, uint32_t ndim,
                               const size_t *shape, const void *data, size_t *out_bytes)
{
    if (!path) {
        accel__set_error("%s: path is NULL", func);
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    if (!dtype_descr(dtype)) {
        accel__set_error("%s: %s: dtype %d cannot be saved (f32, f64 and f16 can)", func, path,
                         (int)dtype);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (ndim > ACCEL_NPY_MAX_DIMS) {
        accel__set_error("%s: %s: ndim=%u but at most %d dimensions are supported", func, path,
                         ndim, ACCEL_NPY_MAX_DIMS);
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    if (ndim > 0 && !shape) {
        accel__set_error("%s: %s: shape is NULL but ndim=%u", func, path, ndim);
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    if (!host_is_little_endian()) {
        accel__set_error("%s: %s: big-endian hosts are not supported", func, path);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    size_t esize = dtype_bytes(dtype), count = 1;
    if (!npy_shape_check(func, path, ndim, shape, esize, &count))
        return ACCEL_ERROR_INVALID_ARGUMENT;
    *out_bytes = count * esize;
    if (*out_bytes > 0 && !data) {
        accel__set_error("%s: %s: data is NULL for %zu elements", func, path, count);
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    return ACCEL_SUCCESS;
}

/* A new temporary file next to target, open for writing in *out_fd, its name
 * malloc'd into *out_tmp. The name is short whatever the target's (a target
 * name of up to NAME_MAX bytes must work): ".npy-PID-N.tmp" in its folder. */
static accel_status open_temporary(const char *func, const char *path, const char *target,
                                   char **out_tmp, int *out_fd)
{
    static atomic_uint tmp_counter;
    size_t plen = strlen(target);
    const char *slash = strrchr(target, '/');
    int dlen = slash ? (int)(slash - target + 1) : 0;
    char *tmp = malloc(plen + 64);
    if (!tmp) {
        accel__set_error("%s: %s: out of host memory", func, path);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, plen + 64, "%.*s.npy-%ld-%u.tmp", dlen, target, (long)getpid(),
                 atomic_fetch_add(&tmp_counter, 1u));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        if (e == EACCES || e == EPERM || e == EROFS)
            accel__set_error("%s: %s: cannot write there: its folder is not writable (%s); accel "
                             "writes a temporary file in the same folder and renames it, so that "
                             "a failed save never leaves a half-written file",
                             func, path, strerror(e));
        else
            accel__set_error("%s: %s: cannot create the file (as temporary %s): %s", func, path,
                             tmp, strerror(e));
        free(tmp);
        return ACCEL_ERROR_IO;
    }
    *out_tmp = tmp;
    *out_fd = fd;
    return ACCEL_SUCCESS;
}

/* Fill the temporary fd (named tmp) with the preamble and data, close it and
 * rename it over target; old is the replaced file's stat when there is one
 * (NULL: none). The temporary is removed on failure. */
static accel_status write_and_replace(const char *func, const char *path, int fd, const char *tmp,
                                      const char *target, const struct stat *old,
                                      const unsigned char *pre, size_t pre_len, const void *data,
                                      size_t bytes)
{
    const char *step = "write";
    bool ok = true;
    if (old) {
        /* Keep the replaced file's owner (where allowed) and mode; a new
         * file gets 0666 & ~umask from open(), as fopen would give it. */
        if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
            fchown(fd, old->st_uid, old->st_gid) != 0) {
            /* Not permitted: the file becomes the caller's, as with sed -i. */
        }
        step = "chmod";
        ok = fchmod(fd, old->st_mode & 07777) == 0;
    }
    if (ok) {
        step = "write";
        ok = write_all(fd, pre, pre_len) && (bytes == 0 || write_all(fd, data, bytes));
    }
    if (ok) {
        step = "flush";
        ok = fsync(fd) == 0;
    }
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        step = "close";
        err = errno;
    }
    if (ok && rename(tmp, target) != 0) {
        ok = false;
        step = "rename";
        err = errno;
    }
    if (ok)
        return ACCEL_SUCCESS;
    unlink(tmp);
    accel__set_error("%s: %s: %s of %s failed: %s", func, path, step, tmp, strerror(err));
    return ACCEL_ERROR_IO;
}

ACCEL_API accel_status accel_npy_save(const char *path, accel_dtype dtype, uint32_t ndim,
                                      const size_t *shape, const void *data)
{
    static const char func[] = "accel_npy_save";
    size_t bytes = 0;
    accel_status st = save_check(func, path, dtype, ndim, shape, data, &bytes);
    if (st != ACCEL_SUCCESS)
        return st;
    unsigned char pre[ACCEL__NPY_PREAMBLE_MAX];
    size_t pre_len = accel__npy_preamble(dtype, ndim, shape, pre);

    /* Where to write: path itself when it does not exist yet; through a
     * symbolic link, the file it points to (so the link stays a link); never
     * over something that is not a regular file (a device node, FIFO, socket
     * or folder would be replaced by the rename) nor over a file the caller
     * may not write (np.save would fail with PermissionError). */
    char *target = NULL, *tmp = NULL;
    struct stat old;
    bool exists = false;
    int fd = -1;
    st = resolve_destination(func, path, &target, &old, &exists);
    if (st == ACCEL_SUCCESS)
        st = open_temporary(func, path, target, &tmp, &fd);
    if (st == ACCEL_SUCCESS)
        st = write_and_replace(func, path, fd, tmp, target, exists ? &old : NULL, pre, pre_len,
                               data, bytes);
    free(tmp);
    free(target);
    return st;
}
