# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Layouts of an elementwise kernel, z = a*x + b*y over 2^28 f32 in place (z is y), timed with
CuPy on the GPU machine against a device-to-device copy: the shape accel generates (4 consecutive
elements per thread, one 16-byte vector per array, about n / 1024 blocks of 256 threads) and its
alternatives (a capped grid-stride grid, 8 elements per thread, 128 threads per block), to pick
the layout from measured figures. Prints GB/s counting bytes read plus written, and the ratio to
the copy."""
import statistics

import cupy as cp

N = 1 << 28
SRC = r"""
template <int V>
__device__ __forceinline__ void body(const float *x, float *y, float a, float b, size_t n) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)gridDim.x * blockDim.x;
  const size_t nv = n / (4 * V);
  for (size_t v = t; v < nv; v += s) {
    float4 xv[V], yv[V];
#pragma unroll
    for (int j = 0; j < V; j++) {
      xv[j] = ((const float4 *)x)[V * v + j];
      yv[j] = ((const float4 *)y)[V * v + j];
    }
#pragma unroll
    for (int j = 0; j < V; j++) {
      yv[j].x = a * xv[j].x + b * yv[j].x;
      yv[j].y = a * xv[j].y + b * yv[j].y;
      yv[j].z = a * xv[j].z + b * yv[j].z;
      yv[j].w = a * xv[j].w + b * yv[j].w;
      ((float4 *)y)[V * v + j] = yv[j];
    }
  }
}
extern "C" __global__ void v4(const float *x, float *y, float a, float b, size_t n) { body<1>(x, y, a, b, n); }
extern "C" __global__ void v8(const float *x, float *y, float a, float b, size_t n) { body<2>(x, y, a, b, n); }
extern "C" __global__ void v16(const float *x, float *y, float a, float b, size_t n) { body<4>(x, y, a, b, n); }
"""


def median_ms(fn, reps=7):
    fn()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    t = []
    for _ in range(reps):
        s.record()
        fn()
        e.record()
        e.synchronize()
        t.append(cp.cuda.get_elapsed_time(s, e))
    return statistics.median(t)


def main():
    mod = cp.RawModule(code=SRC, options=("--fmad=false", "--std=c++17"))
    x = cp.random.default_rng(1).random(N, dtype=cp.float32)
    y = cp.random.default_rng(2).random(N, dtype=cp.float32)
    c = cp.empty_like(x)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    copy_ms = median_ms(lambda: cp.cuda.runtime.memcpy(c.data.ptr, x.data.ptr, 4 * N, 3))
    copy_gbs = 8.0 * N / copy_ms / 1e6
    print(f"  device copy (memcpy D2D)                 {copy_ms:8.3f} ms {copy_gbs:8.1f} GB/s")
    a, b, n = cp.float32(1.0), cp.float32(0.5), cp.uint64(N)
    rows = [("v4", 256, N // 1024, "4/thread, n/1024 blocks of 256 (accel's)"),
            ("v4", 256, sms * 8, "4/thread, grid-stride, SMs*8 blocks"),
            ("v4", 256, sms * 32, "4/thread, grid-stride, SMs*32 blocks"),
            ("v4", 128, N // 512, "4/thread, n/512 blocks of 128"),
            ("v4", 512, N // 2048, "4/thread, n/2048 blocks of 512"),
            ("v8", 256, N // 2048, "8/thread, n/2048 blocks of 256"),
            ("v16", 256, N // 4096, "16/thread, n/4096 blocks of 256")]
    for name, block, grid, what in rows:
        k = mod.get_function(name)
        ms = median_ms(lambda: k((grid,), (block,), (x, y, a, b, n)))
        gbs = 12.0 * N / ms / 1e6
        print(f"  {what:40s} {ms:8.3f} ms {gbs:8.1f} GB/s  {gbs / copy_gbs:6.3f} of copy")


if __name__ == "__main__":
    main()
