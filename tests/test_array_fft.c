/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_fft.c — accel_array_fft, _ifft, _rfft, _irfft, _fftn, _ifftn,
 * _fftfreq, _rfftfreq and the ACCEL_OP_FFT ops under them: complex64 and complex128,
 * power-of-two, prime and odd composite lengths, every axis of a 3-D
 * array (batched lines, lines k apart), the three norms, n shorter and
 * longer than the axis, reversed and transposed views, against a plain
 * O(n^2) DFT of the test's own in long double (twiddle j*t mod n from a
 * table of exp(2 pi i k / n)), each line within the bound of verify mode's FFT rule
 * (4*u*(log2 n + p), p the largest prime factor when in 7..61, relative
 * L2; larger primes go through Bluestein);
 * the frequencies exactly; every device of the runtime; bad input with out
 * untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

enum { FFT, IFFT, RFFT, IRFFT };
static const char *const kind_names[] = {"fft", "ifft", "rfft", "irfft"};

typedef accel_status (*fft_fn)(accel_queue *, const accel_array *, int64_t, int32_t, accel_fft_norm,
                               const accel_array *);
static const fft_fn fns[] = {accel_array_fft, accel_array_ifft, accel_array_rfft,
                             accel_array_irfft};

/* The plain DFT of n points in (re, im) with sign -1 (forward) or +1,
 * into (ore, oim), scaled. */
static void dft(const long double *re, const long double *im, int64_t n, int sign, long double s,
                long double *ore, long double *oim)
{
    const long double two_pi = 6.283185307179586476925286766559L;
    long double *c = malloc((size_t)n * sizeof *c), *sn = malloc((size_t)n * sizeof *sn);
    for (int64_t k = 0; k < n; k++) { /* exp(sign 2 pi i k / n) */
        c[k] = cosl(two_pi * (long double)k / (long double)n);
        sn[k] = sign * sinl(two_pi * (long double)k / (long double)n);
    }
    for (int64_t j = 0; j < n; j++) {
        long double ar = 0, ai = 0;
        for (int64_t t = 0; t < n; t++) {
            int64_t k = (j * t) % n;
            ar += re[t] * c[k] - im[t] * sn[k];
            ai += re[t] * sn[k] + im[t] * c[k];
        }
        ore[j] = ar * s, oim[j] = ai * s;
    }
    free(c), free(sn);
}

static size_t largest_prime(int64_t n)
{
    int64_t best = 1;
    for (int64_t f = 2; f * f <= n; f++)
        while (n % f == 0)
            best = f, n /= f;
    return (size_t)(n > 1 ? n : best);
}

static long double norm_scale(int kind, accel_fft_norm norm, int64_t n)
{
    bool inverse = kind == IFFT || kind == IRFFT;
    if (norm == ACCEL_FFT_NORM_ORTHO)
        return 1.0L / sqrtl((long double)n);
    bool scaled = norm == ACCEL_FFT_NORM_BACKWARD ? inverse : !inverse;
    return scaled ? 1.0L / (long double)n : 1.0L;
}

typedef struct fcase {
    accel_dtype rdt; /* f32 or f64: the precision */
    int kind;
    int64_t shape[3]; /* x's */
    int axis;         /* 0..2 */
    int64_t n;        /* the call's n (0: None) */
    accel_fft_norm norm;
    bool flip_x;     /* x reversed along axis 0 (staged) */
    bool transp_out; /* out a transposed view of its buffer (staged back) */
} fcase;

/* Element idx (3 coordinates) of a row-major shape. */
static int64_t at3(const int64_t *shape, const int64_t *idx)
{
    return (idx[0] * shape[1] + idx[1]) * shape[2] + idx[2];
}

/* Check one line of out against the DFT of x's line; returns the worst
 * error/bound ratio. */
static double check_line(const fcase *c, const double *hx, const int64_t *xs, const double *ho,
                         const int64_t *os, int64_t nn, int64_t idx0[3])
{
    bool cx = c->kind != RFFT, co = c->kind != IRFFT;
    int64_t m = xs[c->axis], lx = c->kind == IRFFT ? nn / 2 + 1 : nn;
    int64_t lo = c->kind == RFFT ? nn / 2 + 1 : nn;
    long double *re = calloc((size_t)nn, sizeof *re), *im = calloc((size_t)nn, sizeof *im);
    long double *ore = malloc((size_t)nn * sizeof *ore), *oim = malloc((size_t)nn * sizeof *oim);
    int64_t idx[3] = {idx0[0], idx0[1], idx0[2]};
    for (int64_t t = 0; t < lx && t < m; t++) {
        idx[c->axis] = t;
        int64_t e = at3(xs, idx);
        re[t] = cx ? hx[2 * e] : hx[e];
        im[t] = cx ? hx[2 * e + 1] : 0;
    }
    if (c->kind == IRFFT) { /* Hermitian extension, DC and Nyquist real */
        im[0] = 0;
        if (nn % 2 == 0)
            im[nn / 2] = 0;
        for (int64_t t = nn / 2 + 1; t < nn; t++)
            re[t] = re[nn - t], im[t] = -im[nn - t];
    }
    int sign = c->kind == IFFT || c->kind == IRFFT ? 1 : -1;
    dft(re, im, nn, sign, norm_scale(c->kind, c->norm, nn), ore, oim);
    long double err = 0, nrm = 0;
    for (int64_t j = 0; j < lo; j++) {
        idx[c->axis] = j;
        int64_t e = at3(os, idx);
        long double gr = co ? ho[2 * e] : ho[e], gi = co ? ho[2 * e + 1] : 0;
        long double wi = co ? oim[j] : 0;
        err += (gr - ore[j]) * (gr - ore[j]) + (gi - wi) * (gi - wi);
        nrm += ore[j] * ore[j] + wi * wi;
    }
    size_t p = largest_prime(nn);
    double u = c->rdt == ACCEL_F64 ? ldexp(1, -53) : ldexp(1, -24);
    double bound = 4 * u * (log2((double)(nn > 1 ? nn : 2)) + (p > 5 && p <= 61 ? (double)p : 0)) *
                   sqrt((double)nrm);
    double ratio = (double)sqrtl(err) / (bound > 0 ? bound : 1e-300);
    cr_assert(ratio <= 1.0, "%s %s n=%lld axis %d line (%lld,%lld,%lld): L2 error %.3g > %.3g",
              kind_names[c->kind], accel_dtype_name(c->rdt), (long long)nn, c->axis,
              (long long)idx0[0], (long long)idx0[1], (long long)idx0[2], (double)sqrtl(err),
              bound);
    free(re), free(im), free(ore), free(oim);
    return ratio;
}

/* Host values as doubles of dt (f32 or f64), count of them. */
static void to_host(const void *raw, accel_dtype dt, size_t count, double *out)
{
    for (size_t i = 0; i < count; i++)
        out[i] = get(raw, dt, i).f;
}

static double run_fft(env *e, tu_rng *r, const fcase *c)
{
    accel_dtype rdt = c->rdt, cdt = rdt == ACCEL_F64 ? ACCEL_C128 : ACCEL_C64;
    bool cx = c->kind != RFFT, co = c->kind != IRFFT;
    int64_t m = c->shape[c->axis];
    int64_t nn = c->n ? c->n : c->kind == IRFFT ? 2 * (m - 1) : m;
    int64_t xs[3] = {c->shape[0], c->shape[1], c->shape[2]}, os[3] = {xs[0], xs[1], xs[2]};
    os[c->axis] = c->kind == RFFT ? nn / 2 + 1 : nn;
    size_t nx = (size_t)(xs[0] * xs[1] * xs[2]) * (cx ? 2 : 1);
    size_t no = (size_t)(os[0] * os[1] * os[2]) * (co ? 2 : 1), es = accel_dtype_size(rdt);
    unsigned char *raw = malloc(nx * es), *rawo = malloc(no * es + 1);
    for (size_t i = 0; i < nx; i++)
        put(raw, rdt, i, (val){.f = tu_rng_range(r, -1.0, 1.0)});
    accel_buffer *bx = upload(e, raw, nx * es), *bo = upload(e, NULL, no * es);
    accel_array x, out;
    tu_ok(accel_array_init(&x, bx, cx ? cdt : rdt, 3, xs));
    if (c->flip_x) /* the logical x is then the buffer reversed along axis 0 */
        tu_ok(accel_array_flip(&x, 1u, &x));
    if (c->transp_out) {
        const int64_t ts[3] = {os[2], os[1], os[0]};
        const int32_t perm[3] = {2, 1, 0};
        accel_array base;
        tu_ok(accel_array_init(&base, bo, co ? cdt : rdt, 3, ts));
        tu_ok(accel_array_permute_dims(&base, perm, &out));
    } else {
        tu_ok(accel_array_init(&out, bo, co ? cdt : rdt, 3, os));
    }
    tu_ok(fns[c->kind](e->q, &x, c->n, c->axis, c->norm, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, rawo, no * es));
    /* x and out in logical row-major order as doubles */
    double *hx = malloc(nx * sizeof *hx), *hb = malloc(nx * sizeof *hb);
    double *ho = malloc(no * sizeof *ho), *hob = malloc(no * sizeof *hob);
    to_host(raw, rdt, nx, hb);
    to_host(rawo, rdt, no, hob);
    size_t w = cx ? 2 : 1, wo = co ? 2 : 1;
    for (int64_t i = 0; i < xs[0]; i++)
        for (int64_t j = 0; j < xs[1] * xs[2]; j++)
            for (size_t t = 0; t < w; t++) {
                int64_t si = c->flip_x ? xs[0] - 1 - i : i;
                hx[(size_t)(i * xs[1] * xs[2] + j) * w + t] =
                    hb[(size_t)(si * xs[1] * xs[2] + j) * w + t];
            }
    for (int64_t a = 0; a < os[0]; a++)
        for (int64_t b = 0; b < os[1]; b++)
            for (int64_t d = 0; d < os[2]; d++)
                for (size_t t = 0; t < wo; t++) {
                    int64_t src =
                        c->transp_out ? (d * os[1] + b) * os[0] + a : (a * os[1] + b) * os[2] + d;
                    ho[(size_t)((a * os[1] + b) * os[2] + d) * wo + t] = hob[(size_t)src * wo + t];
                }
    double worst = 0;
    int64_t idx[3];
    for (idx[0] = 0; idx[0] < (c->axis == 0 ? 1 : xs[0]); idx[0]++)
        for (idx[1] = 0; idx[1] < (c->axis == 1 ? 1 : xs[1]); idx[1]++)
            for (idx[2] = 0; idx[2] < (c->axis == 2 ? 1 : xs[2]); idx[2]++) {
                double ratio = check_line(c, hx, xs, ho, os, nn, idx);
                worst = ratio > worst ? ratio : worst;
            }
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    free(raw), free(rawo), free(hx), free(hb), free(ho), free(hob);
    return worst;
}

static void every_kind(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(24);
    static const int64_t lens[] = {1, 2, 7, 15, 16, 97, 128, 250, 1031};
    static const accel_dtype rdts[] = {ACCEL_F64, ACCEL_F32};
    double worst = 0;
    unsigned cases = 0;
    for (size_t p = 0; p < 2; p++)
        for (int kind = FFT; kind <= IRFFT; kind++)
            for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
                int64_t len = lens[li];
                if (kind == IRFFT && len < 2)
                    continue;
                int axis = (int)((li + (size_t)kind) % 3);
                fcase c = {rdts[p], kind, {3, 2, 4}, axis, 0, (accel_fft_norm)(li % 3),
                           false,   false};
                c.shape[axis] = len;
                double wr = run_fft(&e, &r, &c);
                worst = wr > worst ? wr : worst;
                cases++;
            }
    /* n shorter and longer than the axis; staged views; one long line */
    const fcase extra[] = {
        {ACCEL_F64, FFT, {2, 20, 3}, 1, 12, ACCEL_FFT_NORM_BACKWARD, false, false},
        {ACCEL_F64, IFFT, {2, 20, 3}, 1, 33, ACCEL_FFT_NORM_ORTHO, true, false},
        {ACCEL_F32, RFFT, {5, 3, 17}, 2, 40, ACCEL_FFT_NORM_FORWARD, true, true},
        {ACCEL_F64, IRFFT, {5, 9, 2}, 1, 15, ACCEL_FFT_NORM_BACKWARD, false, true},
        {ACCEL_F64, IRFFT, {5, 9, 2}, 1, 40, ACCEL_FFT_NORM_ORTHO, true, false},
        {ACCEL_F32, FFT, {1, 1, 4099}, 2, 0, ACCEL_FFT_NORM_BACKWARD, false, false},
        {ACCEL_F64, RFFT, {1, 1, 4096}, -1 + 3, 0, ACCEL_FFT_NORM_ORTHO, false, false},
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        double wr = run_fft(&e, &r, &extra[i]);
        worst = wr > worst ? wr : worst;
        cases++;
    }
    cr_log_info("%s: %u FFT cases, worst error/bound %.3f", accel_device_name(dev), cases, worst);
    cr_assert_gt(cases, 70u);
}

Test(array_fft, every_kind_length_axis_and_norm)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, every_kind, NULL);
    accel_runtime_close(rt);
}

/* ifft(fft(x)) and irfft(rfft(x)) give x back (within the bound twice). */
Test(array_fft, round_trips)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    const int64_t n = 60;
    double h[2 * 60], back[2 * 60];
    for (int i = 0; i < 2 * n; i++)
        h[i] = sin(0.37 * i) + (i % 7) * 0.25;
    accel_buffer *bx = upload(&e, h, sizeof h), *bf = upload(&e, NULL, sizeof h);
    accel_buffer *bb = upload(&e, NULL, sizeof h);
    accel_array x, f, b, xr, fr, br;
    tu_ok(accel_array_init(&x, bx, ACCEL_C128, 1, &n));
    tu_ok(accel_array_init(&f, bf, ACCEL_C128, 1, &n));
    tu_ok(accel_array_init(&b, bb, ACCEL_C128, 1, &n));
    tu_ok(accel_array_fft(q, &x, 0, 0, ACCEL_FFT_NORM_BACKWARD, &f));
    tu_ok(accel_array_ifft(q, &f, 0, 0, ACCEL_FFT_NORM_BACKWARD, &b));
    tu_ok(accel_queue_read_blocking(q, bb, 0, back, sizeof back));
    for (int i = 0; i < 2 * n; i++)
        cr_assert(fabs(back[i] - h[i]) < 1e-13, "ifft(fft(x))[%d]: %.17g want %.17g", i, back[i],
                  h[i]);
    const int64_t half = n / 2 + 1;
    tu_ok(accel_array_init(&xr, bx, ACCEL_F64, 1, &n));
    tu_ok(accel_array_init(&fr, bf, ACCEL_C128, 1, &half));
    tu_ok(accel_array_init(&br, bb, ACCEL_F64, 1, &n));
    tu_ok(accel_array_rfft(q, &xr, 0, 0, ACCEL_FFT_NORM_ORTHO, &fr));
    tu_ok(accel_array_irfft(q, &fr, n, 0, ACCEL_FFT_NORM_ORTHO, &br));
    tu_ok(accel_queue_read_blocking(q, bb, 0, back, (size_t)n * 8));
    for (int i = 0; i < n; i++)
        cr_assert(fabs(back[i] - h[i]) < 1e-13, "irfft(rfft(x))[%d]: %.17g want %.17g", i, back[i],
                  h[i]);
    accel_buffer_release(bx), accel_buffer_release(bf), accel_buffer_release(bb);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* fftn over axes (2, 0) of a (4, 3, 6) complex128 array with s = (8, 5)
 * (axis 2 padded to 8, axis 0 padded to 5), norm ortho, against the 2-D
 * DFT written out as one double sum; then ifftn of that back to the padded
 * input. */
Test(array_fft, fftn_two_axes_with_s)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    enum { A = 4, B = 3, C = 6, SA = 5, SC = 8 };
    double h[A * B * C * 2], got[SA * B * SC * 2], back[SA * B * SC * 2];
    for (int i = 0; i < A * B * C * 2; i++)
        h[i] = sin(1.3 * i) - 0.25 * (i % 5);
    accel_buffer *bx = upload(&e, h, sizeof h), *bo = upload(&e, NULL, sizeof got);
    accel_buffer *bb = upload(&e, NULL, sizeof back);
    const int64_t xs[3] = {A, B, C}, os[3] = {SA, B, SC}, s2[2] = {SC, SA};
    const int32_t axes[2] = {2, 0};
    accel_array x, out, bk;
    tu_ok(accel_array_init(&x, bx, ACCEL_C128, 3, xs));
    tu_ok(accel_array_init(&out, bo, ACCEL_C128, 3, os));
    tu_ok(accel_array_init(&bk, bb, ACCEL_C128, 3, os));
    tu_ok(accel_array_fftn(q, &x, 2, s2, axes, ACCEL_FFT_NORM_ORTHO, &out));
    tu_ok(accel_array_ifftn(q, &out, 2, NULL, axes, ACCEL_FFT_NORM_ORTHO, &bk));
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    tu_ok(accel_queue_read_blocking(q, bb, 0, back, sizeof back));
    const long double two_pi = 6.283185307179586476925286766559L;
    for (int j0 = 0; j0 < SA; j0++)
        for (int i1 = 0; i1 < B; i1++)
            for (int j2 = 0; j2 < SC; j2++) {
                long double wr = 0, wi = 0;
                for (int t0 = 0; t0 < A; t0++)
                    for (int t2 = 0; t2 < C; t2++) {
                        long double ang = -two_pi * ((long double)(j0 * t0 % SA) / SA +
                                                     (long double)(j2 * t2 % SC) / SC);
                        const double *v = &h[((t0 * B + i1) * C + t2) * 2];
                        wr += v[0] * cosl(ang) - v[1] * sinl(ang);
                        wi += v[0] * sinl(ang) + v[1] * cosl(ang);
                    }
                wr /= sqrtl(SA * SC), wi /= sqrtl(SA * SC);
                const double *g = &got[((j0 * B + i1) * SC + j2) * 2];
                cr_assert(fabsl(g[0] - wr) < 1e-13 && fabsl(g[1] - wi) < 1e-13,
                          "fftn (%d, %d, %d): (%.17g, %.17g) want (%.17Lg, %.17Lg)", j0, i1, j2,
                          g[0], g[1], wr, wi);
                /* ifftn gives the padded input back */
                const double *b = &back[((j0 * B + i1) * SC + j2) * 2];
                bool in = j0 < A && j2 < C;
                double xr = in ? h[((j0 * B + i1) * C + j2) * 2] : 0.0;
                double xi = in ? h[((j0 * B + i1) * C + j2) * 2 + 1] : 0.0;
                cr_assert(fabs(b[0] - xr) < 1e-13 && fabs(b[1] - xi) < 1e-13,
                          "ifftn (%d, %d, %d): (%.17g, %.17g) want (%.17g, %.17g)", j0, i1, j2,
                          b[0], b[1], xr, xi);
            }
    const int32_t bad_axes[2] = {2, 3};
    tu_assert_status(accel_array_fftn(q, &x, 2, s2, bad_axes, ACCEL_FFT_NORM_ORTHO, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "axis 3");
    /* the message names the axis, not an s[i] of 0 that was never given */
    tu_assert_status(accel_array_fftn(q, &x, 2, NULL, bad_axes, ACCEL_FFT_NORM_ORTHO, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "axis 3, s NULL");
    cr_assert(strstr(accel_last_error(), "axes[1] = 3 is out of range") &&
                  !strstr(accel_last_error(), " s[1]"),
              "%s", accel_last_error());
    tu_assert_status(accel_array_fftn(q, &x, 2, NULL, axes, ACCEL_FFT_NORM_ORTHO, &out),
                     ACCEL_ERROR_SHAPE_MISMATCH, "out's shape without s");
    /* axes NULL is named as such (it read "2 axes for 2 dimensions") */
    tu_assert_status(accel_array_fftn(q, &x, 2, s2, NULL, ACCEL_FFT_NORM_ORTHO, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "axes NULL");
    cr_assert(strstr(accel_last_error(), "axes is NULL"), "%s", accel_last_error());
    tu_assert_status(accel_array_fftn(q, &x, 0, s2, axes, ACCEL_FFT_NORM_ORTHO, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "count 0");
    cr_assert(strstr(accel_last_error(), "count 0 axes"), "%s", accel_last_error());
    accel_buffer_release(bx), accel_buffer_release(bo), accel_buffer_release(bb);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* fftfreq and rfftfreq: NumPy's formula in float64 exactly. */
Test(array_fft, frequencies)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    const int64_t ns[] = {1, 2, 7, 8};
    const double ds[] = {1.0, 0.1, 2.5, 1e-3};
    for (int c = 0; c < 4; c++)
        for (int half = 0; half < 2; half++) {
            int64_t n = ns[c], len = half ? n / 2 + 1 : n;
            double got[8], step = 1.0 / ((double)n * ds[c]);
            accel_buffer *b = upload(&e, NULL, 64);
            accel_array out;
            tu_ok(accel_array_init(&out, b, ACCEL_F64, 1, &len));
            tu_ok((half ? accel_array_rfftfreq : accel_array_fftfreq)(q, n, ds[c], &out));
            tu_ok(accel_queue_read_blocking(q, b, 0, got, (size_t)len * 8));
            for (int64_t i = 0; i < len; i++) {
                int64_t k = half || i < (n + 1) / 2 ? i : i - n;
                cr_assert(got[i] == (double)k * step,
                          "%sfftfreq(%lld, %g)[%lld] = %.17g want %.17g", half ? "r" : "",
                          (long long)n, ds[c], (long long)i, got[i], (double)k * step);
            }
            accel_buffer_release(b);
        }
    /* A d so small that 1/(n d) is past float32's range: bin 0 is 0 (it
     * was 0 * inf = NaN), the others +-inf, as NumPy's float64 result
     * rounded; past float64's range NumPy's bin 0 is 0 * inf = NaN. */
    const struct {
        accel_dtype dt;
        double d;
    } tiny[] = {{ACCEL_F32, 1e-40}, {ACCEL_F32, 1e-46}, {ACCEL_F64, 1e-310}, {ACCEL_F32, -1e-40}};
    for (int c = 0; c < 4; c++) {
        int64_t len = 4;
        accel_buffer *b = upload(&e, NULL, 64);
        accel_array out;
        tu_ok(accel_array_init(&out, b, tiny[c].dt, 1, &len));
        tu_ok(accel_array_fftfreq(q, 4, tiny[c].d, &out));
        double got[4];
        float gf[4];
        if (tiny[c].dt == ACCEL_F32) {
            tu_ok(accel_queue_read_blocking(q, b, 0, gf, sizeof gf));
            for (int i = 0; i < 4; i++)
                got[i] = gf[i];
        } else {
            tu_ok(accel_queue_read_blocking(q, b, 0, got, sizeof got));
        }
        double s = tiny[c].d > 0 ? 1 : -1;
        const double want[4] = {0, s * INFINITY, -s * INFINITY, -s * INFINITY};
        bool nan0 = tiny[c].dt == ACCEL_F64; /* 1/(n d) is inf in float64 too */
        cr_assert(nan0 ? isnan(got[0]) : got[0] == 0 && !signbit(got[0]) == (s > 0),
                  "fftfreq(4, %g)[0] = %g", tiny[c].d, got[0]);
        for (int i = 1; i < 4; i++)
            cr_assert(got[i] == want[i], "fftfreq(4, %g)[%d] = %g want %g", tiny[c].d, i, got[i],
                      want[i]);
        accel_buffer_release(b);
    }
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_fft, bad_input_leaves_out_untouched)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    double host[32];
    for (int i = 0; i < 32; i++)
        host[i] = 7.0 + i;
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    const int64_t n8 = 8, n5 = 5, s24[] = {2, 4};
    accel_array xc, xr, oc, or8, oc5, o24;
    tu_ok(accel_array_init(&xc, bx, ACCEL_C128, 1, &n8));
    tu_ok(accel_array_init(&xr, bx, ACCEL_F64, 1, &n8));
    tu_ok(accel_array_init(&oc, bo, ACCEL_C128, 1, &n8));
    tu_ok(accel_array_init(&or8, bo, ACCEL_F64, 1, &n8));
    tu_ok(accel_array_init(&oc5, bo, ACCEL_C128, 1, &n5));
    tu_ok(accel_array_init(&o24, bo, ACCEL_C128, 2, s24));
    const accel_fft_norm B = ACCEL_FFT_NORM_BACKWARD;
    tu_assert_status(accel_array_fft(q, &xr, 0, 0, B, &oc), ACCEL_ERROR_DTYPE_MISMATCH,
                     "fft of a real x");
    cr_assert(strstr(accel_last_error(), "accel_array_fft"), "%s", accel_last_error());
    tu_assert_status(accel_array_fft(q, &xc, 0, 0, B, &or8), ACCEL_ERROR_DTYPE_MISMATCH,
                     "fft into a real out");
    tu_assert_status(accel_array_rfft(q, &xc, 0, 0, B, &oc5), ACCEL_ERROR_DTYPE_MISMATCH,
                     "rfft of a complex x");
    accel_array oc64 = oc5;
    oc64.dtype = ACCEL_C64;
    tu_assert_status(accel_array_rfft(q, &xr, 0, 0, B, &oc64), ACCEL_ERROR_DTYPE_MISMATCH,
                     "rfft of f64 into c64");
    tu_assert_status(accel_array_rfft(q, &xr, 0, 0, B, &oc), ACCEL_ERROR_SHAPE_MISMATCH,
                     "rfft out of 8, not 5");
    tu_assert_status(accel_array_fft(q, &xc, 0, 1, B, &oc), ACCEL_ERROR_INVALID_ARGUMENT, "axis");
    tu_assert_status(accel_array_fft(q, &xc, -2, 0, B, &oc), ACCEL_ERROR_INVALID_ARGUMENT, "n < 0");
    tu_assert_status(accel_array_fft(q, &xc, 0, 0, (accel_fft_norm)7, &oc),
                     ACCEL_ERROR_INVALID_ARGUMENT, "norm");
    tu_assert_status(accel_array_fft(q, &xc, 0, 0, B, &o24), ACCEL_ERROR_SHAPE_MISMATCH, "out 2-D");
    accel_array ov = oc; /* out inside x's buffer */
    ov.buffer = bx;
    tu_assert_status(accel_array_fft(q, &xc, 0, 0, B, &ov), ACCEL_ERROR_INVALID_ARGUMENT,
                     "overlap");
    accel_array x1;
    const int64_t one = 1;
    tu_ok(accel_array_init(&x1, bx, ACCEL_C128, 1, &one));
    tu_assert_status(accel_array_irfft(q, &x1, 0, 0, B, &or8), ACCEL_ERROR_INVALID_ARGUMENT,
                     "irfft of one element, n None");
    accel_array past = oc;
    past.offset = 256;
    tu_assert_status(accel_array_fft(q, &xc, 0, 0, B, &past), ACCEL_ERROR_OUT_OF_RANGE,
                     "out past its buffer");
    /* An n whose staging temporary would overflow size_t: refused naming
     * the call (it was a 0-byte temporary refused by accel_array_full, or an
     * allocation of 2^64 - 16 bytes). The only view of n elements that fits
     * a buffer repeats one element (stride 0), which a written view may not
     * (INVALID_ARGUMENT, checked first); the temporaries' own overflow
     * check (OUT_OF_RANGE) stays behind it. */
    accel_array wide = oc;
    wide.strides[0] = 0;
    const int64_t huge[] = {(int64_t)1 << 60, (int64_t)1 << 62, INT64_MAX};
    for (int i = 0; i < 3; i++) {
        wide.shape[0] = huge[i];
        accel_status hs = accel_array_fft(q, &xc, huge[i], 0, B, &wide);
        cr_assert((hs == ACCEL_ERROR_INVALID_ARGUMENT || hs == ACCEL_ERROR_OUT_OF_RANGE) &&
                      strstr(accel_last_error(), "accel_array_fft"),
                  "n = %lld: %s (%s)", (long long)huge[i], accel_status_name(hs),
                  accel_last_error());
    }
    tu_assert_status(accel_array_fftfreq(q, 0, 1.0, &or8), ACCEL_ERROR_INVALID_ARGUMENT, "n 0");
    /* n = INT64_MAX: out's length is checked without overflowing (n + 1
     * was signed overflow, reported by UBSan) */
    tu_assert_status(accel_array_fftfreq(q, INT64_MAX, 1.0, &or8), ACCEL_ERROR_SHAPE_MISMATCH,
                     "n INT64_MAX");
    tu_assert_status(accel_array_rfftfreq(q, INT64_MAX, 1.0, &or8), ACCEL_ERROR_SHAPE_MISMATCH,
                     "rfft n INT64_MAX");
    tu_assert_status(accel_array_fftfreq(q, 8, 0.0, &or8), ACCEL_ERROR_INVALID_ARGUMENT, "d 0");
    tu_assert_status(accel_array_fftfreq(q, 8, 1.0, &oc), ACCEL_ERROR_DTYPE_MISMATCH,
                     "complex out");
    tu_assert_status(accel_array_rfftfreq(q, 8, 1.0, &or8), ACCEL_ERROR_SHAPE_MISMATCH,
                     "rfftfreq out of 8");
    /* the buffer-level op */
    accel_slice sx = accel_slice_of(bx, 0, 8), so = accel_slice_of(bo, 0, 8);
    tu_assert_status(accel_fft_segments(q, ACCEL_OP_SORT, ACCEL_C128, 1, 8, 1, 0, 1.0, sx, so),
                     ACCEL_ERROR_INVALID_ARGUMENT, "not an FFT op");
    tu_assert_status(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_F64, 1, 8, 1, 0, 1.0, sx, so),
                     ACCEL_ERROR_DTYPE_MISMATCH, "a real dtype");
    tu_assert_status(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C128, 2, 8, 1, 0, 1.0, sx, so),
                     ACCEL_ERROR_SHAPE_MISMATCH, "2 x 8 of 8");
    tu_assert_status(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C128, 1, 8, 1, 0, NAN, sx, so),
                     ACCEL_ERROR_INVALID_ARGUMENT, "scale NaN");
    tu_assert_status(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C128, 1, 0, 1, 0, 1.0, sx, so),
                     ACCEL_ERROR_INVALID_ARGUMENT, "n 0");
    tu_assert_status(accel_fft_segments(q, ACCEL_OP_RFFT, ACCEL_C128, 1, 8, 1, 0, 1.0,
                                        accel_slice_of(bx, 0, 8), accel_slice_of(bx, 3, 5)),
                     ACCEL_ERROR_INVALID_ARGUMENT, "overlap");
    double after[32];
    tu_ok(accel_queue_read_blocking(q, bo, 0, after, sizeof after));
    cr_assert(memcmp(after, host, sizeof host) == 0, "out was touched");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
