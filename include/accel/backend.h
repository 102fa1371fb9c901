/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/backend.h — the plugin ABI: what a backend shared object exports and
 * what the core hands it. Standalone (only accel/types.h, which itself includes
 * only <stddef.h> and <stdint.h>); plugins never link against the core.
 *
 * A plugin exports exactly one symbol, ACCEL_BACKEND_ENTRY_SYMBOL, a function
 * returning a pointer to a static const accel_backend. The core checks
 * abi_version and struct_size before touching anything else.
 *
 * Contract:
 * - The core validates every handle, range, dtype and shape before it calls a
 *   plugin, so a plugin may trust its arguments (offsets and counts are in
 *   range, operands live on the queue's device unless a function says otherwise).
 * - Status values are accel_status codes (accel/types.h). A plugin explains a
 *   failure with host->set_error(host->host_ctx, ...) on the calling thread
 *   before returning it.
 * - Queues are in-order and asynchronous: queue_* and op_execute enqueue and
 *   return. An error found while running enqueued work is kept on the queue
 *   (the first one, with the op's name) and returned, then cleared, by the next
 *   synchronizing call on that queue (queue_finish, event_synchronize of a later
 *   event); work enqueued after the failure and before that call is skipped.
 * - Thread safety: the core may call any function from any thread, also
 *   concurrently on different queues; it never calls two functions on the same
 *   queue concurrently.
 */
#ifndef ACCEL_BACKEND_H
#define ACCEL_BACKEND_H

#include "accel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change of accel_backend, accel_host_services or
 * accel_op_desc. Appending fields (struct_size grows) is compatible.
 *
 * ABI history (the core loads every version from ACCEL_BACKEND_ABI_OLDEST
 * to ACCEL_BACKEND_ABI_VERSION; a plugin's abi_version says which table and
 * host services it was built for, and the core hands each plugin the host
 * services of its own version):
 *
 *   1  The first ABI. accel_host_services' log and set_error took no
 *      context, so the core could not tell which backend was calling.
 *      measure_ceilings was added later in what was reserved[0] (same
 *      offset, same struct size; older plugins have NULL there).
 *   2  log and set_error take host_ctx as their first argument, like
 *      config_get: every callback knows its backend. accel_backend and
 *      accel_op_desc are unchanged. A plugin moves from 1 to 2 by passing
 *      host->host_ctx first and setting abi_version to 2.
 *
 *   Appended entries (no version bump): the optional entries after
 *   measure_ceilings filled the first table's reserved slots; the graph
 *   entries grew the table. The loader accepts any table at least
 *   ACCEL_BACKEND_TABLE_MIN_SIZE bytes long (the first table's size) and reads
 *   the entries past a smaller plugin's struct_size as NULL.
 *
 *   Program sources: the core generates them, so their entry signatures
 *   follow the core. The CUDA reduction entry gained `void *part, unsigned
 *   phase` after `rows, cols` when reductions took their chunked order
 *   (ACCEL_KERNEL_REDUCE_CHUNK); a plugin that builds CUDA programs passes
 *   them as documented at accel_program_desc. The CUDA elementwise entry
 *   takes blockDim.x == 256 (it had taken any blockDim.x <= 256) since its
 *   blocks cover ACCEL_KERNEL_ELEMENTWISE_BLOCK elements a step. The C raw
 *   entry gained its sixth argument, `const accel_twin *tw`, when the twin
 *   took shared memory, barriers, atomics and warp functions; a plugin that
 *   builds C programs passes it (backends/cpu/twin.c is the one there is).
 *   accel_kernel_launch_desc's shared_bytes and twin_flags took its first
 *   reserved slots (an older core leaves them 0), and launch_flags took
 *   reserved32 (the same).
 *
 *   New op codes and op kinds (no version bump): op_supported answers
 *   ACCEL_ERROR_UNSUPPORTED for a code it does not know, so a plugin built
 *   before an op existed is asked and says no, and the core falls back to
 *   another backend where the policy allows it (else the op fails with
 *   ACCEL_ERROR_UNSUPPORTED naming op, dtype and device). A new op reuses
 *   accel_op_desc's fields (documented per op below); a field of a new
 *   meaning is appended (struct_size grows). ACCEL_OP_SORT and
 *   ACCEL_OP_ARGSORT (kind ACCEL_OP_KIND_SORT) came this way, and so did
 *   the LAPACK ops of kind ACCEL_OP_KIND_LINALG (CHOLESKY, SOLVE, SLOGDET,
 *   QR, EIGH, SVD) with ACCEL_OP_FLAG_LINALG_VECTORS, ACCEL_OP_FFT,
 *   ACCEL_OP_RFFT and ACCEL_OP_IRFFT (kind ACCEL_OP_KIND_FFT), and
 *   ACCEL_OP_CUMSUM (kind ACCEL_OP_KIND_SCAN).
 *
 *   Host services grow the same way (no version bump): cache_get, cache_free
 *   and cache_put were appended after reserved[8] (struct_size grew from 104
 *   to 128 bytes on LP64). A plugin built before them never reads past its
 *   own struct; one built after checks ACCEL_HOST_HAS before each call, so it
 *   also runs on an older core (without the cache).
 */
#define ACCEL_BACKEND_ABI_VERSION 2u
#define ACCEL_BACKEND_ABI_OLDEST 1u

#define ACCEL_BACKEND_ENTRY_SYMBOL "accel_backend_entry"

/* The size of the first table (ABI 1): every entry up to op_execute, then
 * 16 pointer slots (measure_ceilings and 15 reserved). */
#define ACCEL_BACKEND_TABLE_MIN_SIZE                                                               \
    (offsetof(accel_backend, measure_ceilings) + 16 * sizeof(void *))

/* Log levels: accel_log_level of accel/types.h. */

/* Plugin-defined objects; the core only passes the pointers back. */
typedef struct accel_be_buffer accel_be_buffer;
typedef struct accel_be_queue accel_be_queue;
typedef struct accel_be_event accel_be_event;

#if defined(__GNUC__)
#define ACCEL_BACKEND_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ACCEL_BACKEND_PRINTF(f, a)
#endif

/* Services the core gives a plugin at init. Valid until shutdown returns.
 * Every callback takes host_ctx first (the core's record of this backend)
 * and may be called from any thread. */
typedef struct accel_host_services {
    uint32_t struct_size;
    uint32_t abi_version; /* ACCEL_BACKEND_ABI_VERSION of the core's side */
    void *host_ctx;       /* pass back as the first argument of every callback */
    /* Logs through the runtime's log callback and level, prefixed with the
     * backend's name ("cpu: ..."). printf-style. */
    void (*log)(void *host_ctx, int level, const char *fmt, ...) ACCEL_BACKEND_PRINTF(3, 4);
    /* Sets the calling thread's accel_last_error() message. printf-style. */
    void (*set_error)(void *host_ctx, const char *fmt, ...) ACCEL_BACKEND_PRINTF(2, 3);
    /* Value of KEY in this backend's own [backend.NAME] section of
     * plugins.ini, or NULL when absent. The string lives until shutdown. */
    const char *(*config_get)(void *host_ctx, const char *key);
    void *reserved[8];

    /* Appended (struct_size grows; see ACCEL_HOST_HAS): the core's compiled-code cache for code
     * a plugin builds itself (an OpenCL op program, a JIT's module), on disk in the folder of
     * the user kernel cache ($ACCEL_KERNEL_CACHE, [runtime] kernel_cache, else
     * ~/.cache/accel/kernels; "off" turns it off, and then every get misses). The key
     * is key_count NUL-terminated strings chosen by the plugin (what the code depends on: the
     * device, the driver's version, the compile options, the source); the core hashes them with
     * SHA-256 together with the ABI version and the backend's name, so two plugins never share
     * an entry. Entries are checked (size, key, SHA-256 of the payload) before they are handed
     * out; a plugin still treats a payload as untrusted input to its loader (a driver rejects a
     * stale binary: build from source then and put the new one).
     * cache_get: ACCEL_SUCCESS with *out_data (free it with cache_free) and *out_size > 0, or
     * ACCEL_ERROR_NOT_FOUND (no entry, a bad entry, or no disk cache; no message set).
     * cache_put: stores size > 0 bytes under the key (atomically: readers see the old entry or
     * the new one); ACCEL_ERROR_NOT_FOUND when there is no disk cache, other failures are
     * logged by the core, never fatal. Bad arguments (NULL key, field or data, size 0, key_count 0
     * or over ACCEL_HOST_CACHE_KEY_MAX): ACCEL_ERROR_INVALID_ARGUMENT with a message. Thread-safe;
     * blocking (file I/O). */
    int32_t (*cache_get)(void *host_ctx, const char *const *key, size_t key_count, void **out_data,
                         size_t *out_size);
    void (*cache_free)(void *host_ctx, void *data);
    int32_t (*cache_put)(void *host_ctx, const char *const *key, size_t key_count, const void *data,
                         size_t size);
} accel_host_services;

/* The most fields a cache key of accel_host_services may have. */
#define ACCEL_HOST_CACHE_KEY_MAX 16u

/* True when the host services at h have the appended entry `field` (a core at least as new as
 * the entry, whose struct_size covers it) and it is set. */
#define ACCEL_HOST_HAS(h, field)                                                                   \
    ((h)->struct_size >= offsetof(accel_host_services, field) + sizeof((h)->field) &&              \
     (h)->field != NULL)

/* One operand: a plugin buffer, and a range in elements of the op's dtype. */
typedef struct accel_op_operand {
    accel_be_buffer *buffer;
    size_t offset; /* elements from the start of the buffer */
    size_t count;  /* elements */
} accel_op_operand;

/* One op, described as plain data so new ops do not change the ABI.
 * Operand order per op:
 *   FILL, RANDOM_*:              [0] out
 *   COPY, SCALE, unary ops:      [0] x, [1] out
 *   binary elementwise:          [0] a, [1] b, [2] out
 *   AXPBY:                       [0] x, [1] y (y is read and written)
 *   SUM, REDUCE_MAX/MIN:         [0] x, [1] out (count 1)
 *   DOT:                         [0] x, [1] y, [2] out (count 1)
 *   GEMM:                        [0] A, [1] B, [2] C (ranges cover every batch)
 *   TRANSPOSE:                   [0] x, [1] out (ranges cover the stored
 *                                matrices; they never overlap)
 *   SORT:                        [0] x, [1] out (equal counts m*n*k; out is
 *                                x's range exactly or does not overlap it)
 *   ARGSORT:                     [0] x, [1] out: m*n*k int64 indices (its
 *                                offset and count in int64 elements, the
 *                                one operand not in dtype); no overlap
 *   CHOLESKY, SLOGDET, QR, EIGH,
 *   SVD:                         [0] A, [1] out (the output block below)
 *   SOLVE:                       [0] A, [1] B, [2] out
 *   FFT, RFFT, IRFFT:            [0] x, [1] out, never overlapping; dtype
 *                                is complex64 or complex128; RFFT's x and
 *                                IRFFT's out are of its real half (f32,
 *                                f64: offset and count in those elements)
 *   CUMSUM:                      [0] x, [1] out (equal counts m*n*k, never
 *                                overlapping; out in accel_scan_out_dtype,
 *                                x's dtype unless ACCEL_OP_FLAG_SCAN_WIDE)
 * Elementwise counts are equal (checked by the core). Outputs of elementwise
 * ops either equal an input's range exactly or do not overlap it at all. */
typedef struct accel_op_desc {
    uint32_t struct_size;
    uint32_t op;      /* accel_op_code */
    uint32_t dtype;   /* accel_dtype */
    uint32_t flags;   /* ACCEL_OP_FLAG_* */
    const char *name; /* the public function's name, for messages ("accel_add") */
    uint32_t num_operands;
    uint32_t reserved0;
    accel_op_operand operands[4];
    double scalars[4];   /* FILL: value; SCALE: alpha; AXPBY: alpha, beta;
                            GEMM: alpha, beta; RANDOM_NORMAL: mean, stddev */
    uint64_t seed;       /* RANDOM_*: Philox key */
    uint64_t rng_offset; /* RANDOM_*: index of out[0] in the seed's stream */
    /* GEMM, row-major: op(A) is m x k, op(B) is k x n, C is m x n. */
    uint32_t trans_a, trans_b; /* 0: as stored, 1: transposed */
    size_t m, n, k;
    size_t lda, ldb, ldc; /* elements between consecutive rows as stored */
    /* TRANSPOSE, row-major: x is m x n with leading dimension lda (>= n),
     * out = x^T is n x m with leading dimension ldc (>= m); m, n > 0.
     * SORT: x and out are contiguous m x n x k blocks (row-major); out
     * holds x with each of the m*k lines along the middle axis (n
     * elements, k apart) sorted, stably: ascending, or descending with
     * ACCEL_OP_FLAG_SORT_DESCENDING (the reverse of the ascending order of
     * the reversed line, so equal keys keep their order too). Floats order
     * as NumPy's sort: -inf < ... < -0 == +0 < ... < +inf < NaN (NaNs last
     * ascending, first descending; equal keys, -0 and +0 and every NaN
     * keep their order). Bool and integers by value. Exact on every
     * backend. m, n, k >= 1. ARGSORT: the same geometry; out[(o*n + j)*k
     * + i] is the index in 0..n-1 of the element of line (o, i) that SORT
     * puts at position j (ties: the smaller index first, both directions).
     * LINALG (kind ACCEL_OP_KIND_LINALG): batch_count independent problems,
     * every matrix column-major (LAPACK's layout: element (i, j) of an r x c
     * matrix at j*r + i) and stored whole, matrix t of the batch at t times
     * the matrix's size from its region's start. The output is one block of
     * regions, each holding that part of every problem (region r starts at
     * batch_count times the per-problem sizes of the regions before it;
     * accel_linalg_layout below computes it). Inputs are never written; a
     * backend copies A into the block and works there (LAPACK's in-place
     * routines). A value-dependent failure (LAPACK info > 0: a zero pivot, a
     * minor not positive definite, no convergence) is ACCEL_ERROR_LINALG
     * with a message naming the problem t of the batch and info.
     * dtype is f32, f64, c64 or c128 (LAPACK's s, d, c, z routines). Every
     * region holds values of the dtype, so its sizes and offsets count
     * dtype elements; for a complex dtype the real-valued results (W, S,
     * log|det A|, PIV) are stored as complex values of imaginary part
     * exactly 0 (LAPACK's real W or S array widened in place: element i
     * from the last down), and the core reads their real parts. For a
     * complex A, ^H (the conjugate transpose) replaces ^T below and
     * "Hermitian" replaces "symmetric" (CHOLESKY and EIGH ignore the
     * imaginary parts of A's diagonal, as LAPACK's potrf and heevd do);
     * ungqr replaces orgqr, heevd syevd.
     * A backend without complex routines answers op_supported with
     * ACCEL_ERROR_UNSUPPORTED for c64 and c128 (the core falls back).
     *   CHOLESKY: A n x n (m = n), only its lower triangle read; out = [L]:
     *     the lower triangle holds L, A = L L^T (A = L L^H: potrf 'L'); the
     *     strictly upper part is unspecified.
     *   SOLVE: A n x n (m = n), B n x k; out = [X n x k | LU n x n]: A X = B
     *     (getrf + getrs), LU getrf's factors. An exactly singular A (info >
     *     0) fails.
     *   SLOGDET: A n x n (m = n); out = [SL 3 | LU n x n | PIV n]: SL =
     *     (sign, log|det A|, det A) (sign = det A / |det A|, complex of
     *     modulus 1 for a complex A) from getrf's factors LU and pivots PIV
     *     (LAPACK's ipiv, 1-based, stored as values of the dtype; det as
     *     the sign times the product of U's diagonal, which may overflow
     *     to +-inf as NumPy's det does); a singular A gives (0, -inf, 0),
     *     not an error.
     *   QR: A m x n, k = Q's columns (min(m,n), or m for the complete
     *     factorization); out = [Q m x k | H m x n | TAU min(m,n)]: geqrf's
     *     H (R in its upper triangle, the reflectors below) and TAU, Q from
     *     orgqr (ungqr); A = Q R with R = the first k rows of H's upper
     *     triangle.
     *   EIGH: A n x n (m = n), only its lower triangle read; out = [W n | V
     *     n x n]: eigenvalues (real) ascending and, with
     *     ACCEL_OP_FLAG_LINALG_VECTORS, orthonormal eigenvectors in V's
     *     columns, A V = V diag(W) (syevd or heevd 'L'); without the flag V
     *     is unspecified.
     *   SVD: A m x n with m >= n (the core transposes a wide A), k = U's
     *     columns (n, or m for full matrices); out = [S n | U m x k | VT n x n
     *     | WORK m x n]: singular values (real) descending and, with
     *     ACCEL_OP_FLAG_LINALG_VECTORS, A = U[:, :n] diag(S) VT (gesvd; VT
     *     = V^H for a complex A);
     *     without it U and VT are unspecified; WORK is the backend's.
     *   m, n >= 1 (and k >= 1 where used); batch_count >= 1.
     * FFT, RFFT, IRFFT: x and out are contiguous m x len x k blocks, len
     * per operand: n, or n/2 + 1 on the complex side of RFFT (out) and
     * IRFFT (x). Each of the m*k lines (len elements k apart) is
     * transformed: out_j = scalars[0] * sum_t x_t exp(-+2 pi i j t / n),
     * the sign + with ACCEL_OP_FLAG_FFT_INVERSE (which IRFFT always
     * carries). RFFT: the first n/2 + 1 outputs of the FFT of a real line.
     * IRFFT: the real line whose spectrum is x extended by Hermitian
     * symmetry (x_{n-j} = conj(x_j)); the imaginary parts of x_0 and, for
     * even n, x_{n/2} are ignored (NumPy's irfft). n >= 1; verify mode
     * compares with ACCEL_TOLERANCE_FFT. x is read only (a backend whose
     * library overwrites a C2R input copies it first).
     * CUMSUM: x and out are contiguous m x n x k blocks; element j of each
     * of the m*k lines (n elements k apart) of out is the sum of elements
     * 0..j of x's line (an inclusive scan). Floats are summed in float64,
     * in any order (a backend may associate as its parallel scan does),
     * and each sum is rounded once to out's dtype; integers wrap in two's
     * complement, which gives the same bits in any order (with
     * ACCEL_OP_FLAG_SCAN_WIDE out is 64-bit: signed x sign-extended, bool
     * as 0 and 1). A backend may
     * take only some geometries (the CUDA backend: k == 1) and answer
     * op_supported with ACCEL_ERROR_UNSUPPORTED for the rest. Verify mode
     * compares with ACCEL_TOLERANCE_PREFIX. m, n, k >= 1. */
    size_t batch_count;                  /* >= 1 */
    size_t stride_a, stride_b, stride_c; /* elements between batch matrices */
    /* ACCEL_OP_KERNEL: the launch (below); NULL for every other op. Takes
     * the first reserved slot: same size, same offsets. */
    const struct accel_kernel_launch_desc *kernel;
    uint64_t reserved[7];
} accel_op_desc;

/* GEMM may use TF32 tensor cores (changes results; only when asked). */
#define ACCEL_OP_FLAG_ALLOW_TF32 (1u << 0)
/* SORT: descending order (the stable descending order described there). */
#define ACCEL_OP_FLAG_SORT_DESCENDING (1u << 1)
/* EIGH, SVD: compute the vectors too (else only the values). */
#define ACCEL_OP_FLAG_LINALG_VECTORS (1u << 2)
/* FFT: the inverse transform's sign (exp(+2 pi i j t / n)); no scaling. */
#define ACCEL_OP_FLAG_FFT_INVERSE (1u << 3)
/* CUMSUM: out holds the sums in the accumulator's dtype, not x's
 * (accel_scan_out_dtype): float64 for floats, int64 for signed integers and
 * bool, uint64 for unsigned integers (the Array API's default dtype of
 * cumulative_sum for integers and bool narrower than 64 bits). bool x
 * takes this flag only. */
#define ACCEL_OP_FLAG_SCAN_WIDE (1u << 4)

/* CUMSUM's out dtype for x's dtype and the op's flags. */
static inline uint32_t accel_scan_out_dtype(uint32_t dtype, uint32_t flags)
{
    if (!(flags & ACCEL_OP_FLAG_SCAN_WIDE))
        return dtype;
    switch (dtype) {
    case ACCEL_F32:
    case ACCEL_F64:
        return ACCEL_F64;
    case ACCEL_U8:
    case ACCEL_U16:
    case ACCEL_U32:
    case ACCEL_U64:
        return ACCEL_U64;
    default:
        return ACCEL_I64;
    }
}

/* The dtype of operand i of d: d's dtype, except ARGSORT's out (int64
 * indices), CUMSUM's out (accel_scan_out_dtype) and the real side of RFFT
 * (x) and IRFFT (out): float32 for complex64, float64 for complex128. The
 * operand's offset and count are in elements of this dtype. */
static inline uint32_t accel_op_operand_dtype(const accel_op_desc *d, uint32_t i)
{
    uint32_t last = d->num_operands ? d->num_operands - 1 : 0;
    if (d->op == ACCEL_OP_ARGSORT && i == last)
        return ACCEL_I64;
    if (d->op == ACCEL_OP_CUMSUM && i == last)
        return accel_scan_out_dtype(d->dtype, d->flags);
    if ((d->op == ACCEL_OP_RFFT && i == 0) || (d->op == ACCEL_OP_IRFFT && i == 1))
        return d->dtype == ACCEL_C128 ? ACCEL_F64 : ACCEL_F32;
    return d->dtype;
}

/* The output block of a LINALG op (accel_op_desc above): regions r = 0 to
 * count-1 of size[r] elements per problem, starting at element off[r] of
 * the block; total elements in all. */
typedef struct accel_linalg_layout {
    uint32_t count;
    size_t size[4], off[4];
    size_t total;
} accel_linalg_layout;

/* The layout of op (an ACCEL_OP_KIND_LINALG code) for batch problems of
 * m x n (and k); count 0 for any other op. The caller has checked that the
 * sizes do not overflow (the core's validation does). */
static inline accel_linalg_layout accel_linalg_layout_of(uint32_t op, size_t batch, size_t m,
                                                         size_t n, size_t k)
{
    accel_linalg_layout l = {0, {0, 0, 0, 0}, {0, 0, 0, 0}, 0};
    size_t mn = m < n ? m : n;
    switch (op) {
    case ACCEL_OP_CHOLESKY: /* L */
        l.count = 1, l.size[0] = n * n;
        break;
    case ACCEL_OP_SOLVE: /* X, LU */
        l.count = 2, l.size[0] = n * k, l.size[1] = n * n;
        break;
    case ACCEL_OP_SLOGDET: /* SL, LU, PIV */
        l.count = 3, l.size[0] = 3, l.size[1] = n * n, l.size[2] = n;
        break;
    case ACCEL_OP_QR: /* Q, H, TAU */
        l.count = 3, l.size[0] = m * k, l.size[1] = m * n, l.size[2] = mn;
        break;
    case ACCEL_OP_EIGH: /* W, V */
        l.count = 2, l.size[0] = n, l.size[1] = n * n;
        break;
    case ACCEL_OP_SVD: /* S, U, VT, WORK */
        l.count = 4, l.size[0] = n, l.size[1] = m * k, l.size[2] = n * n, l.size[3] = m * n;
        break;
    default:
        return l;
    }
    for (uint32_t r = 0; r < l.count; r++) {
        l.off[r] = l.total;
        l.total += batch * l.size[r];
    }
    return l;
}

typedef void (*accel_host_fn)(void *user);

/* ---------------------------------------------------------- user kernels
 * The core parses a user kernel (accel/kernel.h), generates one source per
 * language and hands it to program_build; launches arrive as op_execute of
 * an ACCEL_OP_KERNEL desc whose `kernel` points to an accel_kernel_launch_desc
 * (so trace, verify and fallback see them like any op). Generated entries:
 *
 *   ACCEL_PROGRAM_C (a C11 translation unit, no #include; the core's prelude
 *   declares the math functions it uses, resolved from the process's libm):
 *     elementwise: void E(void *const *args, size_t begin, size_t end, size_t n)
 *     reduction:   void E(void *const *args, size_t row_begin, size_t row_end,
 *                         size_t cols)
 *     raw:         void E(void *const *args, const unsigned grid[3],
 *                         const unsigned block[3], size_t block_begin,
 *                         size_t block_end, const accel_twin *tw)
 *                  (flattened block index; tw: the backend's twin runtime,
 *                  below; the sixth argument was added with shared memory,
 *                  barriers, atomics and warp functions in the twin)
 *   args[i] is the address of array element 0 of argument i's range, or the
 *   address of scalar argument i's value (accel_kernel_arg_desc.value).
 *   Calls on disjoint index ranges may run concurrently.
 *
 *   ACCEL_PROGRAM_CUDA (CUDA C++ for NVRTC, entries extern "C"): parameters
 *   are the arguments in order (arrays as T *, scalars by value), then for
 *   elementwise `size_t n`, for reductions `size_t rows, size_t cols,
 *   void *part, unsigned phase`.
 *   Elementwise: blockDim.x == 256 (1-D), any grid (the blocks are
 *   grid-strided; ceil(n / ACCEL_KERNEL_ELEMENTWISE_BLOCK) blocks, one step
 *   each, stream best); reduction: blockDim.x == 256,
 *   any gridDim.x (blocks are grid-strided). A reduction's row is cut into
 *   np = ceil(cols / ACCEL_KERNEL_REDUCE_CHUNK) chunks (1 when cols is
 *   smaller). np == 1: one launch, phase 0, part unused (NULL). np > 1: phase
 *   0 over rows * np blocks writes one partial per (row, chunk) into part
 *   (rows * np slots of 8 bytes, device memory), then phase 1 over rows
 *   blocks folds each row's partials in index order and writes the output.
 *   raw: the given grid and block. */
typedef struct accel_be_program accel_be_program;

#define ACCEL_PROGRAM_C 1u    /* C11 (the CPU twin) */
#define ACCEL_PROGRAM_CUDA 2u /* CUDA C++ */

typedef struct accel_program_desc {
    uint32_t struct_size;
    uint32_t language;          /* ACCEL_PROGRAM_* */
    const char *name;           /* the kernel's name, for messages */
    const char *source;         /* NUL-terminated; #line maps to the user's text */
    const char *const *entries; /* symbols to resolve */
    uint32_t entry_count;
    uint32_t reserved0;
    /* Non-NULL: load this image (an out_binary of an earlier program_build
     * with the same program_identity) instead of compiling source. */
    const void *binary;
    size_t binary_size;
    char *log;           /* compiler log out, NUL-terminated and truncated */
    size_t log_size;     /* bytes at log */
    const char *options; /* extra compiler options from the user (CUDA), or NULL */
    uint64_t reserved[8];
} accel_program_desc;

/* One kernel argument as the backend sees it (validated by the core). */
#define ACCEL_KARG_ARRAY 1u
#define ACCEL_KARG_SCALAR 2u
typedef struct accel_kernel_arg_desc {
    uint32_t kind;           /* ACCEL_KARG_* */
    uint32_t dtype;          /* accel_dtype */
    accel_be_buffer *buffer; /* arrays */
    size_t offset, count;    /* arrays: elements of dtype */
    union {
        double f64;
        float f32;
        int64_t i64;
        int32_t i32;
        uint16_t bits16; /* f16 / bf16 bit pattern */
        uint8_t u8;
        unsigned char bytes[8];
    } value; /* scalars, stored as the entry reads them */
} accel_kernel_arg_desc;

#define ACCEL_KERNEL_ELEMENTWISE 1u
#define ACCEL_KERNEL_REDUCTION 2u
#define ACCEL_KERNEL_RAW 3u
/* Columns of a reduction row that one block (CUDA) or one pass (C) reduces
 * before the partials are combined: part of the fixed reduction order. */
#define ACCEL_KERNEL_REDUCE_CHUNK 16384u
/* Elements that one 256-thread block of a CUDA elementwise entry covers per
 * step (2 vectors of 4 per thread). */
#define ACCEL_KERNEL_ELEMENTWISE_BLOCK 2048u
typedef struct accel_kernel_launch_desc {
    uint32_t struct_size;
    uint32_t kind;             /* ACCEL_KERNEL_* */
    accel_be_program *program; /* built for this backend and device */
    uint32_t entry;            /* index into the program's entries */
    uint32_t num_args;
    const accel_kernel_arg_desc *args;
    size_t n;                   /* elementwise: elements; reduction: columns per row */
    size_t rows;                /* reduction: rows (>= 1) */
    uint32_t grid[3], block[3]; /* raw: all >= 1, within CUDA's limits */
    /* raw: bytes of dynamic shared memory per block (extern __shared__;
     * cuLaunchKernel's sharedMemBytes), at most 48 KiB. Added in what was
     * reserved[0] (same size and offsets): older cores leave it 0. */
    uint64_t shared_bytes;
    /* raw, ACCEL_PROGRAM_C: ACCEL_TWIN_DEBUG when the program is the debug
     * build (checked accesses); the CPU backend then runs the blocks in
     * order on one thread. Added in what was reserved[1]. */
    uint32_t twin_flags;
    /* ACCEL_LAUNCH_*: what the core knows of the launch's cost. Added in
     * what was reserved32: older cores leave it 0, and a backend may ignore
     * it. */
    uint32_t launch_flags;
    uint64_t reserved[6];
} accel_kernel_launch_desc;

/* accel_kernel_launch_desc.launch_flags: the launch is one of the core's
 * own kernels (an array op's generated kernel, never a user's) and reads
 * or writes at most ACCEL_LAUNCH_BRIEF_ELEMENTS elements, so it takes a few
 * microseconds on one CPU thread. A backend may run it on the calling
 * thread where that keeps its queue's order (the CPU backend does when the
 * queue is idle, as it does its built-in ops of that size), saving the
 * hand-off to a worker thread. */
#define ACCEL_LAUNCH_BRIEF 1u
#define ACCEL_LAUNCH_BRIEF_ELEMENTS 16384

/* ---------------------------------------------------------- the CPU twin
 * The runtime a raw kernel's C twin (ACCEL_PROGRAM_C) calls into: the raw
 * entry's sixth argument, `const accel_twin *tw`, made by the backend for
 * each launch. The core's generated C declares the same two structs
 * textually (core/kernels/kernel_twin.c, which includes no header): keep
 * them in step. Threads of a block that use barriers or warp collectives
 * run as the backend's lightweight contexts (docs/kernels-twin.md). */
#define ACCEL_TWIN_DEBUG 1u /* accel_twin.flags: checked accesses */
/* run_blocks' `needs`, from the generated code */
#define ACCEL_TWIN_NEEDS_FIBERS 1u /* barriers or warp collectives: one context per thread */
#define ACCEL_TWIN_NEEDS_SERIAL                                                                    \
    2u /* block-scope statics (shared memory without TLS): one block at a time */
typedef struct accel_twin_thread {
    uint32_t thread_idx[3], block_idx[3], block_dim[3], grid_dim[3];
    const struct accel_twin *tw;
    void *dyn_shared; /* the block's dynamic shared memory (tw->shared_bytes) */
    void *team;       /* the backend's */
    uint32_t tid;     /* x + y * bx + z * bx * by */
    uint32_t lane;    /* tid % 32 */
} accel_twin_thread;
typedef struct accel_twin {
    uint32_t struct_size;
    uint32_t flags;      /* ACCEL_TWIN_* */
    size_t shared_bytes; /* dynamic shared memory per block */
    /* Run blocks [begin, end) of the grid, each thread calling thread(t, args). */
    void (*run_blocks)(const struct accel_twin *tw,
                       void (*thread)(accel_twin_thread *t, void *const *args), void *const *args,
                       const unsigned grid[3], const unsigned block[3], size_t begin, size_t end,
                       unsigned needs);
    /* __syncthreads (op 0) and its _count (1), _and (2), _or (3) forms. */
    int (*sync)(accel_twin_thread *t, int op, int pred);
    /* Warp functions: op 0 shfl, 1 shfl_up, 2 shfl_down, 3 shfl_xor (arg:
     * lane, delta or mask; v the 64 bits moved), 4 ballot, 5 any, 6 all,
     * 7 activemask, 8 syncwarp. */
    uint64_t (*warp)(accel_twin_thread *t, int op, uint32_t mask, uint64_t v, int arg, int width);
    /* Atomics on integers: kind 1 int, 2 unsigned, 3 unsigned long long,
     * 4 long long; op 1 add, 2 sub, 3 exch, 4 min, 5 max, 6 inc, 7 dec,
     * 8 cas (cmp), 9 and, 10 or, 11 xor. Returns the old value. */
    uint64_t (*atomic_int)(void *p, int op, int kind, uint64_t v, uint64_t cmp);
    /* Atomics on floating point: op 1 add, 3 exch; is_double 0 or 1. */
    double (*atomic_fp)(void *p, int op, int is_double, double v);
    int (*printf)(accel_twin_thread *t, const char *fmt, ...);
    void (*fence)(void);
    /* Debug builds: the element at addr (size bytes) of argument or shared
     * array `name` (base, bytes) accessed at `line` (rw: 1 read, 2 write, 3
     * both, 0 unknown); returns addr, or stops the launch on a fault. */
    void *(*check)(accel_twin_thread *t, void *addr, size_t size, const char *name,
                   const void *base, size_t bytes, int line, int rw);
    /* Debug builds: the bounds of argument i (base, bytes). */
    const void *const *arg_base;
    const size_t *arg_bytes;
    void *state; /* the backend's */
} accel_twin;

/* A collective for the comm_* entries, in the plugin's terms. Operands as
 * in accel_op_desc (elements of dtype). SEND: send only; RECV: recv only;
 * BROADCAST: send and recv are the same range; REDUCE: recv.buffer is NULL
 * off the root. Counts: ALLGATHER recv = nranks * send, REDUCE_SCATTER
 * send = nranks * recv, else equal (checked by the caller). */
typedef struct accel_be_collective {
    uint32_t struct_size;
    uint32_t kind;  /* accel_collective_kind */
    uint32_t dtype; /* accel_dtype */
    uint32_t op;    /* ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX, ACCEL_OP_REDUCE_MIN */
    const char *name;
    int32_t root; /* root of REDUCE/BROADCAST, peer of SEND/RECV */
    uint32_t reserved0;
    accel_op_operand send, recv;
    uint64_t reserved[4];
} accel_be_collective;

typedef struct accel_be_comm accel_be_comm;

/* One node of a recorded graph, as the graph entries see it (validated by the
 * core: operands and byte ranges are in range, buffers live on the graph's
 * device). kind is the public accel_graph_node_kind (accel/graph.h): 1 an op
 * (op), 2 a write host -> dst, 3 a read src -> host, 4 a copy src -> dst;
 * offsets and bytes are bytes. Event records are never handed to a backend
 * (the core replays a graph holding one). */
typedef struct accel_graph_node_desc {
    uint32_t struct_size;
    uint32_t kind;
    accel_op_desc op;
    accel_be_buffer *src, *dst;
    size_t src_offset, dst_offset, bytes;
    const void *host_src; /* write */
    void *host_dst;       /* read */
    uint64_t reserved[4];
} accel_graph_node_desc;

typedef struct accel_be_graph accel_be_graph;

/* The plugin's table. Required entries are marked; optional ones may be NULL
 * and the comment says what the core does then. */
typedef struct accel_backend {
    uint32_t abi_version;    /* ACCEL_BACKEND_ABI_VERSION */
    uint32_t struct_size;    /* sizeof(accel_backend) */
    const char *name;        /* short lower-case name used in device names ("cuda") */
    const char *description; /* one line for `accel info` */

    /* Required. Probe and initialize. Returns ACCEL_ERROR_UNAVAILABLE (with a
     * message through host->set_error) when there is no driver or device;
     * the core records the reason and goes on with other backends. */
    int32_t (*init)(const accel_host_services *host, void **out_ctx);
    /* Required. Release everything; queues and buffers were released before. */
    void (*shutdown)(void *ctx);

    /* Required. Devices are numbered 0..device_count-1 and never change. */
    uint32_t (*device_count)(void *ctx);
    int32_t (*device_properties)(void *ctx, uint32_t device, accel_device_properties *out);

    /* Required. Device memory; bytes may be 0 (out is then still a valid buffer).
     * The core calls buffer_free only once no enqueued work uses the buffer
     * (accel_buffer_release first waits for every queue). */
    int32_t (*buffer_alloc)(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out);
    void (*buffer_free)(void *ctx, accel_be_buffer *buf);
    /* Optional. Host address of the buffer's first byte when the buffer is
     * host memory, else NULL. NULL entry: never host-accessible. */
    void *(*buffer_host_ptr)(void *ctx, accel_be_buffer *buf);

    /* Optional. Page-locked host memory for fast async transfers.
     * NULL entries: the core uses 64-byte-aligned plain memory. */
    int32_t (*host_alloc)(void *ctx, size_t bytes, void **out);
    void (*host_free)(void *ctx, void *ptr);

    /* Required. In-order asynchronous queues. queue_destroy waits for all
     * work first. queue_finish waits and returns the queue's sticky error. */
    int32_t (*queue_create)(void *ctx, uint32_t device, accel_be_queue **out);
    void (*queue_destroy)(void *ctx, accel_be_queue *q);
    int32_t (*queue_finish)(void *ctx, accel_be_queue *q);

    /* Required. Transfers, bytes and byte offsets. src/dst host memory must
     * stay valid until the queue has passed the transfer. queue_write may
     * read src at the call or when the queue gets there (CUDA copies pageable
     * memory at the call), so the core never writes from memory that work
     * still in the queue (a host function) fills. queue_read fills dst by the
     * time the queue has passed it, not necessarily at the call. */
    int32_t (*queue_write)(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t dst_offset,
                           const void *src, size_t bytes);
    int32_t (*queue_read)(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                          void *dst, size_t bytes);
    /* Required. Buffer to buffer on this backend; src and dst may be on
     * different devices of this backend (q is on one of them). */
    int32_t (*queue_copy)(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                          accel_be_buffer *dst, size_t dst_offset, size_t bytes);
    /* Required. Run fn(user) on a host thread once all earlier work on q is
     * done; later work waits for it to return. fn must not call into this
     * backend; the core uses it for cross-backend waits and staging. */
    int32_t (*queue_host_fn)(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user);

    /* Required. Events: a marker in a queue. event_record replaces an earlier
     * recording. elapsed: milliseconds between two recorded, completed events
     * of the same device. */
    int32_t (*event_create)(void *ctx, uint32_t device, accel_be_event **out);
    void (*event_destroy)(void *ctx, accel_be_event *ev);
    int32_t (*event_record)(void *ctx, accel_be_event *ev, accel_be_queue *q);
    /* Same-backend wait (devices may differ). */
    int32_t (*queue_wait_event)(void *ctx, accel_be_queue *q, accel_be_event *ev);
    /* Blocks until the event's work is done; returns the sticky error of the
     * recording queue when the work before the event failed. */
    int32_t (*event_synchronize)(void *ctx, accel_be_event *ev);
    /* Non-blocking: *out_done = 1 when the event's work is done, else 0.
     * An event never recorded counts as done. */
    int32_t (*event_query)(void *ctx, accel_be_event *ev, int *out_done);
    int32_t (*event_elapsed_ms)(void *ctx, accel_be_event *start, accel_be_event *end,
                                double *out_ms);

    /* Required. ACCEL_SUCCESS when op_execute would accept desc on device,
     * ACCEL_ERROR_UNSUPPORTED otherwise (unknown op codes included). Must not
     * enqueue anything. */
    int32_t (*op_supported)(void *ctx, uint32_t device, const accel_op_desc *desc);
    /* Required. Enqueue desc on q. desc and its fields may be freed by the
     * caller as soon as this returns. */
    int32_t (*op_execute)(void *ctx, accel_be_queue *q, const accel_op_desc *desc);

    /* Optional (added in ABI 1 in what was reserved[0]: same offset, same
     * struct size, so older plugins, whose reserved slots are NULL, still
     * load). Measure the device's ceilings with the vendor's own calls, not
     * with this plugin's ops: fill the fields of *out it can (struct_size set
     * by the core; leave the rest 0). opt is complete (defaults resolved by
     * the plugin where a field is 0). Uses the device exclusively for a
     * while; the core never calls it concurrently with other work it knows
     * of. NULL: accel_device_measure_ceilings returns ACCEL_ERROR_UNSUPPORTED. */
    int32_t (*measure_ceilings)(void *ctx, uint32_t device, const accel_ceilings_options *opt,
                                accel_ceilings *out);

    /* Optional (added in ABI 1 in what were reserved[1..3]; older plugins
     * leave them NULL). Zero-copy exchange with other libraries.
     * buffer_native_ptr: the address of the buffer's first byte as the
     * backend's own API sees it (CUDA: the device pointer; may be NULL for
     * a 0-byte buffer). NULL entry: accel_buffer_native_pointer gives the
     * buffer_host_ptr address where there is one, else
     * ACCEL_ERROR_UNSUPPORTED. */
    void *(*buffer_native_ptr)(void *ctx, accel_be_buffer *buf);
    /* The queue's native stream (CUDA: its cudaStream_t); NULL entry or a
     * NULL result: the queue has none (accel_queue_native_stream gives NULL). */
    void *(*queue_native)(void *ctx, accel_be_queue *q);
    /* A buffer over `bytes` of memory at native_ptr that someone else
     * allocated (CUDA: device memory usable from `device`; host-memory
     * backends: a host address, aligned for the dtypes used). buffer_free of
     * such a buffer frees only the plugin's record, never the memory (the
     * core then calls the owner's release callback). NULL entry:
     * accel_buffer_wrap returns ACCEL_ERROR_UNSUPPORTED. */
    int32_t (*buffer_wrap)(void *ctx, uint32_t device, void *native_ptr, size_t bytes,
                           accel_be_buffer **out);
    /* Optional (user kernels; added in ABI 1 in what were reserved[4..6]).
     * All three or none. NULL: user kernels on this backend's devices are
     * ACCEL_ERROR_UNSUPPORTED and the core falls back where it may.
     * program_identity: the compiler and target as one line ("nvrtc 13.0
     * sm_90"), part of the disk-cache key; "" disables caching.
     * program_build: compile d->source (or load d->binary) for device; on
     * ACCEL_ERROR_COMPILE the log holds the compiler's messages. *out_binary
     * (may be NULL: not cacheable) stays valid until program_release.
     * op_supported/op_execute take ACCEL_OP_KERNEL descs of built programs. */
    int32_t (*program_identity)(void *ctx, uint32_t device, uint32_t language, char *out,
                                size_t size);
    int32_t (*program_build)(void *ctx, uint32_t device, const accel_program_desc *d,
                             accel_be_program **out, const void **out_binary,
                             size_t *out_binary_size);
    void (*program_release)(void *ctx, accel_be_program *p);

    /* Optional (added in ABI 1 in what were reserved[7..8]). Page-lock
     * `bytes` (> 0) of caller-allocated host memory at ptr, of any
     * alignment, for fast transfers (cudaHostRegister), and undo it. The core
     * keeps the list of ranges, refuses overlaps and calls unregister only
     * for a range register accepted. NULL entries: the core records the range
     * and the memory stays plain (accel_host_register still succeeds). */
    int32_t (*host_register)(void *ctx, void *ptr, size_t bytes);
    int32_t (*host_unregister)(void *ctx, void *ptr);

    /* Optional, all four or none (added in ABI 1 in what were reserved[9..12]):
     * collectives between processes run by the backend itself (NCCL), for
     * accel/collective.h. comm_id: a new unique id of id_bytes
     * (ACCEL_DEVICE_COMM_ID_BYTES) bytes on one rank, shared by the caller
     * with the others; ACCEL_ERROR_UNAVAILABLE with a message when the
     * library is missing (out_id NULL: only that answer, no id).
     * comm_create: join rank `rank` of nranks on device; collective over the
     * ranks. comm_execute: enqueue d on q (q's device is the
     * communicator's); errors of the library come back as
     * ACCEL_ERROR_COMMUNICATION with its message. NULL: the core returns
     * ACCEL_ERROR_UNSUPPORTED and libaccel_mpi stages through host memory. */
    int32_t (*comm_id)(void *ctx, uint32_t device, void *out_id, size_t id_bytes);
    int32_t (*comm_create)(void *ctx, uint32_t device, const void *id, size_t id_bytes,
                           int32_t nranks, int32_t rank, accel_be_comm **out);
    void (*comm_destroy)(void *ctx, accel_be_comm *comm);
    int32_t (*comm_execute)(void *ctx, accel_be_queue *q, accel_be_comm *comm,
                            const accel_be_collective *d);

    /* Optional (added after the ABI 1 table's reserved slots ran out: a plugin built against an
     * older header has a smaller table, and the loader reads these as NULL). Graphs: build a native
     * graph of n nodes for device (nodes and their fields may be freed on return), launch it on q
     * (asynchronous, ordered like one op; a failure inside is sticky on q, named after the failing
     * op), replace node `index` by an updated node of the same kind (new buffers, scalars or host
     * pointers; a launch already enqueued keeps the old values), and destroy it (the core calls
     * destroy only once no launch is pending). instantiate may refuse a list it cannot run
     * (ACCEL_ERROR_UNSUPPORTED); update may refuse a change (the core then re-instantiates). NULL
     * entries, or a refusal: the core replays the list op by op. */
    int32_t (*graph_instantiate)(void *ctx, uint32_t device, const accel_graph_node_desc *nodes,
                                 size_t n, accel_be_graph **out);
    int32_t (*graph_launch)(void *ctx, accel_be_queue *q, accel_be_graph *graph);
    int32_t (*graph_update)(void *ctx, accel_be_graph *graph, size_t index,
                            const accel_graph_node_desc *node);
    void (*graph_destroy)(void *ctx, accel_be_graph *graph);

    void *reserved[8];
} accel_backend;

typedef const accel_backend *(*accel_backend_entry_fn)(void);

#if defined(_WIN32)
#define ACCEL_PLUGIN_EXPORT __declspec(dllexport)
#else
#define ACCEL_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_BACKEND_H */
