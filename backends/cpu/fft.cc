// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The accel authors
// fft.cc — ACCEL_OP_FFT, ACCEL_OP_RFFT and ACCEL_OP_IRFFT on the CPU through
// kissfft's C++ template (kissfft.hh of Debian's libkissfft-dev, BSD-3-Clause:
// mixed radix 2, 3, 4, 5 and a generic radix-p butterfly, in float or
// double), behind one extern "C" call (accel_cpu__fft, cpu.h). The
// transforms are backend.h's: out_j = scale * sum_t x_t exp(-+2 pi i j t / n)
// along the middle axis of an m x len x k block; RFFT keeps the first
// n/2 + 1 outputs of the complex FFT of a real line; IRFFT extends its n/2 + 1
// inputs by Hermitian symmetry (the imaginary parts of x_0 and, for even n,
// x_{n/2} dropped, as NumPy's irfft) and keeps the real part. Lines run in
// parallel over the plugin's OpenMP team, each thread with its own plan
// (kissfft's generic butterfly keeps scratch in the plan).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

#include <kissfft/kissfft.hh>

extern "C" {
#include "cpu.h"
}

namespace
{

// The largest prime factor of n (1 for n <= 1).
size_t largest_prime(size_t n)
{
    size_t best = 1;
    for (size_t f = 2; f * f <= n; f++)
        while (n % f == 0)
            best = f, n /= f;
    return n > 1 ? n : best;
}

// A length-n DFT (sign - or + by inverse) of a line k apart into a
// contiguous out. kissfft does radix 2, 3, 4, 5 and a generic radix-p
// butterfly, O(p) per point, so a length with a large prime factor would
// cost O(n p) (O(n^2) for a prime): those go through Bluestein's chirp-z
// algorithm instead (Bluestein, "A linear filtering approach to the
// computation of the discrete Fourier transform", 1970; as pocketfft and
// cuFFT do), a circular convolution of length m >= 2n - 1, a power of two,
// by kissfft: x_j w_j with w_j = exp(-+ i pi j^2 / n), convolved with
// conj(w), times w.
template <typename T> struct dft_plan {
    using cpx = std::complex<T>;
    size_t n, m = 0;
    kissfft<T> direct, fwd, inv;
    std::vector<cpx> w, bf, a, tmp;          // chirp, FFT of the filter, scratch
    static constexpr size_t blue_above = 61; // prime factors this large or larger

    static size_t conv_len(size_t n)
    {
        size_t m = 1;
        while (m < 2 * n - 1)
            m *= 2;
        return m;
    }
    dft_plan(size_t n_, bool inverse)
        : n(n_), direct(largest_prime(n_) > blue_above ? 1 : n_, inverse),
          fwd(largest_prime(n_) > blue_above ? conv_len(n_) : 1, false),
          inv(largest_prime(n_) > blue_above ? conv_len(n_) : 1, true)
    {
        if (largest_prime(n) <= blue_above)
            return;
        m = conv_len(n);
        w.resize(n), bf.assign(m, cpx(0, 0)), a.resize(m), tmp.resize(m);
        const long double pi = 3.141592653589793238462643383279502884L;
        for (size_t j = 0; j < n; j++) { // j^2 mod 2n keeps the angle exact
            long double ang = pi * (long double)((j * j) % (2 * n)) / (long double)n;
            w[j] = cpx((T)std::cos(ang), (T)((inverse ? 1 : -1) * std::sin(ang)));
        }
        std::vector<cpx> b(m, cpx(0, 0));
        b[0] = std::conj(w[0]);
        for (size_t j = 1; j < n; j++)
            b[j] = b[m - j] = std::conj(w[j]);
        fwd.transform(b.data(), bf.data());
        for (size_t j = 0; j < m; j++)
            bf[j] /= (T)m; // the inverse's 1/m, once
    }
    void transform(const cpx *x, cpx *out, size_t k)
    {
        if (!m) {
            direct.transform(x, out, 0, 1, k);
            return;
        }
        for (size_t j = 0; j < n; j++)
            a[j] = x[j * k] * w[j];
        std::fill(a.begin() + (std::ptrdiff_t)n, a.end(), cpx(0, 0));
        fwd.transform(a.data(), tmp.data());
        for (size_t j = 0; j < m; j++)
            tmp[j] *= bf[j];
        inv.transform(tmp.data(), a.data());
        for (size_t j = 0; j < n; j++)
            out[j] = a[j] * w[j];
    }
};

// One line (o, i) of an m x len x k block: element j at base + j * k.
template <typename T> struct line_fft {
    dft_plan<T> plan;
    std::vector<std::complex<T>> in, out;
    // RFFT of an even n without a large prime factor: kissfft's real
    // transform, a complex FFT of n/2 points and a post-processing pass.
    std::unique_ptr<kissfft<T>> half;
    std::vector<T> reals;
    line_fft(size_t n, bool inverse, bool r2c) : plan(n, inverse), in(n), out(n)
    {
        if (r2c && n % 2 == 0 && n >= 4 && largest_prime(n / 2) <= dft_plan<T>::blue_above) {
            half.reset(new kissfft<T>(n / 2, false));
            reals.resize(n);
        }
    }

    // Complex to complex: x (complex) to y (complex), both k apart.
    void c2c(const std::complex<T> *x, std::complex<T> *y, size_t n, size_t k, T scale)
    {
        plan.transform(x, out.data(), k);
        for (size_t j = 0; j < n; j++)
            y[j * k] = out[j] * scale;
    }
    // Real to the first n/2 + 1 complex outputs.
    void r2c(const T *x, std::complex<T> *y, size_t n, size_t k, T scale)
    {
        if (half) { // out[0] packs the DC (real) and Nyquist (imaginary) terms
            for (size_t j = 0; j < n; j++)
                reals[j] = x[j * k];
            half->transform_real(reals.data(), out.data());
            y[0] = std::complex<T>(out[0].real() * scale, 0);
            y[n / 2 * k] = std::complex<T>(out[0].imag() * scale, 0);
            for (size_t j = 1; j < n / 2; j++)
                y[j * k] = out[j] * scale;
            return;
        }
        for (size_t j = 0; j < n; j++)
            in[j] = std::complex<T>(x[j * k], 0);
        plan.transform(in.data(), out.data(), 1);
        for (size_t j = 0; j <= n / 2; j++)
            y[j * k] = out[j] * scale;
    }
    // n/2 + 1 complex inputs, extended by Hermitian symmetry, to n reals.
    void c2r(const std::complex<T> *x, T *y, size_t n, size_t k, T scale)
    {
        in[0] = std::complex<T>(x[0].real(), 0);
        for (size_t j = 1; j <= n / 2; j++)
            in[j] = x[j * k];
        if (n % 2 == 0)
            in[n / 2] = std::complex<T>(in[n / 2].real(), 0);
        for (size_t j = n / 2 + 1; j < n; j++)
            in[j] = std::conj(in[n - j]);
        plan.transform(in.data(), out.data(), 1);
        for (size_t j = 0; j < n; j++)
            y[j * k] = out[j].real() * scale;
    }
};

template <typename T> bool fft_all(const accel_cpu_op *op, int threads)
{
    using cpx = std::complex<T>;
    const size_t m = op->m, n = op->n, k = op->k, half = n / 2 + 1;
    const size_t lx = op->op == ACCEL_OP_IRFFT ? half : n, lo = op->op == ACCEL_OP_RFFT ? half : n;
    const long long lines = (long long)(m * k);
    const bool inverse = (op->flags & ACCEL_OP_FLAG_FFT_INVERSE) != 0;
    const T scale = (T)op->scalars[0];
    bool ok = true;
#pragma omp parallel num_threads(lines > 1 ? threads : 1) reduction(&& : ok)
    {
        // Every thread reaches the worksharing loop, even without a plan.
        line_fft<T> *f = nullptr;
        try {
            f = new line_fft<T>(n, inverse, op->op == ACCEL_OP_RFFT);
        } catch (const std::bad_alloc &) {
            ok = false;
        }
#pragma omp for schedule(dynamic, 1)
        for (long long l = 0; l < lines; l++) {
            size_t o = (size_t)l / k, i = (size_t)l % k;
            size_t xo = o * lx * k + i, yo = o * lo * k + i;
            if (!f)
                continue;
            try {
                if (op->op == ACCEL_OP_RFFT)
                    f->r2c(static_cast<const T *>(op->ptr[0]) + xo,
                           static_cast<cpx *>(op->ptr[1]) + yo, n, k, scale);
                else if (op->op == ACCEL_OP_IRFFT)
                    f->c2r(static_cast<const cpx *>(op->ptr[0]) + xo,
                           static_cast<T *>(op->ptr[1]) + yo, n, k, scale);
                else
                    f->c2c(static_cast<const cpx *>(op->ptr[0]) + xo,
                           static_cast<cpx *>(op->ptr[1]) + yo, n, k, scale);
            } catch (const std::bad_alloc &) { // the generic butterfly's scratch
                ok = false;
            }
        }
        delete f;
    }
    return ok;
}

} // namespace

extern "C" int32_t accel_cpu__fft(const accel_cpu_op *op, int threads, char *msg, size_t msg_size)
{
    if (op->m * op->k == 0 || op->n == 0)
        return ACCEL_SUCCESS;
    bool ok = op->dtype == ACCEL_C128 ? fft_all<double>(op, threads) : fft_all<float>(op, threads);
    if (!ok) {
        std::snprintf(msg, msg_size, "%s: out of host memory for an FFT plan of %zu points",
                      op->name, op->n);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    return ACCEL_SUCCESS;
}
