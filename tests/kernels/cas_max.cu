/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// A float maximum and a double sum through atomicCAS loops on the bits (the
// CUDA C Programming Guide's atomicAdd for double, written this way before
// sm_60 had one).
__device__ float atomicMaxFloat(float *addr, float value)
{
    int *address = (int *)addr;
    int old = *address, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= value)
            break;
        old = atomicCAS(address, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ double atomicAddDouble(double *address, double val)
{
    unsigned long long int *address_as_ull = (unsigned long long int *)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                        __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void cas_max(const float *x, int n, float *max_out, double *sum_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMaxFloat(max_out, x[i]);
        atomicAddDouble(sum_out, (double)(int)x[i]);
    }
}
