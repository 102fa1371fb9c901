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
#include <complex>
#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

#include <kissfft/kissfft.hh>

extern "C" {
#include "cpu.h"
}

namespace
{

// One line (o, i) of an m x len x k block: element j at base + j * k.
template <typename T> struct line_fft {
    kissfft<T> plan;
    std::vector<std::complex<T>> in, out;
    line_fft(size_t n, bool inverse) : plan(n, inverse), in(n), out(n)
    {
    }

    // Complex to complex: x (complex) to y (complex), both k apart.
    void c2c(const std::complex<T> *x, std::complex<T> *y, size_t n, size_t k, T scale)
    {
        plan.transform(x, out.data(), 0, 1, k);
        for (size_t j = 0; j < n; j++)
            y[j * k] = out[j] * scale;
    }
    // Real to the first n/2 + 1 complex outputs.
    void r2c(const T *x, std::complex<T> *y, size_t n, size_t k, T scale)
    {
        for (size_t j = 0; j < n; j++)
            in[j] = std::complex<T>(x[j * k], 0);
        plan.transform(in.data(), out.data());
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
        plan.transform(in.data(), out.data());
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
            f = new line_fft<T>(n, inverse);
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
