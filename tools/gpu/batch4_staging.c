/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* batch4_staging.c — a GPU-machine experiment, not part of the library: how
 * fast pageable host memory reaches the device through page-locked staging
 * of different shapes, with the CUDA runtime directly. Workers copy pieces
 * of the source into a ring of page-locked pieces and move on to the next
 * piece as soon as its ring slot is free (they never wait for the thread
 * that starts the DMAs); the issuing thread starts each piece's DMA once
 * all its parts are in and frees a slot once its DMA is done. Varied: piece
 * size, ring size, threads, plain memcpy or non-temporal stores. Also the
 * copy alone (no DMA) and the DMA alone (pinned source).
 *
 *   gcc -O2 -o /tmp/staging tools/gpu/batch4_staging.c -I/usr/local/cuda/include \
 *       -L/usr/local/cuda/lib64 -lcudart -lpthread && /tmp/staging
 */
#include <cuda_runtime.h>
#include <emmintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXT 32
#define MAXK 256

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct exp_s {
    const char *src;
    size_t total, piece;
    unsigned k, threads;
    int nt, dma;
    char *ring[MAXK];
    atomic_uint parts_in[MAXK]; /* threads done with the piece in this slot */
    atomic_ulong freed;         /* pieces whose slot is free again (DMA done) */
    atomic_int go;
    pthread_t tid[MAXT];
    unsigned ids[MAXT];
} exp_s;

static exp_s X;

static void copy_nt(char *dst, const char *src, size_t len)
{
    size_t i = 0;
    for (; i + 64 <= len; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
        _mm_stream_si128((__m128i *)(dst + i), a);
        _mm_stream_si128((__m128i *)(dst + i + 16), b);
        _mm_stream_si128((__m128i *)(dst + i + 32), c);
        _mm_stream_si128((__m128i *)(dst + i + 48), d);
    }
    memcpy(dst + i, src + i, len - i);
    _mm_sfence();
}

static void *worker(void *arg)
{
    unsigned w = *(unsigned *)arg;
    while (!atomic_load(&X.go))
        ;
    size_t pieces = (X.total + X.piece - 1) / X.piece;
    for (size_t p = 0; p < pieces; p++) {
        while (p >= atomic_load_explicit(&X.freed, memory_order_acquire) + X.k)
            _mm_pause();
        size_t off = p * X.piece, len = X.total - off < X.piece ? X.total - off : X.piece;
        size_t share = (len / X.threads + 63) & ~(size_t)63;
        size_t lo = w * share < len ? w * share : len;
        size_t hi = w + 1 == X.threads || lo + share > len ? len : lo + share;
        char *dst = X.ring[p % X.k];
        if (hi > lo) {
            if (X.nt)
                copy_nt(dst + lo, X.src + off + lo, hi - lo);
            else
                memcpy(dst + lo, X.src + off + lo, hi - lo);
        }
        atomic_fetch_add_explicit(&X.parts_in[p % X.k], 1, memory_order_release);
    }
    return NULL;
}

/* One run: GB/s of the whole source, wall time. */
static double run(const char *src, size_t total, char *dev, size_t piece, unsigned k,
                  unsigned threads, int nt, int dma, char *pool, cudaStream_t s, cudaEvent_t *ev)
{
    memset(&X, 0, sizeof X);
    X.src = src, X.total = total, X.piece = piece, X.k = k, X.threads = threads, X.nt = nt;
    X.dma = dma;
    for (unsigned i = 0; i < k; i++)
        X.ring[i] = pool + (size_t)i * piece;
    for (unsigned t = 0; t < threads; t++) {
        X.ids[t] = t;
        pthread_create(&X.tid[t], NULL, worker, &X.ids[t]);
    }
    double t0 = now_ms();
    atomic_store(&X.go, 1);
    size_t pieces = (total + piece - 1) / piece, issued = 0, freed = 0;
    while (freed < pieces) {
        if (issued < pieces &&
            atomic_load_explicit(&X.parts_in[issued % k], memory_order_acquire) == threads) {
            size_t off = issued * piece, len = total - off < piece ? total - off : piece;
            atomic_store_explicit(&X.parts_in[issued % k], 0, memory_order_relaxed);
            if (dma) {
                cudaMemcpyAsync(dev + off % ((size_t)64 << 20), X.ring[issued % k], len,
                                cudaMemcpyHostToDevice, s);
                cudaEventRecord(ev[issued % k], s);
            }
            issued++;
            continue;
        }
        if (freed < issued && (!dma || cudaEventQuery(ev[freed % k]) == cudaSuccess)) {
            freed++;
            atomic_store_explicit(&X.freed, freed, memory_order_release);
            continue;
        }
        _mm_pause();
    }
    double ms = now_ms() - t0;
    for (unsigned t = 0; t < threads; t++)
        pthread_join(X.tid[t], NULL);
    return total / ms / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    size_t total = (size_t)400 << 20;
    char *src = malloc(total);
    for (size_t i = 0; i < total; i += 4096)
        src[i] = (char)i;
    memset(src, 1, total);
    char *dev = NULL, *pool = NULL, *pinned_src = NULL;
    cudaStream_t s;
    cudaEvent_t ev[MAXK], e0, e1;
    if (cudaMalloc((void **)&dev, (size_t)80 << 20) != cudaSuccess ||
        cudaHostAlloc((void **)&pool, (size_t)64 << 20, cudaHostAllocPortable) != cudaSuccess ||
        cudaHostAlloc((void **)&pinned_src, (size_t)64 << 20, cudaHostAllocPortable) !=
            cudaSuccess) {
        printf("staging experiment: no CUDA device\n");
        return 0;
    }
    memset(pool, 0, (size_t)64 << 20);
    memset(pinned_src, 1, (size_t)64 << 20);
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int i = 0; i < MAXK; i++)
        cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float best = 0;
    for (int r = 0; r < 6; r++) {
        float ms = 0;
        cudaEventRecord(e0, s);
        cudaMemcpyAsync(dev, pinned_src, (size_t)64 << 20, cudaMemcpyHostToDevice, s);
        cudaEventRecord(e1, s);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        if (r && (64 << 20) / ms / 1e6 > best)
            best = (64 << 20) / ms / 1e6;
    }
    printf("DMA alone, 64 MiB from pinned: %.2f GB/s\n", best);
    struct {
        size_t piece;
        unsigned k;
    } shapes[] = {{(size_t)1 << 20, 8},  {(size_t)2 << 20, 4},   {(size_t)2 << 20, 16},
                  {(size_t)4 << 20, 4},  {(size_t)4 << 20, 16},  {(size_t)8 << 20, 8},
                  {(size_t)16 << 20, 4}, {(size_t)512 << 10, 16}};
    unsigned tcounts[] = {4, 8, 12, 14, 15};
    printf("400 MiB pageable -> ring -> device, GB/s, median of 5 (min..max); copy: no DMA\n");
    for (int dma = 0; dma < 2; dma++)
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
            for (int nt = 0; nt < 2; nt++) {
                printf("%s piece %5zu KiB x %3u (ring %3zu MiB) %-8s:", dma ? "dma " : "copy",
                       shapes[si].piece >> 10, shapes[si].k,
                       (shapes[si].piece * shapes[si].k) >> 20, nt ? "nt-store" : "memcpy");
                for (size_t ti = 0; ti < sizeof tcounts / sizeof tcounts[0]; ti++) {
                    double v[5];
                    for (int r = 0; r < 5; r++)
                        v[r] = run(src, total, dev, shapes[si].piece, shapes[si].k, tcounts[ti], nt,
                                   dma, pool, s, ev);
                    qsort(v, 5, sizeof v[0], cmp);
                    printf("  %u: %.1f (%.0f..%.0f)", tcounts[ti], v[2], v[0], v[4]);
                }
                printf("\n");
                fflush(stdout);
            }
    return 0;
}
