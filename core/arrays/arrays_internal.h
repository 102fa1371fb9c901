/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/arrays_internal.h — what the files of the array area share:
 * promotion (promote.c), views and their checks (view.c), the function
 * table and its source generator (table.c, codegen.c), and the launches
 * (elementwise.c, reduce.c). The area sits above the kernel machinery
 * (core/kernels) and calls it only through accel/kernel.h and
 * kernels/kernels.h. Not installed. */
#ifndef ACCEL_CORE_ARRAYS_INTERNAL_H
#define ACCEL_CORE_ARRAYS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "accel/array.h"
#include "accel/kernel.h"

#include "base/objects.h"
#include "base/sbuf.h"

/* What a valid view covers, in elements of its dtype from the buffer's
 * start: element (0, ..., 0) at base, every element in [lo, hi]. */
typedef struct accel__extent {
    int64_t count; /* elements of the view */
    int64_t base, lo, hi;
    accel__memory mem; /* its buffer's, read once by accel__array_check */
} accel__extent;

/* view.c: the kernel argument of a view of dtype dt: the elements [lo, hi]
 * of its buffer that it reaches, none for an empty view (whose buffer may
 * hold no bytes). */
accel_kernel_arg accel__extent_arg(accel_buffer *b, accel_dtype dt, const accel__extent *e);

/* view.c: a's checks as accel_array_validate, messages "FN: NAME: ..."; out
 * (may be NULL) receives the extent. */
accel_status accel__array_check(const char *fn, const char *name, const accel_array *a,
                                accel__extent *out);
/* view.c: a view that a call writes (valid, as accel__array_check found)
 * must not name one element twice: ACCEL_ERROR_INVALID_ARGUMENT where an
 * axis of extent over 1 has stride 0 (a broadcast view, read-only as in
 * NumPy; PyTorch refuses such "internal overlap" the same way). Other
 * self-overlapping strides are not looked for (deciding it in general is
 * NumPy's bounded search in mem_overlap.c). */
accel_status accel__array_out_check(const char *fn, const char *name, const accel_array *a);
/* view.c: the broadcast shape of count valid arrays (names for messages);
 * ACCEL_ERROR_SHAPE_MISMATCH naming the first that does not fit. */
accel_status accel__broadcast(const char *fn, size_t count, const accel_array *const *arrays,
                              const char *const *names, uint32_t *out_ndim, int64_t *out_shape);
/* view.c: SUCCESS when a's shape is shape[nd], else
 * ACCEL_ERROR_SHAPE_MISMATCH ("FN: NAME has shape (2, 3) but the call
 * needs (3, 2)"). */
accel_status accel__array_shape_is(const char *fn, const char *name, const accel_array *a,
                                   uint32_t nd, const int64_t *shape);
/* view_ops.c: ACCEL_ERROR_INVALID_ARGUMENT ("fn: axes_mask 0x.. names axes
 * past the 2 of x") where mask has a bit at or past x's ndim. */
accel_status accel__array_axes_mask(const char *fn, const accel_array *x, uint64_t mask);
/* view_ops.c: an axis in [-ndim, ndim) as 0..ndim-1, or -1. */
int accel__array_axis(int64_t axis, uint32_t ndim);
/* view.c: whether the elements that views x and o reach (their extents ex
 * and eo, as accel__array_check gives them: an extent made otherwise has no
 * memory and meets only views of its own buffer) share some memory: in one
 * buffer, or in two that alias (accel__buffers_alias: one wraps memory
 * allocated elsewhere, such as from_dlpack of an accel array); *same: both
 * views start at one address. Every check of an output against an input
 * asks this. */
bool accel__views_meet(const accel_array *x, const accel__extent *ex, const accel_array *o,
                       const accel__extent *eo, bool *same);
/* view.c: a's strides are row-major contiguous (size-1 axes may have any
 * stride). */
bool accel__array_row_major(const accel_array *a);
/* view.c: a's lines along axis as an outer x n x inner block: *outer the
 * product of the axes before axis, *inner of those after it (a line's
 * elements are inner apart in a row-major a). */
void accel__array_around_axis(const accel_array *a, uint32_t axis, size_t *outer, size_t *inner);
/* view.c: "(2, 3, 4)" into buf (cap bytes); returns buf. */
const char *accel__shape_str(uint32_t ndim, const int64_t *shape, char *buf, size_t cap);

/* ------------------------------------------------------------ table.c */

/* Kinds of a compute dtype, the columns of a row's expressions. */
enum {
    ACCEL__AK_BOOL = 0,
    ACCEL__AK_INT = 1,
    ACCEL__AK_UINT = 2,
    ACCEL__AK_FLOAT = 3,
    ACCEL__AK_COMPLEX = 4,
    ACCEL__AK_COUNT = 5
};
#define ACCEL__AF_NOHALF 1u /* float16/bfloat16 refused (nextafter: float math would be wrong) */

/* One elementwise function. The expressions are C (and CUDA C) in a, b, c
 * (the inputs, converted to the compute type accel_T), with accel_U (an
 * unsigned type of at least 32 bits and accel_T's width, for wrapping
 * arithmetic), accel_BITS (accel_T's width) and accel_F(name) (name##f for
 * float compute, name for double); NULL: the kind is not taken. The
 * complex column (complex.c) sees accel_T as the complex struct
 * (accel_cxf, accel_cx: members re, im), accel_R as its part type and
 * accel_F(name) as name##f for complex64; its expressions call
 * complex.c's helpers. */
typedef struct accel__arow {
    const char *name;
    uint8_t arity;
    uint8_t result;  /* ACCEL_ARRAY_RESULT_* */
    uint8_t tol_ulp; /* verify mode's bound for float results; 0: exact */
    uint8_t flags;   /* ACCEL__AF_* */
    const char *e[ACCEL__AK_COUNT];
    /* verify mode's bound for complex results, in ulps of the larger part
     * of the reference (accel/array.h, tolerance_ulp_complex); 0: 1 */
    uint8_t tol_cplx;
} accel__arow;

/* Indexed by accel_array_fn; rows with name NULL are unused values. */
extern const accel__arow accel__array_table[ACCEL_ARRAY_FN_LIMIT_];
const accel__arow *accel__array_row(accel_array_fn fn);
/* The helper functions every array kernel may call (accel_floordivf, ...). */
extern const char accel__array_helpers[];
/* complex.c: the complex type and functions (accel_cexpf, ...), emitted
 * after accel__array_helpers into kernels that touch a complex dtype. */
extern const char *const accel__array_complex_helpers[]; /* parts; NULL ends */
/* The column of a compute dtype's kind (ACCEL__AK_*). */
int accel__array_column(accel_dtype ct);

/* elementwise.c: blocks of 256 threads for `items` work items, at least
 * 1 and at most `most`. */
uint32_t accel__array_blocks(int64_t items, int64_t most);
/* elementwise.c: the grid of an elementwise kernel's walk (codegen.c) of n
 * elements: on a GPU (cpu_units 0) *chunk 0 and up to 65535 blocks of 256
 * threads, each thread taking every grid-stride-th element; on a CPU of
 * cpu_units workers, *blocks blocks of ONE thread, each taking *chunk
 * consecutive elements (at least 2048, or all n; at most 4096 chunks a
 * worker), which the backend spreads over its workers. */
void accel__array_walk(uint32_t cpu_units, int64_t n, uint32_t *blocks, int64_t *chunk);
/* elementwise.c: B of ACCEL_ARRAY_WALK=grid[:B] (every device walks as a
 * GPU does, so the tests run the GPU's kernel forms on the CPU), 0 when
 * unset. */
int64_t accel__array_walk_grid(void);

/* ------------------------------------------------------------ scratch.c */

#define ACCEL__ARRAY_TEMPS_MAX 16

/* The temporaries bufs[0..n) (NULL entries skipped; n <= 16) of an array
 * function whose last use of them is enqueued on q, given up: while q
 * records a graph (from any thread) the graph keeps them as temporaries;
 * otherwise they are freed once q reaches its current end (an event on q;
 * at once when none was given to work). st is the function's status: when
 * it failed, the thread's message is kept. */
void accel__array_temps_done(accel_queue *q, accel_buffer *const *bufs, uint32_t n,
                             accel_status st);

/* A scratch buffer of at least bytes on q for temporaries that live only
 * between an array function's launches on q: q's own (arrays/scratch.c),
 * kept from call to call and locked until accel__array_scratch_done, so
 * that the function neither allocates nor waits for q (a chunked
 * reduction's partials had cost a buffer create, an event wait and a free
 * per call); while q records a graph, a new buffer that the graph keeps.
 * *owner is q's object when buf is q's scratch (locked), NULL when it is
 * a buffer of its own, for accel__array_scratch_done. */
accel_status accel__array_scratch_take(accel_queue *q, size_t bytes, accel_buffer **out,
                                       accel_queue **owner);
/* The function that took buf has enqueued its last use of it: q's scratch
 * unlocked through owner (no handle resolved: q may have died meanwhile,
 * in accel_runtime_close), and given to a graph that q began recording
 * meanwhile (q makes a new scratch next time); or a buffer of its own
 * given up (accel__array_temps_done). */
void accel__array_scratch_done(accel_queue *q, accel_buffer *buf, accel_queue *owner,
                               accel_status st);

/* ------------------------------------------------------------ codegen.c */

#define ACCEL__ANAME_MAX 64 /* a kernel name and its NUL (ACCEL__KNAME_MAX) */

/* One elementwise kernel: the function, its input and output storage
 * dtypes, the compute dtype (the promoted inputs; where: of x1 and x2;
 * astype: x's) and the dimensions of the strided variant (0: the
 * contiguous one). */
typedef struct accel__aspec {
    accel_array_fn fn;
    const accel__arow *row;
    uint32_t nin;
    accel_dtype in[3], out, ct;
    uint32_t nd;
    /* nd 2 on a GPU with an operand in the other order (y.T): the walk in
     * tiles of 32 x 32 (codegen.c, tile_walk), the real inputs in that
     * order staged through shared memory (stage, bit k: input k) */
    bool tiled;
    uint8_t stage;
    /* a GPU walk whose every index and offset fits in an int (codegen.c,
     * gpu_index) */
    bool idx32;
    /* runs of ACCEL__ARRAY_RUN elements along the inner axis on a GPU, each
     * one work item's (codegen.c, element_run): out and the inputs not in
     * bcast have inner stride 1, those in bcast (bit k: input k) stride 0 */
    bool run;
    uint8_t bcast;
    /* a comparison of int64 with uint64 (either order): exact on the
     * integers (codegen.c, op_function), as NumPy 2 compares them, instead
     * of in the promoted float64, where 2^63 - 1 and 2^63 are equal */
    bool icmp;
} accel__aspec;

/* The elements of a run (accel__aspec.run): 16 bytes of float32 or int32. */
#define ACCEL__ARRAY_RUN 4

/* The raw-kernel source of s (malloc'ed) and its entry's name into entry
 * (ACCEL__ANAME_MAX bytes). NULL: the row has no expression for s->ct's
 * kind, or out of host memory. */
char *accel__array_codegen(const accel__aspec *s, char *entry);
/* The kernel's name (its cache key): array_<fn>_<dtypes>_<c | sN>. */
void accel__array_entry(const accel__aspec *s, char *entry);
/* The C storage type of dt ("unsigned short" for the 16-bit floats), NULL
 * for complex dtypes. */
const char *accel__array_ctype(accel_dtype dt);
/* codegen.c: the element type of an array pointer in generated source: a
 * complex dtype's part type (float, double: element e at parts 2e and
 * 2e + 1), else accel__array_ctype. */
const char *accel__array_ptr_ctype(accel_dtype dt);
/* codegen.c: the numbered parameters ", <decl><i>" of a generated kernel's
 * signature for i from first up to end (exclusive), as
 * (b, "long long accel_s", 1, 3) gives ", long long accel_s1, long long
 * accel_s2"; the generators of codegen.c, loop.c and reduce.c use it. */
void accel__array_params(accel__sbuf *b, const char *decl, uint32_t first, uint32_t end);

/* reduce.c: out's shape is x's without the axes of mask (keepdims: with
 * size 1 there); ACCEL_ERROR_SHAPE_MISMATCH otherwise. */
accel_status accel__reduce_shape(const char *fn, const accel_array *x, const accel_array *out,
                                 uint64_t mask, int keepdims);

/* ------------------------------------------------------------ loop.c */

/* One loop kernel as data (create.c, index.c, stats.c hold the rows). The
 * snippets are C (and CUDA C) that see: accel_A<k> (array k's elements,
 * typed accel_E<k>), accel_ld<k>(o) and accel_st<k>(o, v) (load as a number,
 * store converting), the offsets accel_p<k> (P's element) and accel_o<k>
 * (P's plus S's), accel_i and accel_j (flat indices in P and S), accel_n and
 * accel_m (their counts), the coordinates accel_cp[d] and accel_cs[d]
 * (accel_NP, accel_NS axes), the scalars accel_f<i> (double) and accel_k<i>
 * (long long), accel_FLOAT0 (array 0 is a float) and accel_acc_t (double
 * for a float array 0, else unsigned long long). */
typedef struct accel__lrow {
    const char *name;
    uint8_t narr;    /* arrays, at most 4 */
    uint8_t written; /* bit k: array k is written */
    uint8_t nf, ni;  /* scalars */
    uint8_t serial;  /* body runs in a loop over S (else once per P element) */
    uint8_t pcoords; /* the last `protect` P axes' coordinates are read */
    uint8_t scoords; /* S's coordinates are read (its axes never merge) */
    uint8_t tol_ulp; /* verify mode's bound; 0: exact */
    /* Complex views are taken: the body moves elements whole (accel_A<k>[o]
     * = ...) or reads and writes them with accel_re<k>, accel_im<k> and
     * accel_stc<k>, never accel_ld<k> or accel_st<k> (loop.c). */
    uint8_t complex_ok;
    const char *pre, *body, *mid, *body2, *post; /* body2: a second loop over S */
} accel__lrow;

/* The kernel of a row for dtypes and axes (the cache key). */
typedef struct accel__lspec {
    const accel__lrow *row;
    accel_dtype dt[4];
    uint32_t np, ns;
} accel__lspec;

/* One call: the row, its checked arrays with their extents, P's and S's
 * sizes and each array's strides over them (elements), the scalars. */
typedef struct accel__lcall {
    const char *fn;
    const accel__lrow *row;
    const accel_array *a[4];
    accel__extent ext[4];
    uint32_t np, ns, protect;
    int64_t psize[ACCEL_ARRAY_MAX_NDIM], ssize[ACCEL_ARRAY_MAX_NDIM];
    int64_t pst[4][ACCEL_ARRAY_MAX_NDIM], sst[4][ACCEL_ARRAY_MAX_NDIM];
    double f[4];
    int64_t k[4];
} accel__lcall;

void accel__loop_entry(const accel__lspec *s, char *entry);
/* Merge axes, build (or find) the kernel and launch it over P (nothing for
 * an empty P), one launch per index of leading P axes that exceed a
 * kernel's parameters; ACCEL_ERROR_UNSUPPORTED when S alone does. */
accel_status accel__loop_run(accel_queue *q, accel_runtime *rt, accel__lcall *c);
/* The views of a call (as accel__array_views), a[0] written: no other may
 * meet its elements, but for exactly the same view when exact_ok. */
accel_status accel__array_io(const char *fn, accel_queue *q, uint32_t n,
                             const accel_array *const *a, const char *const *names,
                             accel__extent *ext, accel_runtime **rt, bool exact_ok);
/* accel__array_io for functions that take complex views too (linalg). */
accel_status accel__array_io_any(const char *fn, accel_queue *q, uint32_t n,
                                 const accel_array *const *a, const char *const *names,
                                 accel__extent *ext, accel_runtime **rt, bool exact_ok);
/* *c = a call of row (fn's) on its row->narr arrays of (a0, a1, a2), named
 * names, checked by accel__array_io with no in-place form. */
accel_status accel__lcall_io(accel__lcall *c, const char *fn, const accel__lrow *row,
                             accel_queue *q, const accel_array *a0, const accel_array *a1,
                             const accel_array *a2, const char *const *names, accel_runtime **rt);

/* ------------------------------------------------------------ cache.c */

/* The source of a kernel on a cache miss (malloc'ed; NULL: out of memory). */
typedef char *(*accel__asource)(const void *ctx);
/* The kernel named entry (its key) on rt (the object, not the handle), made
 * from source(ctx) on first use with verify mode's bound tol_ulp (0: 1 ulp)
 * and kept until the runtime closes; *out is not the caller's to release. */
accel_status accel__array_kernel(accel_runtime *rt, const char *entry, accel__asource source,
                                 const void *ctx, unsigned tol_ulp, accel_kernel **out);
/* elementwise.c: q's runtime (object) and device (handle), and the checks
 * of n views (names for messages) with their extents: valid, on q's device,
 * not complex. */
accel_status accel__array_views(const char *fn, accel_queue *q, uint32_t n,
                                const accel_array *const *a, const char *const *names,
                                accel__extent *ext, accel_runtime **rt);
/* The same checks, complex views allowed (the functions that compute on
 * them: the elementwise table's complex column, the complex reductions). */
accel_status accel__array_views_any(const char *fn, accel_queue *q, uint32_t n,
                                    const accel_array *const *a, const char *const *names,
                                    accel__extent *ext, accel_runtime **rt);
/* accel__array_views_any, and q's CPU workers in *cpu_units (NULL: not
 * asked; 0 on a GPU or other device): the kernels whose form depends on
 * the device kind (the walk, the reductions' tile form). */
accel_status accel__array_views_walk(const char *fn, accel_queue *q, uint32_t n,
                                     const accel_array *const *a, const char *const *names,
                                     accel__extent *ext, accel_runtime **rt, uint32_t *cpu_units);
/* At accel_runtime_close (base/runtime.c), before accel__kernels_close:
 * forget the kernels (that call releases them) and free the cache. */
void accel__arrays_close(accel_runtime *rt);

#endif /* ACCEL_CORE_ARRAYS_INTERNAL_H */
