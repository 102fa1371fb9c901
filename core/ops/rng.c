/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/rng.c — random streams that advance themselves: an accel_rng holds a
 * Philox4x32-10 key (the seed) and a position, and every fill through it
 * takes the next unused part of the stream, so two fills never repeat each
 * other unless the caller seeks back. The numbers are those of
 * accel_random_uniform / accel_random_normal at the element offset the
 * position gives; this file only keeps the books. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "ops/ops.h"

struct accel_rng {
    uint64_t seed;
    /* Philox counter blocks (128 bits: four f32 or two f64 elements) used so
     * far. Counted in blocks, not elements, so that fills of different dtypes
     * never share a block (an f64 element spans two f32 elements' words). */
    uint64_t position;
    pthread_mutex_t lock;
};

/* Random streams belong to no runtime: they are registered by address in the
 * registry that also holds pinned host blocks. */
static accel_status rng_check(const accel_rng *rng, const char *fn)
{
    if (!rng)
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE, "%s: rng is NULL", fn);
    if (accel__handle_type(rng, NULL) != ACCEL__T_RNG)
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE,
                           "%s: rng (%p) is not a live random stream (already released, or "
                           "never created)",
                           fn, (const void *)rng);
    return ACCEL_SUCCESS;
}

accel_status accel_rng_create(uint64_t seed, accel_rng **out_rng)
{
    static const char fn[] = "accel_rng_create";
    if (!out_rng)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out_rng is NULL", fn);
    *out_rng = NULL;
    accel_rng *rng = calloc(1, sizeof *rng);
    if (!rng)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    rng->seed = seed;
    if (pthread_mutex_init(&rng->lock, NULL) != 0) {
        free(rng);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: cannot create a mutex", fn);
    }
    if (accel__handle_add(rng, ACCEL__T_RNG, NULL) != ACCEL_SUCCESS) {
        pthread_mutex_destroy(&rng->lock);
        free(rng);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    *out_rng = rng;
    return ACCEL_SUCCESS;
}

void accel_rng_release(accel_rng *rng)
{
    if (!rng)
        return;
    if (rng_check(rng, "accel_rng_release") != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return;
    }
    accel__handle_remove(rng);
    pthread_mutex_destroy(&rng->lock);
    free(rng);
}

accel_status accel_rng_get(const accel_rng *rng, uint64_t *out_seed, uint64_t *out_position)
{
    accel_status st = rng_check(rng, "accel_rng_get");
    if (st != ACCEL_SUCCESS)
        return st;
    accel_rng *r = (accel_rng *)rng;
    pthread_mutex_lock(&r->lock);
    if (out_seed)
        *out_seed = r->seed;
    if (out_position)
        *out_position = r->position;
    pthread_mutex_unlock(&r->lock);
    return ACCEL_SUCCESS;
}

accel_status accel_rng_seek(accel_rng *rng, uint64_t position)
{
    accel_status st = rng_check(rng, "accel_rng_seek");
    if (st != ACCEL_SUCCESS)
        return st;
    pthread_mutex_lock(&rng->lock);
    rng->position = position;
    pthread_mutex_unlock(&rng->lock);
    return ACCEL_SUCCESS;
}

/* Elements of dtype in one Philox block; 0 for dtypes random fills lack. */
static uint64_t per_block(accel_dtype dtype)
{
    return dtype == ACCEL_F32 ? 4 : dtype == ACCEL_F64 ? 2 : 0;
}

/* Take the next blocks of the stream for out.count elements of dtype and
 * enqueue the fill there; the position moves only when the fill enqueued. */
static accel_status rng_fill(const char *fn, accel_queue *q, accel_rng *rng, bool normal,
                             accel_dtype dtype, double mean, double stddev, accel_slice out)
{
    accel_status st = rng_check(rng, fn);
    if (st != ACCEL_SUCCESS)
        return st;
    uint64_t k = per_block(dtype);
    if (k == 0)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: dtype %s: random numbers are f32 or f64", fn,
                           accel_dtype_name(dtype));
    pthread_mutex_lock(&rng->lock);
    uint64_t blocks = out.count / k + (out.count % k != 0);
    if (rng->position > UINT64_MAX / k || blocks > UINT64_MAX / k - rng->position) {
        uint64_t pos = rng->position;
        pthread_mutex_unlock(&rng->lock);
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: position %llu + %zu elements runs past the end of the stream", fn,
                           (unsigned long long)pos, out.count);
    }
    uint64_t offset = rng->position * k;
    st = accel__random_named(fn, q, normal, dtype, rng->seed, offset, mean, stddev, out);
    if (st == ACCEL_SUCCESS)
        rng->position += blocks;
    pthread_mutex_unlock(&rng->lock);
    return st;
}

accel_status accel_rng_uniform(accel_queue *q, accel_rng *rng, accel_dtype dtype, accel_slice out)
{
    return rng_fill("accel_rng_uniform", q, rng, false, dtype, 0.0, 0.0, out);
}

accel_status accel_rng_normal(accel_queue *q, accel_rng *rng, accel_dtype dtype, double mean,
                              double stddev, accel_slice out)
{
    return rng_fill("accel_rng_normal", q, rng, true, dtype, mean, stddev, out);
}
