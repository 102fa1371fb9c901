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
 * With --chain-n N (> 0, a multiple of 4096), also the raw kernels of
 * graph_bench's fused 8-op chain, out = sigmoid(relu(2 tanh(x*x + x) - x) * x)
 * over N f32, with the per-element arithmetic of accel's generated kernel
 * (no contraction, IEEE division, CUDA's tanhf and expf), with one 4-element
 * step per thread (a grid that covers N) and with U = 2 and 4 steps per
 * thread whose loads are all issued before any is computed (U = 2 is the
 * layout of accel's generated elementwise kernels); plus z = a*x + b*y in
 * the first two layouts. Each is timed with CUDA events, median of 7
 * interleaved rounds (min..max printed), as a fraction of a device-to-device
 * cudaMemcpyAsync moving the same bytes; the layouts' outputs must agree bit
 * for bit.
 *
 * With --accel NAME (an accel device, cuda:0), also accel's unfused graph
 * of the same adds on that device (accel_add recorded ops times, instantiated
 * with ACCEL_GRAPH_NO_FUSION, accel_graph_launch + accel_queue_finish), timed
 * in 7 rounds that interleave it with the raw graph (the order alternating),
 * each round the median of --reps runs: both medians over the rounds, with
 * min..max, and accel / raw per round (the target is <= 1.05).
 *
 *   graph_raw_cuda [--n 1024] [--ops 100] [--reps 500] [--device 0] [--chain-n 0]
 *                  [--accel NAME] */
#include <accel/accel.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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

/* The fused chain's element (graph_bench's 8-op chain, alpha = 2), written
 * as accel's generated code computes it under NVRTC's --fmad=false. */
struct ChainF {
    float alpha;
    __device__ float operator()(float x, float) const
    {
        float v = __fadd_rn(__fmul_rn(x, x), x);
        v = __fsub_rn(__fmul_rn(alpha, tanhf(v)), x);
        v = __fmul_rn(v <= 0.0f ? 0.0f : v, x);
        return __fdiv_rn(1.0f, __fadd_rn(1.0f, expf(-v)));
    }
};
struct AxpbyF {
    float alpha, beta;
    __device__ float operator()(float x, float y) const
    {
        return __fadd_rn(__fmul_rn(alpha, x), __fmul_rn(beta, y));
    }
};

/* U 4-element steps per thread: block b covers vectors [b * 256 U, (b + 1) * 256 U), thread t
 * the vectors b * 256 U + t + 256 k (k < U), all loaded before any is computed. */
template <int U, int NIN, class F>
__global__ void __launch_bounds__(256)
    chain_kernel(F f, const float4 *a, const float4 *b, float4 *out, size_t nvec)
{
    const size_t base = (size_t)blockIdx.x * (256u * U) + threadIdx.x;
    float4 x[U], y[U];
#pragma unroll
    for (int k = 0; k < U; k++) {
        const size_t i = base + 256u * k;
        if (i < nvec) {
            x[k] = a[i];
            if (NIN == 2)
                y[k] = b[i];
        }
    }
#pragma unroll
    for (int k = 0; k < U; k++) {
        const size_t i = base + 256u * k;
        if (i < nvec) {
            float4 o;
            o.x = f(x[k].x, NIN == 2 ? y[k].x : 0.0f);
            o.y = f(x[k].y, NIN == 2 ? y[k].y : 0.0f);
            o.z = f(x[k].z, NIN == 2 ? y[k].z : 0.0f);
            o.w = f(x[k].w, NIN == 2 ? y[k].w : 0.0f);
            out[i] = o;
        }
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

const char *opt_str(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; i++)
        if (std::strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return nullptr;
}

size_t opt(int argc, char **argv, const char *name, size_t def)
{
    for (int i = 1; i + 1 < argc; i++)
        if (std::strcmp(argv[i], name) == 0)
            return (size_t)std::strtoull(argv[i + 1], nullptr, 10);
    return def;
}

bool aok(accel_status st, const char *what)
{
    if (st == ACCEL_SUCCESS)
        return true;
    std::fprintf(stderr, "%s: %s: %s\n", what, accel_status_name(st), accel_last_error());
    return false;
}

/* accel's unfused graph of the same adds on device `name` against the raw
 * graph ge on stream s, in interleaved rounds. Returns 0 when both ran and
 * accel's result is right. */
int versus_accel(const char *name, size_t n, size_t ops, size_t reps, cudaGraphExec_t ge,
                 cudaStream_t s)
{
    accel_runtime *rt = nullptr;
    accel_device *dev = nullptr;
    accel_queue *q = nullptr;
    accel_buffer *x = nullptr, *one = nullptr;
    accel_graph *g = nullptr;
    int rc = 1;
    bool native = false;
    if (!aok(accel_runtime_open(nullptr, &rt), "accel_runtime_open") ||
        !aok(accel_device_get_by_name(rt, name, &dev), name) ||
        !aok(accel_queue_create(dev, &q), "accel_queue_create") ||
        !aok(accel_buffer_create(dev, n * 4, &x), "accel_buffer_create") ||
        !aok(accel_buffer_create(dev, n * 4, &one), "accel_buffer_create"))
        goto done;
    {
        accel_slice sx = accel_slice_of(x, 0, n), so = accel_slice_of(one, 0, n);
        if (!aok(accel_fill(q, ACCEL_F32, 0.0, sx), "accel_fill") ||
            !aok(accel_fill(q, ACCEL_F32, 1.0, so), "accel_fill") ||
            !aok(accel_queue_begin_capture(q), "accel_queue_begin_capture"))
            goto done;
        for (size_t i = 0; i < ops; i++)
            if (!aok(accel_add(q, ACCEL_F32, sx, so, sx), "accel_add"))
                goto done;
        accel_graph_options o;
        accel_graph_options_init(&o);
        o.flags = ACCEL_GRAPH_NO_FUSION;
        if (!aok(accel_queue_end_capture(q, &g), "accel_queue_end_capture") ||
            !aok(accel_graph_instantiate(g, &o), "accel_graph_instantiate") ||
            !aok(accel_graph_backend_replay(g, &native), "accel_graph_backend_replay"))
            goto done;
        const int rounds = 7;
        std::vector<double> t(reps), raw, acc, ratio;
        size_t launches = 0;
        for (int r = 0; r <= rounds; r++) {
            double m[2] = {0, 0};
            for (int k = 0; k < 2; k++) {
                const bool is_accel = (k + r) % 2 == 1;
                for (size_t i = 0; i < reps; i++) {
                    double t0 = now_us();
                    if (is_accel) {
                        if (!aok(accel_graph_launch(g, q), "accel_graph_launch") ||
                            !aok(accel_queue_finish(q), "accel_queue_finish"))
                            goto done;
                        launches++;
                    } else {
                        cudaGraphLaunch(ge, s);
                        if (!ok(cudaStreamSynchronize(s), "cudaStreamSynchronize"))
                            goto done;
                    }
                    t[i] = now_us() - t0;
                }
                m[is_accel] = median(t);
            }
            if (r) { /* round 0 warms up */
                raw.push_back(m[0]);
                acc.push_back(m[1]);
                ratio.push_back(m[1] / m[0]);
            }
        }
        std::vector<float> h(n);
        if (!aok(accel_queue_read_blocking(q, x, 0, h.data(), n * 4), "accel_queue_read_blocking"))
            goto done;
        for (size_t i = 0; i < n; i++)
            if ((double)h[i] != (double)(launches * ops)) {
                std::fprintf(stderr, "accel: x[%zu] = %.1f, expected %.1f\n", i, h[i],
                             (double)(launches * ops));
                goto done;
            }
        auto span = [](const std::vector<double> &v) {
            static char buf[64];
            std::snprintf(buf, sizeof buf, "(%.2f..%.2f)", *std::min_element(v.begin(), v.end()),
                          *std::max_element(v.begin(), v.end()));
            return std::string(buf);
        };
        std::printf("accel on %s vs the raw graph, %d interleaved rounds of %zu runs each, median "
                    "of the rounds' medians (min..max)\n",
                    name, rounds, reps);
        std::printf("  raw cudaGraphLaunch:               %8.1f us %s\n", median(raw),
                    span(raw).c_str());
        std::printf("  accel graph replay, unfused (%s): %8.1f us %s\n",
                    native ? "backend entries" : "core replay", median(acc), span(acc).c_str());
        std::printf("  accel replay / raw graph:          %8.3f   %s  (target <= 1.05)\n",
                    median(ratio), span(ratio).c_str());
        std::printf("accel's results agree with the reference (x = %.0f)\n",
                    (double)(launches * ops));
        rc = 0;
    }
done:
    accel_graph_release(g);
    accel_buffer_release(x);
    accel_buffer_release(one);
    accel_queue_release(q);
    accel_runtime_close(rt);
    return rc;
}

/* The chain layouts over n f32 elements (n a multiple of 4096). Returns 0 when they ran and
 * agree. */
int chains(size_t n)
{
    float *x = nullptr, *y = nullptr, *out = nullptr, *ref = nullptr;
    const size_t bytes = n * 4, nvec = n / 4;
    if (!ok(cudaMalloc(&x, bytes), "cudaMalloc") || !ok(cudaMalloc(&y, bytes), "cudaMalloc") ||
        !ok(cudaMalloc(&out, bytes), "cudaMalloc") || !ok(cudaMalloc(&ref, bytes), "cudaMalloc"))
        return 1;
    std::vector<float> h(4096);
    for (size_t k = 0; k < 4096; k++)
        h[k] = (float)((double)((k * 7) % 4096) / 2048.0 - 1.0);
    for (size_t off = 0; off < n; off += 4096) {
        ok(cudaMemcpy(x + off, h.data(), 4096 * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
        ok(cudaMemcpy(y + off, h.data(), 4096 * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    cudaStream_t s;
    cudaEvent_t e0, e1;
    if (!ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate") ||
        !ok(cudaEventCreate(&e0), "cudaEventCreate") ||
        !ok(cudaEventCreate(&e1), "cudaEventCreate"))
        return 1;
    const ChainF cf{2.0f};
    const AxpbyF af{2.0f, 0.5f};
    const float4 *vx = reinterpret_cast<const float4 *>(x),
                 *vy = reinterpret_cast<const float4 *>(y);
    float4 *vo = reinterpret_cast<float4 *>(out);
    auto grid = [&](unsigned per_block) { return (unsigned)((nvec + per_block - 1) / per_block); };
    struct Row {
        const char *name;
        double streams; /* arrays read + written */
        std::vector<double> ms;
    };
    std::vector<Row> rows = {{"cudaMemcpyAsync (the copy bound)", 2, {}},
                             {"chain, 1 step per thread", 2, {}},
                             {"chain, 2 steps per thread, loads first (accel's)", 2, {}},
                             {"chain, 4 steps per thread, loads first", 2, {}},
                             {"a*x + b*y, 1 step per thread", 3, {}},
                             {"a*x + b*y, 2 steps per thread", 3, {}}};
    auto run = [&](size_t r) {
        switch (r) {
        case 0:
            cudaMemcpyAsync(out, x, bytes, cudaMemcpyDeviceToDevice, s);
            break;
        case 1:
            chain_kernel<1, 1><<<grid(256), 256, 0, s>>>(cf, vx, nullptr, vo, nvec);
            break;
        case 2:
            chain_kernel<2, 1><<<grid(512), 256, 0, s>>>(cf, vx, nullptr, vo, nvec);
            break;
        case 3:
            chain_kernel<4, 1><<<grid(1024), 256, 0, s>>>(cf, vx, nullptr, vo, nvec);
            break;
        case 4:
            chain_kernel<1, 2><<<grid(256), 256, 0, s>>>(af, vx, vy, vo, nvec);
            break;
        default:
            chain_kernel<2, 2><<<grid(512), 256, 0, s>>>(af, vx, vy, vo, nvec);
            break;
        }
    };
    /* Bit-for-bit agreement of the layouts (chain: rows 1-3, a*x + b*y: rows 4-5). */
    std::vector<float> h1(1 << 20), h2(1 << 20);
    for (size_t r = 1; r < rows.size(); r++) {
        run(r);
        if (r == 1 || r == 4) {
            ok(cudaMemcpyAsync(ref, out, bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");
            continue;
        }
        for (size_t off : {(size_t)0, n / 2 - (1 << 19), n - (1 << 20)}) {
            ok(cudaMemcpyAsync(h1.data(), ref + off, 4 << 20, cudaMemcpyDeviceToHost, s), "read");
            ok(cudaMemcpyAsync(h2.data(), out + off, 4 << 20, cudaMemcpyDeviceToHost, s), "read");
            if (!ok(cudaStreamSynchronize(s), "cudaStreamSynchronize"))
                return 1;
            if (std::memcmp(h1.data(), h2.data(), 4 << 20) != 0) {
                std::fprintf(stderr, "%s: differs from the 1-step layout\n", rows[r].name);
                return 1;
            }
        }
    }
    for (int round = 0; round < 8; round++)
        for (size_t r = 0; r < rows.size(); r++) {
            cudaEventRecord(e0, s);
            run(r);
            cudaEventRecord(e1, s);
            if (!ok(cudaEventSynchronize(e1), "cudaEventSynchronize"))
                return 1;
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (round) /* round 0 warms up */
                rows[r].ms.push_back(ms);
        }
    const double copy_gbs = 2.0 * (double)bytes / (median(rows[0].ms) * 1e6);
    std::printf("raw CUDA chain layouts over %zu f32, median of 7 rounds (min..max), "
                "GB/s of bytes read + written, fraction of cudaMemcpyAsync\n",
                n);
    for (const Row &r : rows) {
        double mn = *std::min_element(r.ms.begin(), r.ms.end());
        double mx = *std::max_element(r.ms.begin(), r.ms.end());
        double gbs = r.streams * (double)bytes / (median(r.ms) * 1e6);
        std::printf("  %-50s %8.3f ms (%.3f..%.3f)  %6.0f GB/s  %.3f of copy\n", r.name,
                    median(r.ms), mn, mx, gbs, gbs / copy_gbs);
    }
    std::printf("chain layouts agree bit for bit\n");
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(y);
    cudaFree(out);
    cudaFree(ref);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const size_t n = opt(argc, argv, "--n", 1024), ops = opt(argc, argv, "--ops", 100),
                 reps = opt(argc, argv, "--reps", 500);
    const int device = (int)opt(argc, argv, "--device", 0);
    const size_t chain_n = opt(argc, argv, "--chain-n", 0);
    const char *accel_dev = opt_str(argc, argv, "--accel");
    if (n == 0 || n % 4 || ops == 0 || reps == 0) {
        std::fprintf(stderr, "--n (a multiple of 4), --ops and --reps must be > 0\n");
        return 2;
    }
    if (chain_n % 4096) {
        std::fprintf(stderr, "--chain-n must be a multiple of 4096\n");
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
    if (accel_dev && versus_accel(accel_dev, n, ops, reps, ge, s) != 0)
        return 1;
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(one);
    return chain_n ? chains(chain_n) : 0;
}
