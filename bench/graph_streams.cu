/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* graph_streams.cu — why a CUDA graph's dependent nodes run slower later in
 * a process (built only with the CUDA backend; a program, not a test; plain
 * CUDA runtime calls, no accel). It times a raw CUDA graph of 100 dependent
 * 1024-element f32 adds (stream-captured, one plain add kernel per node, the
 * form of accel_ceilings.graph_us) with CUDA events, the median of --reps
 * launches, at each step of a sequence:
 *
 *   fresh                  nothing else has run
 *   N on the graph stream  N empty kernels launched on the graph's own stream
 *   N on a second stream   N empty kernels on another non-blocking stream
 *   later                  after a pause of --pause-ms
 *   new stream             the same graph re-captured on a stream made now
 *
 * Measured on the H200 (driver 580.159, CUDA 13.0, 2026-12-02): 97.5 us
 * fresh; unchanged after 32 kernels on the graph's own stream; 115 us once
 * about five (4: no change, 6: slower) kernels ran on a second stream, and
 * it stays there for the rest of the process (after 5 s idle, on new
 * streams, for accel's graphs as for raw ones, for every kernel shape tried,
 * with CUDA_DEVICE_MAX_CONNECTIONS 1 or 32). Usage:
 *   graph_streams [--n-second N] [--n-same N] [--reps N] [--pause-ms MS] */
#include <cuda_runtime.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

namespace
{

constexpr int kNodes = 100, kN = 1024;

__global__ void empty_kernel()
{
}

__global__ void add_kernel(float *__restrict__ x, const float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += y[i];
}

bool check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "graph_streams: %s: %s\n", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

struct Graph {
    cudaStream_t stream = nullptr;
    cudaGraphExec_t exec = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;

    bool build(float *x, const float *y)
    {
        cudaGraph_t g = nullptr;
        if (!check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream") ||
            !check(cudaEventCreate(&e0), "event") || !check(cudaEventCreate(&e1), "event") ||
            !check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "capture"))
            return false;
        for (int i = 0; i < kNodes; ++i)
            add_kernel<<<(kN + 255) / 256, 256, 0, stream>>>(x, y, kN);
        bool ok = check(cudaStreamEndCapture(stream, &g), "end capture") &&
                  check(cudaGraphInstantiate(&exec, g, 0), "instantiate");
        if (g)
            cudaGraphDestroy(g);
        return ok;
    }

    /* Median microseconds of one launch between two events. */
    double time_us(int reps)
    {
        float *t = (float *)malloc(sizeof(float) * (size_t)reps);
        if (!t)
            return -1;
        for (int r = 0; r <= reps; ++r) {
            float ms = 0;
            if (!check(cudaEventRecord(e0, stream), "record") ||
                !check(cudaGraphLaunch(exec, stream), "graph launch") ||
                !check(cudaEventRecord(e1, stream), "record") ||
                !check(cudaEventSynchronize(e1), "sync") ||
                !check(cudaEventElapsedTime(&ms, e0, e1), "elapsed")) {
                free(t);
                return -1;
            }
            if (r)
                t[r - 1] = ms * 1e3f;
        }
        std::sort(t, t + reps);
        double m = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
        free(t);
        return m;
    }

    void release()
    {
        if (exec)
            cudaGraphExecDestroy(exec);
        if (e0)
            cudaEventDestroy(e0);
        if (e1)
            cudaEventDestroy(e1);
        if (stream)
            cudaStreamDestroy(stream);
        *this = Graph();
    }
};

bool empties(cudaStream_t s, int n)
{
    for (int i = 0; i < n; ++i)
        empty_kernel<<<1, 1, 0, s>>>();
    return check(cudaGetLastError(), "empty kernel") && check(cudaStreamSynchronize(s), "sync");
}

int arg(int argc, char **argv, const char *name, int def)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], name) == 0) {
            char *end = nullptr;
            long v = strtol(argv[i + 1], &end, 10);
            if (!*argv[i + 1] || *end || v < 0 || v > 1000000) {
                fprintf(stderr, "graph_streams: %s: bad value '%s'\n", name, argv[i + 1]);
                exit(2);
            }
            return (int)v;
        }
    return def;
}

} // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: graph_streams [--n-second N] [--n-same N] [--reps N] [--pause-ms MS]\n");
            return 0;
        }
    const int n_second = arg(argc, argv, "--n-second", 32),
              n_same = arg(argc, argv, "--n-same", 32);
    const int reps = std::max(arg(argc, argv, "--reps", 101), 1);
    const int pause_ms = arg(argc, argv, "--pause-ms", 2000);
    float *x = nullptr, *y = nullptr;
    if (!check(cudaMalloc(&x, kN * sizeof(float)), "cudaMalloc") ||
        !check(cudaMalloc(&y, kN * sizeof(float)), "cudaMalloc") ||
        !check(cudaMemset(x, 0, kN * sizeof(float)), "memset") ||
        !check(cudaMemset(y, 0, kN * sizeof(float)), "memset"))
        return 1;
    Graph g;
    if (!g.build(x, y))
        return 1;
    printf("raw CUDA graph of %d dependent %d-element f32 adds, median of %d launches (CUDA "
           "events)\n",
           kNodes, kN, reps);
    printf("  %-34s %8.1f us\n", "fresh", g.time_us(reps));
    if (!empties(g.stream, n_same))
        return 1;
    char label[64];
    snprintf(label, sizeof label, "%d empty kernels on its stream", n_same);
    printf("  %-34s %8.1f us\n", label, g.time_us(reps));
    cudaStream_t other = nullptr;
    if (!check(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), "stream") ||
        !empties(other, n_second))
        return 1;
    cudaStreamDestroy(other);
    snprintf(label, sizeof label, "%d empty kernels on a 2nd stream", n_second);
    printf("  %-34s %8.1f us\n", label, g.time_us(reps));
    struct timespec ts = {pause_ms / 1000, (long)(pause_ms % 1000) * 1000000L};
    nanosleep(&ts, nullptr);
    snprintf(label, sizeof label, "%d ms later", pause_ms);
    printf("  %-34s %8.1f us\n", label, g.time_us(reps));
    g.release();
    if (!g.build(x, y))
        return 1;
    printf("  %-34s %8.1f us\n", "re-captured on a new stream", g.time_us(reps));
    g.release();
    cudaFree(x);
    cudaFree(y);
    return 0;
}
