/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// Every atomic on every type CUDA has it for, from every thread.
__global__ void atomics(int *i, unsigned *u, unsigned long long *ull, float *f, double *d)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&i[0], t);
    atomicSub(&i[1], t);
    atomicMin(&i[2], 1000 - t);
    atomicMax(&i[3], t - 1000);
    atomicAnd(&i[4], ~(1 << (t % 31)));
    atomicOr(&i[5], 1 << (t % 31));
    atomicXor(&i[6], t);
    atomicExch(&i[7], 7);
    atomicInc(&u[0], 100u);
    atomicDec(&u[1], 100u);
    atomicMin(&u[2], (unsigned)t + 5u);
    atomicMax(&u[3], (unsigned)t);
    atomicAdd(&ull[0], (unsigned long long)t << 33);
    // A CAS loop counting the threads: every thread's CAS retried until it
    // lands, so the result (n) does not depend on which thread came first.
    unsigned long long seen = ull[1], old;
    do {
        old = seen;
        seen = atomicCAS(&ull[1], old, old + 1ull);
    } while (seen != old);
    atomicAdd(&f[0], 0.5f);
    atomicExch(&f[1], 2.5f);
    atomicAdd(&d[0], 0.25 * t);
}
