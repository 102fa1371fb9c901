/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/host_register.c — accel_host_register / accel_host_unregister: page-
 * locking memory the caller allocated, through the backend's optional
 * host_register entry. The runtime keeps the registered ranges (so overlaps
 * are refused, unregister finds the device, and close undoes what is left). */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"

struct accel__host_reg {
    char *ptr;
    size_t bytes;
    accel_device *dev;
    bool locked; /* the backend's host_register accepted it */
    struct accel__host_reg *prev, *next;
};

/* The registration overlapping [p, p + bytes), or starting at p when bytes
 * is 0; rt->lock held. */
static accel__host_reg *find_locked(accel_runtime *rt, const char *p, size_t bytes)
{
    for (accel__host_reg *r = rt->host_regs; r; r = r->next) {
        if (r->ptr == p)
            return r;
        if (bytes && r->bytes && p < r->ptr + r->bytes && r->ptr < p + bytes)
            return r;
    }
    return NULL;
}

static accel_status lock_range(accel_device *dev, accel__host_reg *r, const char *fn)
{
    const accel_backend *vt = dev->be->vt;
    if (!r->bytes || !vt->host_register)
        return ACCEL_SUCCESS;
    accel__clear_error();
    int32_t rc = vt->host_register(dev->be->ctx, r->ptr, r->bytes);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: %zu bytes at %p on %s", fn, r->bytes,
                                 (void *)r->ptr, dev->name);
    r->locked = true;
    return ACCEL_SUCCESS;
}

accel_status accel_host_register(accel_device *dev, void *ptr, size_t bytes)
{
    static const char fn[] = "accel_host_register";
    ACCEL__CALL(call);
    accel_status st = accel__enter(&call, fn, dev, ACCEL__T_DEVICE, "dev", &dev);
    if (st != ACCEL_SUCCESS)
        return st;
    if (!ptr)
        return bytes ? accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: ptr is NULL", fn)
                     : ACCEL_SUCCESS;
    if ((uintptr_t)ptr > UINTPTR_MAX - bytes)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: ptr + %zu bytes overflows", fn,
                           bytes);
    accel__host_reg *r = calloc(1, sizeof *r);
    if (!r)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    r->ptr = ptr;
    r->bytes = bytes;
    r->dev = dev;
    accel_runtime *rt = dev->rt;
    pthread_mutex_lock(&rt->lock);
    accel__host_reg *old = find_locked(rt, ptr, bytes);
    if (old) {
        pthread_mutex_unlock(&rt->lock);
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: [%p, +%zu) overlaps [%p, +%zu) registered already on %s", fn, ptr,
                         bytes, (void *)old->ptr, old->bytes, old->dev->name);
        free(r);
        return st;
    }
    /* Listed before locking, so a racing overlap is refused; removed again
     * if the backend refuses. */
    ACCEL__LIST_PUSH(rt->host_regs, r);
    pthread_mutex_unlock(&rt->lock);
    st = lock_range(dev, r, fn);
    if (st != ACCEL_SUCCESS) {
        ACCEL__RT_LIST(REMOVE, rt, host_regs, r);
        free(r);
    }
    return st;
}

static accel_status unlock_and_free(accel__host_reg *r, const char *fn)
{
    accel_status st = ACCEL_SUCCESS;
    if (r->locked) {
        accel__clear_error();
        int32_t rc = r->dev->be->vt->host_unregister(r->dev->be->ctx, r->ptr);
        if (rc != ACCEL_SUCCESS)
            st = accel__fail_relay((accel_status)rc, "%s: %p on %s", fn, (void *)r->ptr,
                                   r->dev->name);
    }
    free(r);
    return st;
}

accel_status accel_host_unregister(accel_device *dev, void *ptr)
{
    static const char fn[] = "accel_host_unregister";
    ACCEL__CALL(call);
    accel_status st = accel__enter(&call, fn, dev, ACCEL__T_DEVICE, "dev", &dev);
    if (st != ACCEL_SUCCESS || !ptr)
        return st;
    accel_runtime *rt = dev->rt;
    pthread_mutex_lock(&rt->lock);
    accel__host_reg *r = find_locked(rt, ptr, 0);
    if (r && r->ptr == (char *)ptr)
        ACCEL__LIST_REMOVE(rt->host_regs, r);
    else
        r = NULL;
    pthread_mutex_unlock(&rt->lock);
    if (!r)
        return accel__fail(ACCEL_ERROR_NOT_FOUND,
                           "%s: %p does not start a range registered with accel_host_register", fn,
                           ptr);
    return unlock_and_free(r, fn);
}

void accel__host_regs_free(accel_runtime *rt)
{
    while (rt->host_regs) {
        accel__host_reg *r = rt->host_regs;
        ACCEL__LIST_REMOVE(rt->host_regs, r);
        (void)unlock_and_free(r, "accel_runtime_close");
    }
}

bool accel__host_range_locked(accel_runtime *rt, const void *ptr, size_t bytes)
{
    const char *p = ptr;
    void *value = NULL;
    if (accel__handle_type(ptr, &value) == ACCEL__T_HOST_MEMORY)
        return true;
    bool inside = false;
    pthread_mutex_lock(&rt->lock);
    for (accel__host_reg *r = rt->host_regs; r && !inside; r = r->next)
        inside = p >= r->ptr && (size_t)(p - r->ptr) <= r->bytes &&
                 bytes <= r->bytes - (size_t)(p - r->ptr);
    pthread_mutex_unlock(&rt->lock);
    return inside;
}
