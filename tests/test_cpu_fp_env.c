/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_cpu_fp_env.c — the CPU backend computes in the IEEE default
 * floating-point environment (round to nearest, subnormals neither flushed
 * nor read as zero) whatever the thread that created its queue had set: a
 * thread with flush-to-zero and denormals-are-zero on creates the queue and
 * enqueues the work. References are exact powers of two (0.5 * 2^-126 =
 * 2^-127, a subnormal), written as hexadecimal constants. */
#include <criterion/criterion.h>
#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#define FTZ_DAZ 0x8040u /* MXCSR bits 15 (flush to zero) and 6 (denormals are zero) */
static void set_ftz_daz(void)
{
    _mm_setcsr(_mm_getcsr() | FTZ_DAZ);
}
static bool ftz_daz_on(void)
{
    return (_mm_getcsr() & FTZ_DAZ) == FTZ_DAZ;
}
#elif defined(__aarch64__)
static void set_ftz_daz(void)
{
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= (uint64_t)1 << 24; /* FZ */
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
}
static bool ftz_daz_on(void)
{
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr >> 24) & 1;
}
#else
#error "test_cpu_fp_env: set FTZ for this architecture"
#endif

#define BIG (3 * 16384 + 5) /* more than one block: the OpenMP team runs it */

typedef struct result {
    float scaled, product, kept, gemm, big_first, big_last;
    bool caller_still_ftz, flushed_here;
    accel_status st;
    char err[512];
} result;

static void *ftz_thread(void *arg)
{
    result *r = arg;
    set_ftz_daz();
    volatile float tiny = 0x1p-126f, half = 0.5f;
    r->flushed_here = tiny * half == 0.0f; /* FTZ really is on in this thread */
    accel_runtime *rt = NULL;
    accel_device *dev;
    accel_queue *q;
    accel_buffer *b, *big;
    r->st = tu_open_ini(tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                               "threads = 2\n",
                               TU_CPU_PLUGIN),
                        &rt, NULL);
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_device_get_by_name(rt, "cpu", &dev);
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_queue_create(dev, &q);
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_buffer_create(dev, 16 * sizeof(float), &b);
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_buffer_create(dev, 2 * BIG * sizeof(float), &big);
    float in[16] = {0x1p-126f, 0.5f, 0x1p-140f, 0.0f, 0.5f};
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_queue_write_blocking(q, b, 0, in, sizeof in);
    /* out[5] = 0.5 * 2^-126; out[6] = x[0] * x[1]; out[7] = 2^-140 + 0 (DAZ would read 0). */
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_scale(q, ACCEL_F32, 0.5, accel_slice_of(b, 0, 1), accel_slice_of(b, 5, 1));
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_mul(q, ACCEL_F32, accel_slice_of(b, 0, 1), accel_slice_of(b, 1, 1),
                          accel_slice_of(b, 6, 1));
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_add(q, ACCEL_F32, accel_slice_of(b, 2, 1), accel_slice_of(b, 3, 1),
                          accel_slice_of(b, 7, 1));
    /* C(1x1) = A(1x1) * B(1x1) = 2^-126 * 0.5 through OpenBLAS. */
    if (r->st == ACCEL_SUCCESS) {
        accel_gemm_desc g;
        accel_gemm_desc_init(&g);
        g.m = g.n = g.k = 1;
        g.a = b, g.a_offset = 0, g.lda = 1;
        g.b = b, g.b_offset = 4, g.ldb = 1;
        g.c = b, g.c_offset = 8, g.ldc = 1;
        r->st = accel_gemm(q, &g);
    }
    /* Many elements, split over the OpenMP team: big[i] = 0.5 * 2^-126. */
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_fill(q, ACCEL_F32, 0x1p-126, accel_slice_of(big, 0, BIG));
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_scale(q, ACCEL_F32, 0.5, accel_slice_of(big, 0, BIG),
                            accel_slice_of(big, BIG, BIG));
    float out[16], big_out[BIG];
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_queue_read_blocking(q, b, 0, out, sizeof out);
    if (r->st == ACCEL_SUCCESS)
        r->st = accel_queue_read_blocking(q, big, BIG * sizeof(float), big_out, sizeof big_out);
    if (r->st == ACCEL_SUCCESS) {
        r->scaled = out[5];
        r->product = out[6];
        r->kept = out[7];
        r->gemm = out[8];
        r->big_first = big_out[0];
        r->big_last = big_out[BIG - 1];
    } else {
        snprintf(r->err, sizeof r->err, "%s", accel_last_error());
    }
    r->caller_still_ftz = ftz_daz_on();
    accel_runtime_close(rt);
    return NULL;
}

Test(cpu_fp_env, queue_made_by_an_ftz_daz_thread_keeps_subnormals)
{
    result r;
    memset(&r, 0, sizeof r);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, ftz_thread, &r), 0);
    pthread_join(t, NULL);
    cr_assert(r.st == ACCEL_SUCCESS, "%s: %s", accel_status_name(r.st), r.err);
    cr_assert(r.flushed_here, "the test thread's FTZ did not take effect");
    const float want = 0x1p-127f; /* 0.5 * 1.17549435e-38 = 5.877472e-39, subnormal */
    cr_assert(r.scaled == want, "accel_scale: 0.5 * 2^-126 gave %a, expected %a", (double)r.scaled,
              (double)want);
    cr_assert(r.product == want, "accel_mul: gave %a, expected %a", (double)r.product,
              (double)want);
    cr_assert(r.kept == 0x1p-140f, "accel_add: the subnormal input 2^-140 came out %a (DAZ?)",
              (double)r.kept);
    cr_assert(r.gemm == want, "accel_gemm (OpenBLAS): gave %a, expected %a", (double)r.gemm,
              (double)want);
    cr_assert(r.big_first == want && r.big_last == want,
              "accel_scale over the OpenMP team: %a ... %a, expected %a", (double)r.big_first,
              (double)r.big_last, (double)want);
    cr_assert(r.caller_still_ftz, "accel changed the calling thread's FP environment");
}

/* The calling thread's exception flags and rounding mode come back as they
 * were after ops that ran on it (small ops run inline on an idle queue,
 * backends/cpu/queue.c): with the default environment (the quick path of
 * accel_cpu__fp_enter), and with FE_UPWARD set, under which the op must
 * still round to nearest. Host devices only (docs/api.md: the CPU
 * backend's workers compute in the default environment): a GPU's ops run
 * on the GPU, and the host code that launches them (its
 * driver's included) may leave FE_INEXACT raised in the calling thread, as
 * cuda:0 did on the H100 machine (2026-12-07). */
static void flags_and_rounding(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    if (tu_device_is_gpu(dev)) {
        cr_log_info("%s: a GPU, not checked (the promise is the CPU backend's)",
                    accel_device_name(dev));
        return;
    }
    accel_buffer *b;
    tu_ok(accel_buffer_create(dev, 16 * sizeof(float), &b));
    float in[16] = {1e30f, 1.0f, 0x1p-30f, 0.0f};
    tu_ok(accel_queue_write_blocking(q, b, 0, in, sizeof in));
    for (int pre = 0; pre < 2; pre++) {
        feclearexcept(FE_ALL_EXCEPT);
        if (pre)
            feraiseexcept(FE_UNDERFLOW);
        /* 1e30 * 1e30 overflows (FE_OVERFLOW, FE_INEXACT) and 1 / 0 divides
         * by zero inside the ops */
        tu_ok(accel_mul(q, ACCEL_F32, accel_slice_of(b, 0, 1), accel_slice_of(b, 0, 1),
                        accel_slice_of(b, 4, 1)));
        tu_ok(accel_div(q, ACCEL_F32, accel_slice_of(b, 1, 1), accel_slice_of(b, 3, 1),
                        accel_slice_of(b, 6, 1)));
        tu_ok(accel_queue_finish(q));
        int got = fetestexcept(FE_ALL_EXCEPT);
        cr_assert_eq(got, pre ? FE_UNDERFLOW : 0, "the caller's flags were 0x%x, now 0x%x",
                     pre ? FE_UNDERFLOW : 0, got);
    }
    feclearexcept(FE_ALL_EXCEPT);
    cr_assert_eq(fesetround(FE_UPWARD), 0);
    tu_ok(accel_add(q, ACCEL_F32, accel_slice_of(b, 1, 1), accel_slice_of(b, 2, 1),
                    accel_slice_of(b, 5, 1)));
    float out[16];
    tu_ok(accel_queue_read_blocking(q, b, 0, out, sizeof out));
    int mode = fegetround();
    fesetround(FE_TONEAREST);
    cr_assert_eq(mode, FE_UPWARD, "the caller's rounding mode changed");
    cr_assert(out[4] == INFINITY && out[6] == INFINITY, "1e30 * 1e30: %a, 1 / 0: %a",
              (double)out[4], (double)out[6]);
    cr_assert(out[5] == 1.0f, "1 + 2^-30 rounded upward (%a), not to nearest", (double)out[5]);
    accel_buffer_release(b);
}

Test(cpu_fp_env, caller_flags_and_rounding_come_back)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, flags_and_rounding, NULL);
    accel_runtime_close(rt);
}
