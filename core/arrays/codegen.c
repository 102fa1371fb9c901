/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/codegen.c — the source of an array kernel from a table row
 * and the dtypes and dimensions of one call: a raw kernel (accel/kernel.h)
 * in the C subset that both NVRTC and the CPU twin compile, so every backend
 * with a kernel compiler runs every function with no code of its own. One
 * thread per output element in a grid-stride loop: the contiguous variant
 * indexes every array by i; the strided one splits i into nd coordinates
 * (row-major, last fastest) and dots them with each array's strides.
 * A complex array is a pointer to its part type (float, double) indexed
 * 2o (real) and 2o + 1 (imaginary), so no struct pointer crosses a
 * backend's translation (OpenCL's address spaces); complex compute uses
 * complex.c's struct and helpers, emitted only into such kernels. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "kernels/kernels.h"

const char *accel__array_ctype(accel_dtype dt)
{
    switch (dt) {
    case ACCEL_BOOL:
    case ACCEL_U8:
        return "unsigned char";
    case ACCEL_I8:
        return "signed char";
    case ACCEL_I16:
        return "short";
    case ACCEL_I32:
        return "int";
    case ACCEL_I64:
        return "long long";
    case ACCEL_U16:
    case ACCEL_F16:
    case ACCEL_BF16:
        return "unsigned short";
    case ACCEL_U32:
        return "unsigned int";
    case ACCEL_U64:
        return "unsigned long long";
    case ACCEL_F32:
        return "float";
    case ACCEL_F64:
        return "double";
    case ACCEL_C64:
    case ACCEL_C128:
    case ACCEL_DTYPE_INVALID:
    case ACCEL_DTYPE_COUNT_:
        break;
    }
    return NULL;
}

static bool is_complex(accel_dtype dt)
{
    return accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_COMPLEX;
}

/* The type a value of dt is computed in: float for the 16-bit floats, the
 * complex struct for the complex dtypes. */
static const char *arith_ctype(accel_dtype dt)
{
    if (is_complex(dt))
        return dt == ACCEL_C64 ? "accel_cxf" : "accel_cx";
    return dt == ACCEL_F16 || dt == ACCEL_BF16 ? "float" : accel__array_ctype(dt);
}

/* The element type of an array pointer: a complex dtype's part type. */
const char *accel__array_ptr_ctype(accel_dtype dt)
{
    return dt == ACCEL_C64 ? "float" : dt == ACCEL_C128 ? "double" : accel__array_ctype(dt);
}

/* Whether the tiled walk loads input k's four elements of a thread into
 * registers (accel_p<k>) before the barrier after staging (tile_walk): a
 * real input in row order, beside a staged one. */
static bool prefetched(const accel__aspec *s, unsigned k)
{
    return s->tiled && s->stage && !(s->stage >> k & 1u) && !is_complex(s->in[k]);
}

/* Input k's element: at accel_i (contiguous), at accel_o<k> (strided), or
 * element accel_l of the run loaded into accel_w<k> (element_run). */
static void load(accel__sbuf *b, accel_dtype dt, unsigned k, const accel__aspec *s)
{
    const char *f = dt == ACCEL_F16 ? "accel_h2f" : dt == ACCEL_BF16 ? "accel_bf2f" : "";
    if (s->run && !(s->bcast >> k & 1u))
        accel__sbuf_put(b, "%s(accel_w%u.e[accel_l])", f, k);
    else if (prefetched(s, k))
        accel__sbuf_put(b, "%s(accel_p%u[accel_j / 8])", f, k);
    else if (s->stage >> k & 1u)
        accel__sbuf_put(b, "%s(accel_m%u[accel_z])", f, k);
    else if (s->nd)
        accel__sbuf_put(b, "%s(accel_x%u[accel_o%u])", f, k, k);
    else
        accel__sbuf_put(b, "%s(accel_x%u[accel_i])", f, k);
}

/* Input k as the complex compute type: its parts, or a real value and 0. */
static void load_complex(accel__sbuf *b, const accel__aspec *s, unsigned k)
{
    accel_dtype dt = s->in[k];
    const char *sfx = s->ct == ACCEL_C64 ? "f" : "";
    char at[32];
    snprintf(at, sizeof at, s->nd ? "accel_o%u" : "accel_i", k);
    if (is_complex(dt)) {
        accel__sbuf_put(b,
                        "accel_cmk%s((accel_R)accel_x%u[2 * %s], (accel_R)accel_x%u[2 * %s + 1])",
                        sfx, k, at, k, at);
        return;
    }
    accel__sbuf_put(b, "accel_cmk%s((accel_R)", sfx);
    if (dt == ACCEL_U64)
        accel__sbuf_put(b, "accel_u64_%c(", s->ct == ACCEL_C64 ? 'f' : 'd');
    load(b, dt, k, s);
    accel__sbuf_put(b, "%s, (accel_R)0)", dt == ACCEL_U64 ? ")" : "");
}

/* The store of accel_v into a complex out (at: its element offset): the
 * parts of a complex value, or a real one (astype) and 0. */
static void store_complex(accel__sbuf *b, const accel__aspec *s, const char *at)
{
    const char *t = accel__array_ptr_ctype(s->out);
    if (is_complex(s->ct)) {
        accel__sbuf_put(
            b, "    accel_y0[2 * %s] = (%s)accel_v.re; accel_y0[2 * %s + 1] = (%s)accel_v.im;\n",
            at, t, at, t);
        return;
    }
    const char *v = s->ct != ACCEL_U64     ? "accel_v"
                    : s->out == ACCEL_C128 ? "accel_u64_d(accel_v)"
                                           : "accel_u64_f(accel_v)";
    accel__sbuf_put(b, "    accel_y0[2 * %s] = (%s)%s; accel_y0[2 * %s + 1] = (%s)0;\n", at, t, v,
                    at, t);
}

/* The store of accel_v (the result) into out's dtype. Float to integer
 * saturates and maps NaN to 0, so the conversion is defined everywhere. */
static void store(accel__sbuf *b, const accel__aspec *s, const char *at)
{
    accel_dtype o = s->out;
    accel_dtype_kind ok = accel_dtype_kind_of(o);
    if (ok == ACCEL_DTYPE_KIND_COMPLEX) {
        store_complex(b, s, at);
        return;
    }
    bool from_float = accel_dtype_kind_of(s->ct) == ACCEL_DTYPE_KIND_FLOAT &&
                      s->row->result != ACCEL_ARRAY_RESULT_BOOL;
    if (s->run)
        accel__sbuf_put(b, "    accel_wy.e[accel_l] = ");
    else
        accel__sbuf_put(b, "    accel_y0[%s] = ", at);
    /* uint64 to a float through the helper (see table.c). */
    const char *v = s->ct != ACCEL_U64 || ok != ACCEL_DTYPE_KIND_FLOAT ? "accel_v"
                    : o == ACCEL_F64                                   ? "accel_u64_d(accel_v)"
                                                                       : "accel_u64_f(accel_v)";
    if (o == ACCEL_BOOL) {
        accel__sbuf_put(b, "(unsigned char)(accel_v != 0);\n");
    } else if (o == ACCEL_F16 || o == ACCEL_BF16) {
        accel__sbuf_put(b, "%s((float)%s);\n", o == ACCEL_F16 ? "accel_f2h" : "accel_f2bf", v);
    } else if (from_float && (ok == ACCEL_DTYPE_KIND_INT || ok == ACCEL_DTYPE_KIND_UINT)) {
        int bits = 8 * (int)accel_dtype_size(o);
        bool sg = ok == ACCEL_DTYPE_KIND_INT;
        const char *t = accel__array_ctype(o);
        /* Range [lo, hi) of values that truncate into the type, exact in double. */
        double hi = sg ? 0x1p63 / (double)(1ull << (64 - bits)) * 1.0
                       : 0x1p63 / (double)(1ull << (64 - bits)) * 2.0;
        char lo_cond[64], min_lit[64], max_lit[64];
        if (sg) {
            snprintf(lo_cond, sizeof lo_cond, "accel_v < %.17g", -hi);
            long long m = bits == 64 ? INT64_MAX : (long long)(hi - 1.0);
            snprintf(min_lit, sizeof min_lit, "(-%lldLL - 1)", m);
            snprintf(max_lit, sizeof max_lit, "%lldLL", m);
        } else {
            snprintf(lo_cond, sizeof lo_cond, "accel_v <= -1.0");
            snprintf(min_lit, sizeof min_lit, "0");
            snprintf(max_lit, sizeof max_lit, "%lluull",
                     bits == 64 ? ~0ull : (unsigned long long)(hi - 1.0));
        }
        accel__sbuf_put(
            b, "accel_v != accel_v ? (%s)0 : %s ? (%s)%s : accel_v >= %.17g ? (%s)%s : (%s)%s;\n",
            t, lo_cond, t, min_lit, hi, t, max_lit, t,
            o == ACCEL_U64 ? "accel_d_u64((double)accel_v)" : "(long long)accel_v");
    } else {
        accel__sbuf_put(b, "(%s)%s;\n", accel__array_ctype(o), v);
    }
}

/* name_put: s appended at *n of entry (ACCEL__ANAME_MAX bytes), cut to
 * fit; name_num: v in decimal the same way. Not snprintf: the name is made
 * on every call of an array function, and four snprintf calls had been
 * 0.3 us of a 1024-element int32 add's 1.8 from Python. */
static void name_put(char *entry, size_t *n, const char *s)
{
    while (*s && *n + 1 < ACCEL__ANAME_MAX)
        entry[(*n)++] = *s++;
    entry[*n] = '\0';
}

static void name_num(char *entry, size_t *n, unsigned v)
{
    char d[12];
    size_t k = sizeof d - 1;
    d[k] = '\0';
    do {
        d[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    name_put(entry, n, d + k);
}

/* The kernel's name: array_<fn>_<dtypes>_<c | sN>, then t (tiled walk),
 * i (int indices), m<mask> (inputs staged in shared memory), r<mask>
 * (runs; mask: the broadcast inputs): everything that changes the source. */
void accel__array_entry(const accel__aspec *s, char *entry)
{
    size_t n = 0;
    name_put(entry, &n, "array_");
    name_put(entry, &n, s->row->name);
    for (uint32_t i = 0; i < s->nin; i++) {
        name_put(entry, &n, "_");
        name_put(entry, &n, accel_dtype_name(s->in[i]));
    }
    name_put(entry, &n, "_");
    name_put(entry, &n, accel_dtype_name(s->out));
    name_put(entry, &n, s->nd ? "_s" : "_c");
    name_num(entry, &n, s->nd);
    name_put(entry, &n, s->tiled ? "t" : "");
    name_put(entry, &n, s->idx32 ? "i" : "");
    if (s->stage) {
        name_put(entry, &n, "m");
        name_num(entry, &n, s->stage);
    }
    if (s->run) {
        name_put(entry, &n, "r");
        name_num(entry, &n, s->bcast);
    }
}

/* The C type of accel_op's result (and accel_v). */
static const char *result_ctype(const accel__aspec *s)
{
    if (s->row->result == ACCEL_ARRAY_RESULT_BOOL)
        return "int";
    if (s->row->result == ACCEL_ARRAY_RESULT_REAL && is_complex(s->ct))
        return "accel_R";
    return "accel_T";
}

/* The operator of comparison fn (ACCEL_ARRAY_EQUAL to GREATER_EQUAL, in
 * the order of their values). */
_Static_assert(ACCEL_ARRAY_NOT_EQUAL == ACCEL_ARRAY_EQUAL + 1 &&
                   ACCEL_ARRAY_LESS == ACCEL_ARRAY_EQUAL + 2 &&
                   ACCEL_ARRAY_LESS_EQUAL == ACCEL_ARRAY_EQUAL + 3 &&
                   ACCEL_ARRAY_GREATER == ACCEL_ARRAY_EQUAL + 4 &&
                   ACCEL_ARRAY_GREATER_EQUAL == ACCEL_ARRAY_EQUAL + 5,
               "the comparisons' values are consecutive");
static const char *cmp_operator(accel_array_fn fn)
{
    static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
    return ops[fn - ACCEL_ARRAY_EQUAL];
}

/* accel_op of an int64-uint64 comparison (s->icmp): the sign of a - b from
 * the integers themselves (a negative int64 is below every uint64, else
 * both compare as uint64), then the comparison's operator against 0. */
static void icmp_function(accel__sbuf *b, const accel__aspec *s)
{
    const char *c =
        s->in[0] == ACCEL_I64
            ? "long long a, unsigned long long b) {\n  const int accel_c = a < 0 ? -1 : "
              "(unsigned long long)a < b ? -1 : (unsigned long long)a > b;\n"
            : "unsigned long long a, long long b) {\n  const int accel_c = b < 0 ? 1 : "
              "a < (unsigned long long)b ? -1 : a > (unsigned long long)b;\n";
    accel__sbuf_put(b, "ACCEL_FN int accel_op(%s  return accel_c %s 0;\n}\n", c,
                    cmp_operator(s->fn));
}

/* The per-element function accel_op of the row's expression for s->ct. */
static void op_function(accel__sbuf *b, const accel__aspec *s, const char *expr)
{
    if (s->icmp) {
        icmp_function(b, s);
        return;
    }
    size_t cs = accel_dtype_size(s->ct);
    bool wide = cs > 4, cplx = is_complex(s->ct);
    accel__sbuf_put(b, "#define accel_T %s\n", arith_ctype(s->ct));
    if (cplx)
        accel__sbuf_put(b, "#define accel_R %s\n", accel__array_ptr_ctype(s->ct));
    accel__sbuf_put(b, "#define accel_U %s\n", wide ? "unsigned long long" : "unsigned int");
    accel__sbuf_put(b, "#define accel_BITS %d\n", (int)(8 * cs));
    accel__sbuf_put(b, "#define accel_F(name) %s\n",
                    s->ct == ACCEL_F64 || s->ct == ACCEL_C128 ? "name" : "name##f");
    const char *rt = result_ctype(s);
    bool where = s->fn == ACCEL_ARRAY_WHERE;
    accel__sbuf_put(b, "ACCEL_FN %s accel_op(%s a", rt, where ? "int" : "accel_T");
    for (uint32_t i = 1; i < s->row->arity; i++)
        accel__sbuf_put(b, ", accel_T %c", (char)('a' + i));
    /* C has no cast to a struct type: a complex result returns as is. */
    if (cplx && strcmp(rt, "accel_T") == 0)
        accel__sbuf_put(b, ") {\n  return %s;\n}\n", expr);
    else
        accel__sbuf_put(b, ") {\n  return (%s)(%s);\n}\n", rt, expr);
}

void accel__array_params(accel__sbuf *b, const char *decl, uint32_t first, uint32_t end)
{
    for (uint32_t i = first; i < end; i++)
        accel__sbuf_put(b, ", %s%u", decl, i);
}

static void params(accel__sbuf *b, const accel__aspec *s)
{
    uint32_t narr = s->nin + 1;
    for (uint32_t k = 0; k < narr; k++)
        accel__sbuf_put(b, "%s%svoid *accel_p%u", k ? ", " : "", k < s->nin ? "const " : "", k);
    accel__array_params(b, "long long accel_b", 0, s->nd ? narr : 0);
    accel__sbuf_put(b, ", long long accel_n, long long accel_cw");
    accel__array_params(b, "long long accel_s", 1, s->nd);
    for (uint32_t k = 0; k < narr; k++)
        for (uint32_t d = 0; d < s->nd; d++)
            accel__sbuf_put(b, ", long long accel_t%u_%u", k, d);
}

static void element(accel__sbuf *b, const accel__aspec *s);
static void element_body(accel__sbuf *b, const accel__aspec *s);

/* Each array's offset at the coordinates accel_c<d>, declared as
 * <decl><k> = sum of accel_c<d> * <t><k>_<d> (t: the strides' name). */
static void coord_offsets(accel__sbuf *b, const accel__aspec *s, const char *decl, const char *t)
{
    for (uint32_t k = 0; k <= s->nin; k++) {
        accel__sbuf_put(b, "%s%u = accel_c0 * %s%u_0", decl, k, t, k);
        for (uint32_t d = 1; d < s->nd; d++)
            accel__sbuf_put(b, " + accel_c%u * %s%u_%u", d, t, k, d);
        accel__sbuf_put(b, ";\n");
    }
}

/* A GPU walk's index type accel_ix (int where s->idx32 says every index
 * and offset fits: 32-bit multiplies and carries, where 64-bit ones take
 * several instructions each on a GPU) and the shape and strides in it,
 * accel_S<d> and accel_T<k>_<d>. */
static void gpu_index(accel__sbuf *b, const accel__aspec *s)
{
    accel__sbuf_put(b, "  typedef %s accel_ix;\n", s->idx32 ? "int" : "long long");
    for (uint32_t d = 1; d < s->nd; d++)
        accel__sbuf_put(b, "  const accel_ix accel_S%u = (accel_ix)accel_s%u;\n", d, d);
    for (uint32_t k = 0; k <= s->nin; k++)
        for (uint32_t d = 0; d < s->nd; d++)
            accel__sbuf_put(b, "  const accel_ix accel_T%u_%u = (accel_ix)accel_t%u_%u;\n", k, d, k,
                            d);
}

/* The strided variant's walk over a CPU thread's chunk (accel_cw > 0) of
 * accel_cw consecutive elements, row by row: the coordinates of the
 * chunk's first element found by division once, then each run along the
 * innermost axis a plain loop from the row's offsets (the compiler's
 * induction variables, no division or multiply per element), the
 * coordinates carried from row to row. */
static void rows(accel__sbuf *b, const accel__aspec *s)
{
    uint32_t last = s->nd - 1;
    accel__sbuf_put(b,
                    "  if (accel_cw) {\n"
                    "    long long accel_i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * "
                    "accel_cw;\n"
                    "    const long long accel_e = accel_n - accel_i > accel_cw ? accel_i + "
                    "accel_cw : accel_n;\n"
                    "    long long accel_r = accel_i;\n");
    for (uint32_t d = last; d >= 1; d--)
        accel__sbuf_put(
            b, "    long long accel_c%u = accel_r %% accel_s%u; accel_r /= accel_s%u;\n", d, d, d);
    accel__sbuf_put(b, "    long long accel_c0 = accel_r;\n"
                       "    while (accel_i < accel_e) {\n"
                       "      long long accel_run = accel_e - accel_i;\n");
    if (last)
        accel__sbuf_put(b,
                        "      if (accel_run > accel_s%u - accel_c%u) accel_run = accel_s%u - "
                        "accel_c%u;\n",
                        last, last, last, last);
    coord_offsets(b, s, "      const long long accel_h", "accel_t");
    accel__sbuf_put(b, "      for (long long accel_j = 0; accel_j < accel_run; accel_j++) {\n");
    for (uint32_t k = 0; k <= s->nin; k++)
        accel__sbuf_put(b,
                        "      const long long accel_o%u = accel_h%u + accel_j * accel_t%u_%u;\n",
                        k, k, k, last);
    element(b, s);
    accel__sbuf_put(b, "      }\n      accel_i += accel_run;\n");
    if (last) {
        accel__sbuf_put(b,
                        "      accel_c%u += accel_run;\n"
                        "      if (accel_c%u == accel_s%u) {\n"
                        "        int accel_k = 1;\n        accel_c%u = 0;\n",
                        last, last, last, last);
        for (uint32_t d = last - 1; d >= 1; d--)
            accel__sbuf_put(b,
                            "        if (accel_k) { accel_c%u += 1; accel_k = accel_c%u == "
                            "accel_s%u; if (accel_k) accel_c%u = 0; }\n",
                            d, d, d, d);
        accel__sbuf_put(b, "        accel_c0 += accel_k;\n      }\n");
    } else {
        accel__sbuf_put(b, "      accel_c0 += accel_run;\n");
    }
    accel__sbuf_put(b, "    }\n    return;\n  }\n");
}

/* The strided variant's walk on a GPU (accel_cw 0): every grid-stride-th
 * element from the thread's index, coalesced. The coordinates of its first
 * element (accel_c<d>, outermost d = 0) and of the stride (accel_g<d>) are
 * found by division once, then advanced with carries from element to
 * element (an odometer): no division per element. Opens the loop;
 * advance() closes it. Which thread computes an element never changes its
 * value. */
static void walk(accel__sbuf *b, const accel__aspec *s)
{
    gpu_index(b, s);
    accel__sbuf_put(b, "  accel_ix accel_i = (accel_ix)(blockIdx.x * blockDim.x + threadIdx.x);\n"
                       "  const accel_ix accel_q = (accel_ix)accel_step, accel_e = "
                       "(accel_ix)accel_n;\n"
                       "  if (accel_i >= accel_e) return;\n"
                       "  accel_ix accel_r = accel_i, accel_u = accel_q;\n");
    for (uint32_t d = s->nd; d-- > 1;)
        accel__sbuf_put(b,
                        "  accel_ix accel_c%u = accel_r %% accel_S%u, accel_g%u = accel_u %% "
                        "accel_S%u; accel_r /= accel_S%u; accel_u /= accel_S%u;\n",
                        d, d, d, d, d, d);
    accel__sbuf_put(b, "  accel_ix accel_c0 = accel_r, accel_g0 = accel_u;\n  for (;;) {\n");
    coord_offsets(b, s, "    const accel_ix accel_o", "accel_T");
}

/* The next element of the walk: accel_i and the coordinates one step on
 * (each coordinate below its size, the carry moved up). */
static void advance(accel__sbuf *b, const accel__aspec *s)
{
    accel__sbuf_put(b, "    accel_i += accel_q;\n    if (accel_i >= accel_e) break;\n"
                       "    int accel_k = 0;\n");
    for (uint32_t d = s->nd; d-- > 1;)
        accel__sbuf_put(b,
                        "    accel_c%u += accel_g%u + accel_k; accel_k = accel_c%u >= accel_S%u; "
                        "if (accel_k) accel_c%u -= accel_S%u;\n",
                        d, d, d, d, d, d);
    accel__sbuf_put(b, "    accel_c0 += accel_g0 + accel_k;\n  }\n");
}

/* The 2-D walk on a GPU in tiles of 32 x 32, a block of 256 threads (warp
 * w: rows w, w + 8, w + 16, w + 24 of the tile; lane: the column) per
 * tile, grid-stride over the tiles; out and the inputs in row order are
 * read and written 32 consecutive elements a warp. An input in the other
 * order (y.T: its rows are the tile's columns; s->stage bit k) is staged
 * through shared memory: each warp reads 32 consecutive elements of it
 * along the tile's rows into accel_m<k> (rows padded to 33, no bank
 * conflicts), and the tile's elements then read it from there; the other
 * real inputs' four elements of a thread are loaded into registers before
 * the barrier (prefetched), so that their loads are in flight with the
 * staging ones. (Read
 * where they fall, such an input took 4 bytes of each 32-byte sector a
 * warp: x + y.T of 16384^2 float32 on the H100 at 0.3 of the
 * bytes-over-bandwidth bound in 1 x 32 tiles, 0.51 in 8 x 32 ones.) */
static void tile_walk(accel__sbuf *b, const accel__aspec *s)
{
    /* the tile's row and column (accel_tr, accel_tq) and the grid's step
     * over tiles found by division once, then carried (no division per
     * element); every thread of a block walks the same tiles, so the
     * barriers are reached by all; a tile inside the array (accel_in)
     * skips the bounds tests of its elements */
    gpu_index(b, s);
    for (uint32_t k = 0; k < s->nin; k++)
        if (s->stage >> k & 1u)
            accel__sbuf_put(b, "  __shared__ %s accel_m%u[32 * 33];\n",
                            accel__array_ptr_ctype(s->in[k]), k);
    accel__sbuf_put(b,
                    "  (void)accel_step;\n"
                    "  const accel_ix accel_S0 = (accel_ix)(accel_n / accel_s1), accel_tn = "
                    "(accel_S1 + 31) / 32;\n"
                    "  const accel_ix accel_tm = (accel_S0 + 31) / 32;\n"
                    "  const int accel_wp = (int)threadIdx.x / 32, accel_ln = (int)threadIdx.x "
                    "%% 32;\n"
                    "  accel_ix accel_tr = blockIdx.x / accel_tn, accel_tq = blockIdx.x %% "
                    "accel_tn;\n"
                    "  const accel_ix accel_gr = gridDim.x / accel_tn, accel_gq = gridDim.x %% "
                    "accel_tn;\n"
                    "  for (; accel_tr < accel_tm; accel_tr += accel_gr, accel_tq += accel_gq) {\n"
                    "    if (accel_tq >= accel_tn) { accel_tq -= accel_tn; accel_tr++; if "
                    "(accel_tr >= accel_tm) break; }\n"
                    "    const int accel_in = accel_tr * 32 + 32 <= accel_S0 && accel_tq * 32 + 32 "
                    "<= accel_S1;\n");
    if (s->stage) {
        bool pre = false;
        for (uint32_t k = 0; k < s->nin; k++)
            if (prefetched(s, k)) {
                accel__sbuf_put(b, "    %s accel_p%u[4] = {0, 0, 0, 0};\n",
                                accel__array_ptr_ctype(s->in[k]), k);
                pre = true;
            }
        accel__sbuf_put(b,
                        "#pragma unroll\n"
                        "    for (int accel_j = 0; accel_j < 32; accel_j += 8) {\n"
                        "      {\n"
                        "      const accel_ix accel_c0 = accel_tr * 32 + accel_ln;\n"
                        "      const accel_ix accel_c1 = accel_tq * 32 + accel_wp + accel_j;\n"
                        "      if (accel_in || (accel_c0 < accel_S0 && accel_c1 < accel_S1)) {\n");
        for (uint32_t k = 0; k < s->nin; k++)
            if (s->stage >> k & 1u)
                accel__sbuf_put(b,
                                "        accel_m%u[(accel_wp + accel_j) * 33 + accel_ln] = "
                                "accel_x%u[accel_c0 * accel_T%u_0 + accel_c1 * accel_T%u_1];\n",
                                k, k, k, k);
        accel__sbuf_put(b, "      }\n      }\n");
        if (pre) { /* the row-order inputs' loads in flight with the staging */
            accel__sbuf_put(
                b, "      const accel_ix accel_c0 = accel_tr * 32 + accel_wp + accel_j;\n"
                   "      const accel_ix accel_c1 = accel_tq * 32 + accel_ln;\n"
                   "      if (accel_in || (accel_c0 < accel_S0 && accel_c1 < accel_S1)) {\n");
            for (uint32_t k = 0; k < s->nin; k++)
                if (prefetched(s, k))
                    accel__sbuf_put(b,
                                    "        accel_p%u[accel_j / 8] = accel_x%u[accel_c0 * "
                                    "accel_T%u_0 + accel_c1 * accel_T%u_1];\n",
                                    k, k, k, k);
            accel__sbuf_put(b, "      }\n");
        }
        accel__sbuf_put(b, "    }\n    __syncthreads();\n");
    }
    accel__sbuf_put(b, "#pragma unroll\n"
                       "    for (int accel_j = 0; accel_j < 32; accel_j += 8) {\n"
                       "      const accel_ix accel_c0 = accel_tr * 32 + accel_wp + accel_j;\n"
                       "      const accel_ix accel_c1 = accel_tq * 32 + accel_ln;\n");
    if (s->stage) /* the element's place in the staged tiles */
        accel__sbuf_put(b, "      const int accel_z = accel_ln * 33 + accel_wp + accel_j;\n");
    accel__sbuf_put(b, "      if (accel_in || (accel_c0 < accel_S0 && accel_c1 < accel_S1)) {\n");
    coord_offsets(b, s, "    const accel_ix accel_o", "accel_T");
    element(b, s);
    accel__sbuf_put(b, "      }\n    }\n");
    if (s->stage)
        accel__sbuf_put(b, "    __syncthreads();\n");
    accel__sbuf_put(b, "  }\n");
}

/* The alignment of a run of operand k (k == nin: out): its size, at most
 * 16 bytes, so that one load or store moves it. */
static size_t run_align(const accel__aspec *s, uint32_t k)
{
    size_t bytes = ACCEL__ARRAY_RUN * accel_dtype_size(k < s->nin ? s->in[k] : s->out);
    return bytes < 16 ? bytes : 16;
}

/* A run's operand k (k == nin: out) as a struct of ACCEL__ARRAY_RUN
 * elements, accel_r<k>, aligned by run_align. */
static void run_types(accel__sbuf *b, const accel__aspec *s)
{
    for (uint32_t k = 0; k <= s->nin; k++) {
        accel_dtype dt = k < s->nin ? s->in[k] : s->out;
        accel__sbuf_put(b, "typedef struct __align__(%zu) { %s e[%d]; } accel_r%u;\n",
                        run_align(s, k), accel__array_ptr_ctype(dt), ACCEL__ARRAY_RUN, k);
    }
}

/* Whether every operand moved as a run starts on its struct's alignment
 * (accel_al): then each run does, as the core launches runs only where
 * every offset of such an operand is a multiple of ACCEL__ARRAY_RUN
 * (elementwise.c, run_fits); else the run's elements move one by one. */
static void run_aligned(accel__sbuf *b, const accel__aspec *s)
{
    accel__sbuf_put(b, "  const int accel_al = 1");
    for (uint32_t k = 0; k <= s->nin; k++) {
        if (k < s->nin && (s->bcast >> k & 1u))
            continue;
        accel__sbuf_put(b, " && (unsigned long long)%s%u %% %zuu == 0",
                        k < s->nin ? "accel_x" : "accel_y", k < s->nin ? k : 0, run_align(s, k));
    }
    accel__sbuf_put(b, ";\n");
}

/* One run of ACCEL__ARRAY_RUN elements from the offsets accel_o<k> (the
 * run's first element): each input of inner stride 1 loaded into
 * accel_w<k> (one load where accel_al), an input of stride 0 read at its
 * offset, accel_op per element into accel_wy, then out stored as one. */
static void element_run(accel__sbuf *b, const accel__aspec *s)
{
    for (uint32_t k = 0; k <= s->nin; k++) {
        if (k < s->nin && (s->bcast >> k & 1u))
            continue;
        char w[16], p[16];
        snprintf(w, sizeof w, k < s->nin ? "accel_w%u" : "accel_wy", k);
        snprintf(p, sizeof p, k < s->nin ? "accel_x%u" : "accel_y0", k);
        accel__sbuf_put(b, "    accel_r%u %s;\n", k, w);
        if (k == s->nin)
            continue;
        accel__sbuf_put(b,
                        "    if (accel_al) %s = *(const accel_r%u *)(%s + accel_o%u);\n"
                        "    else for (int accel_l = 0; accel_l < %d; accel_l++) %s.e[accel_l] = "
                        "%s[accel_o%u + accel_l];\n",
                        w, k, p, k, ACCEL__ARRAY_RUN, w, p, k);
    }
    accel__sbuf_put(b, "    for (int accel_l = 0; accel_l < %d; accel_l++) {\n", ACCEL__ARRAY_RUN);
    element_body(b, s);
    accel__sbuf_put(b,
                    "    }\n"
                    "    if (accel_al) *(accel_r%u *)(accel_y0 + accel_o%u) = accel_wy;\n"
                    "    else for (int accel_l = 0; accel_l < %d; accel_l++) accel_y0[accel_o%u + "
                    "accel_l] = accel_wy.e[accel_l];\n",
                    s->nin, s->nin, ACCEL__ARRAY_RUN, s->nin);
}

/* One element: the inputs loaded and converted, accel_op, the store (or,
 * for a run, ACCEL__ARRAY_RUN of them). */
static void element(accel__sbuf *b, const accel__aspec *s)
{
    if (s->run) {
        element_run(b, s);
        return;
    }
    element_body(b, s);
}

/* The inputs of one element loaded and converted, accel_op, the store. */
static void element_body(accel__sbuf *b, const accel__aspec *s)
{
    accel__sbuf_put(b, "    const %s accel_v = accel_op(", result_ctype(s));
    for (uint32_t k = 0; k < s->nin; k++) {
        if (k)
            accel__sbuf_put(b, ", ");
        if (s->fn == ACCEL_ARRAY_WHERE && k == 0) {
            load(b, s->in[0], 0, s);
            accel__sbuf_put(b, " != 0");
        } else if (s->icmp) {
            load(b, s->in[k], k, s);
        } else if (is_complex(s->ct)) {
            load_complex(b, s, k);
        } else if (s->in[k] == ACCEL_U64 && accel_dtype_kind_of(s->ct) == ACCEL_DTYPE_KIND_FLOAT) {
            accel__sbuf_put(b, "(accel_T)accel_u64_%c(", s->ct == ACCEL_F64 ? 'd' : 'f');
            load(b, s->in[k], k, s);
            accel__sbuf_put(b, ")");
        } else {
            accel__sbuf_put(b, "(accel_T)");
            load(b, s->in[k], k, s);
        }
    }
    accel__sbuf_put(b, ");\n");
    char at[32];
    snprintf(at, sizeof at, s->nd ? "accel_o%u" : "accel_i", s->nin);
    store(b, s, at);
}

char *accel__array_codegen(const accel__aspec *s, char *entry)
{
    const char *expr = s->row->e[accel__array_column(s->ct)];
    if (!expr)
        return NULL;
    accel__array_entry(s, entry);
    accel__sbuf b = {NULL, 0, 0, false};
    bool half = s->out == ACCEL_F16 || s->out == ACCEL_BF16;
    bool cplx = is_complex(s->ct) || is_complex(s->out);
    for (uint32_t i = 0; i < s->nin; i++) {
        half |= s->in[i] == ACCEL_F16 || s->in[i] == ACCEL_BF16;
        cplx |= is_complex(s->in[i]);
    }
    if (half)
        accel__sbuf_put(&b, "%s", accel__kernel_prelude_16bit());
    accel__sbuf_put(&b, "%s", accel__array_helpers);
    for (const char *const *h = accel__array_complex_helpers; cplx && *h; h++)
        accel__sbuf_put(&b, "%s", *h);
    op_function(&b, s, expr);
    if (s->run)
        run_types(&b, s);
    accel__sbuf_put(&b, "__global__ void %s(", entry);
    params(&b, s);
    accel__sbuf_put(&b, ") {\n");
    for (uint32_t k = 0; k <= s->nin; k++) {
        accel_dtype dt = k < s->nin ? s->in[k] : s->out;
        const char *c = k < s->nin ? "const " : "";
        accel__sbuf_put(&b, "  %s%s *const accel_%c%u = (%s%s *)accel_p%u%s", c,
                        accel__array_ptr_ctype(dt), k < s->nin ? 'x' : 'y', k < s->nin ? k : 0, c,
                        accel__array_ptr_ctype(dt), k, s->nd ? "" : ";\n");
        if (s->nd)
            accel__sbuf_put(&b, " + %saccel_b%u;\n", is_complex(dt) ? "2 * " : "", k);
    }
    accel__sbuf_put(&b, "  const long long accel_step = (long long)gridDim.x * blockDim.x;\n");
    if (s->run)
        run_aligned(&b, s);
    if (s->nd) {
        /* a CPU thread's chunk reads every input where it lies */
        accel__aspec direct = *s;
        direct.stage = 0;
        rows(&b, &direct);
        if (s->tiled) {
            tile_walk(&b, s);
        } else {
            walk(&b, s);
            element(&b, s);
            advance(&b, s);
        }
    } else {
        /* A chunk of consecutive elements (the CPU's walk: a plain loop the
         * compiler vectorises), or every grid-stride-th one (a GPU's). */
        accel__sbuf_put(&b,
                        "  if (accel_cw) {\n"
                        "    const long long accel_a = ((long long)blockIdx.x * blockDim.x + "
                        "threadIdx.x) * accel_cw;\n"
                        "    const long long accel_z = accel_n - accel_a > accel_cw ? accel_a + "
                        "accel_cw : accel_n;\n"
                        "    for (long long accel_i = accel_a; accel_i < accel_z; accel_i++) {\n");
        element(&b, s);
        accel__sbuf_put(&b, "    }\n    return;\n  }\n"
                            "  for (long long accel_i = (long long)blockIdx.x * blockDim.x + "
                            "threadIdx.x; accel_i < accel_n; accel_i += accel_step) {\n");
        element(&b, s);
        accel__sbuf_put(&b, "  }\n");
    }
    accel__sbuf_put(&b, "}\n");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
