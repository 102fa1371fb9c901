// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The accel authors
// host_run.cc — runs two CUDA elementwise entries that core/kernels/kernel_codegen.c
// generated (test_fuse_codegen.c writes them as chain.cu and pair.cu next to
// this program's build) on the host: every thread of every block in turn,
// with blockIdx, threadIdx, gridDim and blockDim as globals. Threads of these
// entries share nothing, so running them one after another is one valid
// schedule. Each entry runs over every n around the block (2048 elements)
// and vector (4) edges, with arrays at element offsets 0, 1, 2 (aligned to
// their vector or not), in place and not, with a grid that covers n, a grid
// of 1 and of 3 blocks (grid-strided). Every element in [0, n) must equal a
// plain loop's, bit for bit (the same expression, no contraction), and
// none past n may change. Prints "runs R failed F"; exits 1 when F > 0.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct accel_d3 {
    unsigned x, y, z;
};
static accel_d3 blockIdx, threadIdx, gridDim, blockDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(n)

namespace chain
{
#include "chain.cu"
}
namespace pair
{
#include "pair.cu"
}

template <class F> static void launch(unsigned grid, F f)
{
    gridDim = {grid, 1, 1};
    blockDim = {256, 1, 1};
    for (unsigned b = 0; b < grid; b++)
        for (unsigned t = 0; t < 256; t++) {
            blockIdx = {b, 0, 0};
            threadIdx = {t, 0, 0};
            f();
        }
}

// The fused 8-op chain of graph_bench, as a plain loop computes it.
static float chain_ref(float x, float alpha)
{
    float v = x * x;
    v = v + x;
    v = tanhf(v);
    v = alpha * v;
    v = v - x;
    v = v <= 0.0f ? 0.0f : v;
    v = v * x;
    return 1.0f / (1.0f + expf(-v));
}

static int runs, failed;

static void fail(const char *what, size_t n, int off, int in_place, unsigned grid, size_t i,
                 double got, double want)
{
    if (failed++ < 10)
        std::printf("%s: n=%zu offset=%d in_place=%d grid=%u: [%zu] = %.17g, expected %.17g\n",
                    what, n, off, in_place, grid, i, got, want);
}

int main()
{
    const size_t ns[] = {0,    1,    3,    4,    5,    7,    1023, 1024, 1025,  2044,
                         2047, 2048, 2049, 2051, 4095, 4096, 4100, 6143, 10000, 20483};
    const float sentinel = -1234.5f;
    for (size_t n : ns)
        for (int off = 0; off < 3; off++)
            for (int in_place = 0; in_place < 2; in_place++)
                for (int g = 0; g < 3; g++) {
                    const size_t cap = n + 64;
                    const unsigned full = (unsigned)((n + 2047) / 2048);
                    const unsigned grid = g == 0 ? (full ? full : 1) : g == 1 ? 1 : 3;
                    // chain: out = chain(x), alpha a scalar.
                    std::vector<float> xs(cap + 16), ys(cap + 16), x0(cap);
                    float *x = xs.data() + (16 - ((size_t)xs.data() / 4) % 16) % 16 + off;
                    float *y =
                        in_place ? x : ys.data() + (16 - ((size_t)ys.data() / 4) % 16) % 16 + off;
                    for (size_t i = 0; i < cap; i++) {
                        x0[i] = x[i] = (float)((double)((i * 7) % 4096) / 2048.0 - 1.0);
                        if (!in_place)
                            y[i] = sentinel;
                    }
                    const float alpha = 2.0f;
                    launch(grid, [&] { chain::CHAIN_ENTRY(x, alpha, y, n); });
                    runs++;
                    for (size_t i = 0; i < cap; i++) {
                        float want = i < n ? chain_ref(x0[i], alpha) : in_place ? x0[i] : sentinel;
                        if (std::memcmp(&y[i], &want, sizeof want) != 0) {
                            fail("chain", n, off, in_place, grid, i, y[i], want);
                            break;
                        }
                    }
                    // pair: z = a * b + i, w = a - b over f64 (z in place of a).
                    std::vector<double> as(cap + 8), bs(cap + 8), zs(cap + 8), ws(cap + 8), a0(cap);
                    double *a = as.data() + (4 - ((size_t)as.data() / 8) % 4) % 4 + off;
                    double *b = bs.data() + (4 - ((size_t)bs.data() / 8) % 4) % 4;
                    double *z =
                        in_place ? a : zs.data() + (4 - ((size_t)zs.data() / 8) % 4) % 4 + off;
                    double *w = ws.data() + (4 - ((size_t)ws.data() / 8) % 4) % 4 + off;
                    for (size_t i = 0; i < cap; i++) {
                        a0[i] = a[i] = 0.25 * (double)(i % 97);
                        b[i] = 1.0 - 0.5 * (double)(i % 13);
                        if (!in_place)
                            z[i] = sentinel;
                        w[i] = sentinel;
                    }
                    launch(grid, [&] { pair::PAIR_ENTRY(a, b, z, w, n); });
                    runs++;
                    for (size_t i = 0; i < cap; i++) {
                        double wz = i < n ? a0[i] * b[i] + (double)i : in_place ? a0[i] : sentinel;
                        double ww = i < n ? a0[i] - b[i] : sentinel;
                        if (z[i] != wz || w[i] != ww) {
                            fail("pair", n, off, in_place, grid, i, z[i] != wz ? z[i] : w[i],
                                 z[i] != wz ? wz : ww);
                            break;
                        }
                    }
                }
    std::printf("runs %d failed %d\n", runs, failed);
    return failed != 0;
}
