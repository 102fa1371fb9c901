/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/verify.h — cross-checking and placement: the tolerance model that says
 * when two backends give "the same answer", verify mode (every op on a device
 * is also run on a reference device and compared), the fallback policy (ops a
 * backend lacks run on another device) and the placement report (which device
 * ran what, how many fallbacks and why).
 *
 * Everything here can also be set in plugins.ini ([runtime] verify,
 * verify_sample, verify_repro_dir, verify_guard, on_mismatch, on_error,
 * fallback, strict, selftest, report) or by environment (ACCEL_VERIFY=cpu,
 * ACCEL_REPORT=1); the calls below override the file for one runtime.
 *
 * Tolerance model (accel_tolerance_compare; eps is the dtype's machine epsilon:
 * 2^-23 f32, 2^-52 f64, 2^-10 f16, 2^-7 bf16; u = eps/2):
 * - fill, copy, transpose, reduce_max/min, random_uniform: bit-identical
 *   values (NaN payloads aside);
 * - add, sub, mul, div, sqrt, neg, abs, relu, max, min: within 1 ulp of the
 *   reference (each backend is correctly rounded, so they agree);
 * - exp, log, tanh, sin, cos, sigmoid: within 4 ulp (glibc libm: exp/log
 *   <= 2 ulp, tanh <= 3 ulp as measured; CUDA Math API: expf 2, logf 1,
 *   tanhf 2, sinf/cosf 2 ulp, f64 1-2 ulp, sigmoid f64 about 3; the
 *   difference of two such results is bounded by the sum);
 * - axpby: within 4 ulp of |alpha*x| + |beta*y| (the terms, not the result:
 *   two products and a sum each rounded once, or one of them fused, leave
 *   each backend within 2u(|alpha*x| + |beta*y|) of the exact value, and a
 *   cancelling sum such as a*x - fl(a*x), 0 unfused and the rounding error
 *   fused, must not alarm); scale: within 1 ulp of |alpha*x|;
 * - random_normal: within 4 ulp + 64*eps*stddev (Box-Muller, f32 in single
 *   precision: both backends take the same rounded angle fl(2pi*u2) and
 *   differ by their log, sqrt and sin/cos, at most about 58 eps*stddev);
 * - sum: |got - ref| <= c*n*eps*sum|x_i|, dot: <= c*n*eps*sum|x_i*y_i|, with
 *   c = 2 and n the length: each result is within gamma_n*sum|.| of the exact
 *   one, gamma_n = n*u/(1 - n*u) (Higham, "Accuracy and Stability of
 *   Numerical Algorithms", 2nd ed. 2002, eqs. (3.4)-(3.5) and §4.2), and the
 *   two results' difference within twice that;
 * - GEMM: |got_ij - ref_ij| <= c*(k+2)*eps*(|alpha|*(|A||B|)_ij + |beta|*|C_ij|)
 *   with c = 2 (Higham §3.5: |C - fl(AB)| <= gamma_k |A||B|; +2 for alpha,
 *   beta and the final rounding); with ACCEL_OP_FLAG_ALLOW_TF32, eps = 2^-10;
 *   elements of C between rows (ldc > n) or batches must not change;
 * - cholesky, solve, slogdet, qr, eigh, svd (kind LINALG): backward error
 *   per matrix, not element by element (the factors are not unique): with
 *   Frobenius norms, p = max(m, n) and c the row's TOL_N,
 *   ||A - L L^T|| <= c (n+1) eps ||L||^2 (Higham Thm 10.3);
 *   ||A X - B|| <= c n eps ||A|| ||X|| (Higham Thm 9.4);
 *   ||P A - L U|| <= c n eps ||L|| ||U|| and sign, log|det|, det consistent
 *   with the factors (Higham Thm 9.3); ||A - Q R|| <= c p eps ||A||,
 *   ||Q^T Q - I|| <= c p eps sqrt(k) (Higham Thm 19.4); ||A V - V diag(w)||
 *   <= c n eps ||A||, ||V^T V - I|| <= c n eps sqrt(n); ||A - U S V^T|| <=
 *   c p eps ||A|| with U, V orthonormal to c p eps sqrt(width); eigenvalues
 *   and singular values within c p eps ||A|| of the reference's (Weyl;
 *   LAPACK Users' Guide 3rd ed. ch. 4's p(n) eps bounds with p(n) = c n).
 *   Complex dtypes: the same bounds with ^H for ^T, |.| the modulus, and
 *   slogdet's complex sign and det within c n eps (times prod |u_ii| for
 *   det) of the factors'. docs/checking.md has the table;
 * - fft, rfft, irfft: per transformed line in the L2 norm, ||got - ref|| <=
 *   c*u*(log2 n + p)*||ref||, c = 4, p the largest prime factor of n when in
 *   7..61 (else 0): the Cooley-Tukey bound (Higham, Theorem 24.2; Schatzman,
 *   SIAM J. Sci. Comput. 17(5), 1996) plus a prime radix done as a direct
 *   DFT (kissfft's generic butterfly; larger primes go through Bluestein's
 *   algorithm, O(u log n) again); a line whose reference is not finite
 *   must not be either;
 * - cumsum (kind SCAN): element j of a line within 1 ulp of the reference +
 *   c*(j+1)*u64*sum_{t<=j}|x_t|, c = 2, u64 = 2^-53: both results are float64
 *   running sums (each in its backend's order, within gamma_{j+1} of the exact
 *   prefix: Higham §4.2) rounded once to the dtype, which adds at most one
 *   ulp between them; integer dtypes bit for bit (two's complement sums);
 * - everywhere: NaN must meet NaN, and +-Inf the same +-Inf; a finite result
 *   against a non-finite one is a mismatch.
 */
#ifndef ACCEL_VERIFY_H
#define ACCEL_VERIFY_H

#include "accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- names */

/* accel_op_name and accel_op_info, the op table's names and rows: accel.h. */

/** Machine epsilon of dtype (2^-23 for f32); 0 for an unknown dtype. */
ACCEL_API double accel_dtype_epsilon(accel_dtype dtype);

/* ------------------------------------------------------------ tolerance */

/* The outcome of comparing one op's output with its reference. Indices are
 * elements of the output operand (the last one), from its start. */
typedef struct accel_compare_result {
    uint32_t struct_size;
    size_t checked;                     /* output elements compared */
    size_t bad;                         /* elements outside the bound */
    size_t first_bad;                   /* index of the first bad element; SIZE_MAX when none */
    double got, expected, error, bound; /* at first_bad (error may be Inf) */
    double worst_ratio;                 /* max over elements of error/bound (0 when all exact) */
    const char *rule;                   /* the bound applied, e.g. "1 ulp", "c*n*eps*sum|x|" */
    /* The element with the largest error/bound ratio, bad or not (an error
     * that is infinite or against a bound of 0 counts as an infinite ratio;
     * the first of equals wins), with its error and bound: what to report
     * as "the largest difference". SIZE_MAX, 0 and 0 when every element
     * matches exactly. */
    size_t worst_index;
    double worst_error, worst_bound;
} accel_compare_result;

/* One op as the tolerance model sees it: what was computed, without buffers.
 * Fill it with accel_tolerance_op_init, then set what the op has. Operands are
 * in the order of the op table (accel_op_info(op)->num_operands of them; the
 * output last): e.g. add: a, b, out; axpby: x, y; sum: x, out; GEMM: A, B, C. */
typedef struct accel_tolerance_op {
    uint32_t struct_size;
    accel_op_code op;
    accel_dtype dtype;
    uint32_t num_operands;
    size_t counts[4];  /* elements of each operand's host copy */
    double scalars[4]; /* AXPBY, GEMM: alpha, beta; SCALE: alpha; RANDOM_NORMAL:
                          mean, stddev */
    bool allow_tf32;   /* GEMM f32 ran on TF32 tensor cores (eps = 2^-10) */
    /* GEMM, row-major: op(A) is m x k, op(B) k x n, C m x n, leading
     * dimensions (elements between rows as stored) lda, ldb, ldc; batch_count
     * matrices stride_* elements apart. TRANSPOSE: x is m x n with leading
     * dimension lda, out = x^T is n x m with leading dimension ldc. */
    accel_transpose trans_a, trans_b;
    size_t m, n, k, lda, ldb, ldc;
    size_t batch_count, stride_a, stride_b, stride_c;
    /* Added with the LINALG ops: accel_op_desc's flags
     * (ACCEL_OP_FLAG_LINALG_VECTORS: eigh and svd computed vectors). */
    uint32_t flags;
} accel_tolerance_op;

/** Zero *t, set its struct_size and batch_count = 1. */
ACCEL_API void accel_tolerance_op_init(accel_tolerance_op *t);

/** Compare the output `got` of op with the reference output `expected` under
 *  the tolerance model above (the rule is the op table's, accel_op_info).
 *  inputs[i] points at a host copy of operand i's counts[i] elements as they
 *  were before the op. Which are needed: sum and dot, their inputs (NULL: an
 *  infinite bound); GEMM, A and B for the bound and C's old contents for the
 *  elements between rows and batches, which must keep them; transpose, the
 *  output's old contents for the same reason; axpby and scale, x (and axpby's
 *  old y) for the terms' magnitude |alpha*x| + |beta*y| (NULL: the
 *  reference's magnitude is used). inputs itself may be NULL. got and
 *  expected hold the output's counts[num_operands-1] elements. out may be
 *  NULL; a smaller out->struct_size is honoured.
 *  The counts are checked against the shapes before anything is read: an
 *  elementwise input whose count differs from the output's, a reduction
 *  output other than 1 element, a dot whose inputs differ, a GEMM or
 *  transpose matrix (any batch) reaching past its operand's count or a
 *  leading dimension below its row length are ACCEL_ERROR_SHAPE_MISMATCH or
 *  ACCEL_ERROR_INVALID_ARGUMENT with the reason in accel_last_error().
 *  Returns ACCEL_SUCCESS when every element is within its bound,
 *  ACCEL_ERROR_MISMATCH when one is not, ACCEL_ERROR_INVALID_ARGUMENT for NULL
 *  pointers, a struct_size too small, an unknown op or dtype, or an operand
 *  count other than the op's. Thread-safe; allocates nothing. */
ACCEL_API accel_status accel_tolerance_compare(const accel_tolerance_op *op,
                                               const void *const inputs[4], const void *got,
                                               const void *expected, accel_compare_result *out);

/* ----------------------------------------------------------- verify mode */

typedef struct accel_verify_options {
    uint32_t struct_size;
    /* Reference device name ("cpu"); NULL or "" turns verify mode off. */
    const char *reference;
    /* Fraction of ops checked, 0..1 (1: every op). Sampling is deterministic
     * for a given seed. */
    double sample;
    uint64_t seed;
    /* true: a mismatch becomes the queue's sticky ACCEL_ERROR_MISMATCH,
     * returned by its next accel_queue_finish or blocking transfer
     * (on_mismatch = fail); false: logged as a warning (on_mismatch = warn). */
    bool fail_on_mismatch;
    /* Also check ops that run on the reference device itself (for testing the
     * checker; the reference is then run at the queue's next finish). */
    bool check_reference_device;
    /* Folder for one repro file per mismatch (accel replay FILE); NULL: none.
     * Made when missing. Each file, DIR/accel-repro-PID-N-OP.npz, is a NumPy
     * .npz archive (uncompressed .npy members, as np.savez writes them;
     * np.load opens it) of 1-D arrays in the op's dtype (bf16 as f32, which
     * holds it exactly):
     *   input0, input1, input2  the operands before the output, as the op
     *                           read them (as many as the op has)
     *   output_before           the output operand's range before the op,
     *                           with the guard elements on each side
     *                           (guard_before + count + guard_after)
     *   output_device           the same window after the op on the device
     *   output_reference        the window as the reference computed it
     *                           (guards unchanged)
     *   scalars                 the op's four scalars (f64, bit for bit)
     *   op.json                 the op: format "accel-repro", version 2,
     *                           device, reference, op, op_code, dtype,
     *                           dtype_code, flags, scalars (decimal; "nan",
     *                           "inf", "-inf"), seed, rng_offset and
     *                           verify_seed (decimal strings), trans_a,
     *                           trans_b, m, n, k, lda, ldb, ldc, batch_count,
     *                           stride_a/b/c, num_operands, offsets and
     *                           counts (elements, per operand, as in the
     *                           device's buffers), guard_before,
     *                           guard_after, mismatch (the logged message).
     * Members of 4 GiB or more are written as zip64 (np.load and accel
     * replay read it). No file is written for user kernels, nor for dtypes
     * other than f16, bf16, f32 and f64; a warning says so. */
    const char *repro_dir;
    /* Elements next to each output range (each side, within its buffer) that
     * must be unchanged by the op; catches writes out of range. 0: none.
     * Other queues must not write there while a checked op runs. */
    uint32_t guard_elements;
} accel_verify_options;

/** Zero *o, set struct_size, sample = 1, guard_elements = 4. */
ACCEL_API void accel_verify_options_init(accel_verify_options *o);

/** Set rt's verify mode (replaces what plugins.ini and ACCEL_VERIFY said). Ops
 *  already enqueued keep the mode they were enqueued with. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT (sample outside
 *  0..1, struct_size), ACCEL_ERROR_NOT_FOUND (no such reference device).
 *  Call it while no other thread enqueues on rt. */
ACCEL_API accel_status accel_verify_configure(accel_runtime *rt, const accel_verify_options *o);

typedef struct accel_verify_stats {
    uint32_t struct_size;
    uint64_t checked;    /* ops compared with the reference */
    uint64_t mismatches; /* of which outside the tolerance */
    uint64_t skipped;    /* ops not checked: sampling, reference lacks the op, failed */
    uint64_t repro_files;
} accel_verify_stats;

/** Set out->struct_size = sizeof *out first (the versioned-struct rule of
 *  accel.h: at most that many bytes are written). Counters since the
 *  runtime opened. Ops are counted once their check ran
 *  (finish the queues first). Errors: ACCEL_ERROR_INVALID_HANDLE,
 *  ACCEL_ERROR_INVALID_ARGUMENT. Thread-safe. */
ACCEL_API accel_status accel_verify_stats_get(const accel_runtime *rt, accel_verify_stats *out);

/* ---------------------------------------------------------- fallback */

/** Where ops run that a device's backend does not support (or, with on_oom,
 *  that fail at enqueue with ACCEL_ERROR_OUT_OF_DEVICE_MEMORY): device name,
 *  or NULL/"" for no fallback (such ops return their error). Data moves to
 *  the fallback device and back through host memory, in the queue's order.
 *  Default: [runtime] fallback (default "cpu"), none when strict = true.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_NOT_FOUND. */
ACCEL_API accel_status accel_fallback_configure(accel_runtime *rt, const char *device, bool on_oom);

/* ------------------------------------------------------------- report */

/* One line of the placement report: one op kind on one device. */
typedef struct accel_report_row {
    uint32_t struct_size;
    accel_op_code op;
    const char *device;          /* the device asked for */
    uint64_t ops;                /* ops enqueued for it (counted while reporting is on) */
    uint64_t fallbacks;          /* of which run on the fallback device */
    const char *fallback_device; /* "" when none */
    uint64_t bytes_moved;        /* bytes moved between devices for those fallbacks */
    const char *reason;          /* why the first fallback happened; "" when none */
    /* Appended (a caller whose struct_size ends before them gets the rows
     * without these fields): a row with kernel != "" is one
     * fused kernel of a graph (accel/graph.h) on `device`: op is
     * ACCEL_OP_KERNEL, ops its launches (also counted in the KERNEL row),
     * fused_ops the recorded ops it runs ("nodes 0-1 (accel_mul,
     * accel_add)"), fused_count how many. "" and 0 in the other rows. */
    const char *kernel;    /* the fused kernel's name ("fused_mul_add") */
    const char *fused_ops; /* its recorded nodes and ops */
    uint32_t fused_count;  /* recorded ops it runs */
} accel_report_row;

/** Count every op per kind and device from now on (fallbacks are always
 *  counted). On by [runtime] report = true or ACCEL_REPORT=1, which also
 *  print the report to the log's stream (stderr) at accel_runtime_close. */
ACCEL_API accel_status accel_report_enable(accel_runtime *rt, bool on);

/** Copy up to cap rows (op kinds with any count, in op-code then device
 *  order; then the fused kernels of graphs launched while counting, per
 *  kernel, op list and device, in their first launch's order) into rows; set rows[0].struct_size =
 * sizeof(accel_report_row) first when cap > 0: it is every element's size, the array's stride (the
 *  versioned-struct rule of accel.h); *out_count gets the number of rows there are (may
 *  exceed cap). Strings live as long as rt. Thread-safe. */
ACCEL_API accel_status accel_report(const accel_runtime *rt, accel_report_row *rows, size_t cap,
                                    size_t *out_count);

/** The report as a text table into buf (always NUL-terminated when cap > 0);
 *  *out_len (may be NULL) gets the full length. */
ACCEL_API accel_status accel_report_format(const accel_runtime *rt, char *buf, size_t cap,
                                           size_t *out_len);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_VERIFY_H */
