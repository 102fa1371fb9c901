/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/cache.c — the runtime's generated array kernels, one kernel
 * object per (function, dtypes, variant), made on first use and kept until
 * the runtime closes. Compiled code is cached below this by the kernel
 * machinery (per device, in memory and on disk), so a process that meets a
 * kernel again finds its code on disk. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/objects.h"
#include "base/status.h"
#include "kernels/kernels.h"

#define ACACHE_BUCKETS 256

typedef struct aentry {
    struct aentry *next;
    accel_kernel *k;
    char key[ACCEL__ANAME_MAX];
} aentry;

struct accel__acache {
    pthread_mutex_t lock;
    aentry *bucket[ACACHE_BUCKETS];
};

static pthread_mutex_t make_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % ACACHE_BUCKETS;
}

accel_status accel__array_kernel(accel_runtime *rt, const char *entry, accel__asource source,
                                 const void *ctx, unsigned tol_ulp, accel_kernel **out)
{
    pthread_mutex_lock(&make_lock);
    if (!rt->arrays) {
        struct accel__acache *c = calloc(1, sizeof *c);
        if (c)
            pthread_mutex_init(&c->lock, NULL);
        rt->arrays = c;
    }
    struct accel__acache *c = rt->arrays;
    pthread_mutex_unlock(&make_lock);
    if (!c)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "array kernels: out of host memory");
    unsigned h = hash(entry);
    pthread_mutex_lock(&c->lock);
    for (aentry *e = c->bucket[h]; e; e = e->next)
        if (strcmp(e->key, entry) == 0) {
            *out = e->k;
            pthread_mutex_unlock(&c->lock);
            return ACCEL_SUCCESS;
        }
    accel_status st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    char *src = source(ctx);
    aentry *e = src ? calloc(1, sizeof *e) : NULL;
    if (e) {
        accel_kernel_options o;
        accel_kernel_options_init(&o);
        o.tolerance_ulp = tol_ulp ? tol_ulp : 1;
        st = accel__kernel_library_create(rt->handle, src, entry, &o, &e->k);
    }
    if (st == ACCEL_SUCCESS) {
        snprintf(e->key, sizeof e->key, "%s", entry);
        e->next = c->bucket[h];
        c->bucket[h] = e;
        *out = e->k;
    } else {
        free(e);
        if (st == ACCEL_ERROR_OUT_OF_HOST_MEMORY)
            accel__fail(st, "%s: out of host memory", entry);
    }
    pthread_mutex_unlock(&c->lock);
    free(src);
    return st;
}

void accel__arrays_close(accel_runtime *rt)
{
    struct accel__acache *c = rt->arrays;
    if (!c)
        return;
    /* The kernels themselves are on the runtime's list: accel__kernels_close
     * releases them. */
    for (unsigned i = 0; i < ACACHE_BUCKETS; i++)
        while (c->bucket[i]) {
            aentry *e = c->bucket[i];
            c->bucket[i] = e->next;
            free(e);
        }
    pthread_mutex_destroy(&c->lock);
    free(c);
    rt->arrays = NULL;
}
