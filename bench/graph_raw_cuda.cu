/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* graph_raw_cuda.cu — the raw CUDA baseline of graph_bench (built only with
 * the CUDA backend): the same 100 dependent 1024-element f32 adds (x += 1),
 * with a kernel like the CUDA backend's add (a grid-stride loop of float4
 * loads and stores, 256 threads a block, the grid sized from the work),
 * launched eagerly on a stream and as one CUDA graph made by stream capture
 * (cudaStreamBeginCapture, cudaGraphInstantiate, cudaGraphLaunch), end to
 * end (launch + cudaStreamSynchronize), plus the host cost of one
 * cudaGraphLaunch. Run it beside graph_bench in the same session: accel's
 * replay should be <= 1.05x this graph.
 *
 *   graph_raw_cuda [--n 1024] [--ops 100] [--reps 500] [--device 0] */
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace
{

__global__ void __launch_bounds__(256)
    add_kernel(const float4 *a, const float4 *b, float4 *out, size_t nvec)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nvec; i += stride) {
        float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

double now_us()
{
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return true;
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    return false;
}

size_t opt(int argc, char **argv, const char *name, size_t def)
{
    for (int i = 1; i + 1 < argc; i++)
        if (std::strcmp(argv[i], name) == 0)
            return (size_t)std::strtoull(argv[i + 1], nullptr, 10);
    return def;
}

} // namespace

int main(int argc, char **argv)
{
    const size_t n = opt(argc, argv, "--n", 1024), ops = opt(argc, argv, "--ops", 100),
                 reps = opt(argc, argv, "--reps", 500);
    const int device = (int)opt(argc, argv, "--device", 0);
    if (n == 0 || n % 4 || ops == 0 || reps == 0) {
        std::fprintf(stderr, "--n (a multiple of 4), --ops and --reps must be > 0\n");
        return 2;
    }
    if (!ok(cudaSetDevice(device), "cudaSetDevice"))
        return 1;
    float *x = nullptr, *one = nullptr;
    cudaStream_t s;
    if (!ok(cudaMalloc(&x, n * 4), "cudaMalloc") || !ok(cudaMalloc(&one, n * 4), "cudaMalloc") ||
        !ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate"))
        return 1;
    std::vector<float> h(n, 1.0f);
    ok(cudaMemcpy(one, h.data(), n * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    ok(cudaMemset(x, 0, n * 4), "cudaMemset");
    const size_t nvec = n / 4;
    const unsigned grid = (unsigned)std::min<size_t>((nvec + 255) / 256, 8 * 132);
    auto enqueue = [&]() {
        for (size_t i = 0; i < ops; i++)
            add_kernel<<<grid, 256, 0, s>>>(reinterpret_cast<const float4 *>(x),
                                            reinterpret_cast<const float4 *>(one),
                                            reinterpret_cast<float4 *>(x), nvec);
    };
    std::vector<double> t(reps);
    for (size_t r = 0; r <= reps; r++) {
        double t0 = now_us();
        enqueue();
        cudaStreamSynchronize(s);
        if (r)
            t[r - 1] = now_us() - t0;
    }
    double eager = median(t);
    cudaGraph_t g;
    cudaGraphExec_t ge;
    if (!ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "begin capture"))
        return 1;
    enqueue();
    if (!ok(cudaStreamEndCapture(s, &g), "end capture") ||
        !ok(cudaGraphInstantiate(&ge, g, 0), "cudaGraphInstantiate"))
        return 1;
    for (size_t r = 0; r <= reps; r++) {
        double t0 = now_us();
        cudaGraphLaunch(ge, s);
        cudaStreamSynchronize(s);
        if (r)
            t[r - 1] = now_us() - t0;
    }
    double graph = median(t);
    size_t launches = std::max<size_t>(reps, 100);
    double t0 = now_us();
    for (size_t r = 0; r < launches; r++)
        cudaGraphLaunch(ge, s);
    double launch = (now_us() - t0) / (double)launches;
    if (!ok(cudaStreamSynchronize(s), "cudaStreamSynchronize"))
        return 1;
    ok(cudaMemcpy(h.data(), x, n * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    double want = (double)(2 * (reps + 1) + launches) * (double)ops;
    for (size_t i = 0; i < n; i++)
        if ((double)h[i] != want) {
            std::fprintf(stderr, "x[%zu] = %.1f, expected %.1f\n", i, h[i], want);
            return 1;
        }
    std::printf("raw CUDA, %zu dependent %zu-element f32 adds, median of %zu runs, end to end\n",
                ops, n, reps);
    std::printf("  stream launches x%zu:          %10.1f us\n", ops, eager);
    std::printf("  cudaGraphLaunch (captured):    %10.1f us\n", graph);
    std::printf("  host cost of cudaGraphLaunch (%zu-node graph): %.2f us\n", ops, launch);
    std::printf("results agree with the reference (x = %.0f)\n", want);
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(one);
    return 0;
}
