/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/device.c — the runtime's device list (every device of every loaded
 * backend, in candidate order), names like "cuda:1", lookup by index, by
 * name and the default, and properties. The runtime owns devices. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"
#include "base/loader.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"

accel_status accel__devices_build(accel_runtime *rt)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < rt->backend_count; i++) {
        if (rt->backends[i].loaded)
            total += rt->backends[i].device_count;
    }
    rt->device_count = 0;
    if (total == 0)
        return ACCEL_SUCCESS;
    rt->devices = calloc(total, sizeof *rt->devices);
    if (!rt->devices)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                           "accel_runtime_open: out of host memory");
    for (uint32_t b = 0; b < rt->backend_count; b++) {
        accel__backend *be = &rt->backends[b];
        if (!be->loaded)
            continue;
        be->first_device = rt->device_count;
        for (uint32_t d = 0; d < be->device_count; d++) {
            accel_device *dev = &rt->devices[rt->device_count];
            dev->rt = rt;
            dev->be = be;
            dev->index = d;
            dev->global_index = rt->device_count;
            snprintf(dev->name, sizeof dev->name, "%s:%u", be->name, d);
            accel_device_properties_init(&dev->props);
            accel__clear_error();
            int32_t st = be->vt->device_properties(be->ctx, d, &dev->props);
            if (st != ACCEL_SUCCESS) {
                accel__log(ACCEL_LOG_WARN, "%s: reading its properties failed: %s", dev->name,
                           *accel_last_error() ? accel_last_error() : accel_status_string(st));
                accel_device_properties_init(&dev->props);
            }
            /* The device name's prefix is the configured section's name. */
            dev->props.struct_size = sizeof dev->props;
            snprintf(dev->props.backend, sizeof dev->props.backend, "%s", be->name);
            dev->props.index = d;
            dev->host_accessible = dev->props.host_accessible && be->vt->buffer_host_ptr;
            pthread_mutex_init(&dev->staging_lock, NULL);
            rt->device_count++;
            if (accel__handle_new(ACCEL__T_DEVICE, dev, rt->gate, &dev->handle) != ACCEL_SUCCESS)
                return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                                   "accel_runtime_open: out of host memory");
        }
    }
    rt->default_device = &rt->devices[0];
    return ACCEL_SUCCESS;
}

void accel__devices_free(accel_runtime *rt)
{
    for (uint32_t i = 0; i < rt->device_count; i++) {
        accel_device *dev = &rt->devices[i];
        accel__handle_free(dev->handle);
        if (dev->staging)
            dev->be->vt->queue_destroy(dev->be->ctx, dev->staging);
        dev->staging = NULL;
        pthread_mutex_destroy(&dev->staging_lock);
    }
    free(rt->devices);
    rt->devices = NULL;
    rt->device_count = 0;
    rt->default_device = NULL;
}

uint32_t accel_device_count(const accel_runtime *rt)
{
    ACCEL__ENTER_GETTER("accel_device_count", rt, ACCEL__T_RUNTIME, 0);
    return rt->device_count;
}

accel_status accel_device_get(accel_runtime *rt, uint32_t index, accel_device **out_device)
{
    static const char fn[] = "accel_device_get";
    ACCEL__CALL(call);
    ACCEL__TRY(
        accel__enter_out(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt, out_device, "out_device"));
    *out_device = NULL;
    if (index >= rt->device_count)
        return accel__fail(ACCEL_ERROR_NOT_FOUND, "%s: index %u but the runtime has %u device(s)",
                           fn, index, rt->device_count);
    *out_device = rt->devices[index].handle;
    return ACCEL_SUCCESS;
}

static void known_devices(const accel_runtime *rt, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < rt->device_count && n < cap; i++) {
        int w = snprintf(out + n, cap - n, "%s%s", i ? ", " : "", rt->devices[i].name);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

accel_status accel_device_get_by_name(accel_runtime *rt, const char *name,
                                      accel_device **out_device)
{
    static const char fn[] = "accel_device_get_by_name";
    ACCEL__CALL(call);
    ACCEL__TRY(
        accel__enter_out(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt, out_device, "out_device"));
    accel_device *dev = NULL;
    accel_status st = accel__device_find(rt, name, &dev);
    *out_device = dev ? dev->handle : NULL;
    return st;
}

accel_status accel__device_find(accel_runtime *rt, const char *name, accel_device **out_device)
{
    static const char fn[] = "accel_device_get_by_name";
    *out_device = NULL;
    if (!name)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: name is NULL", fn);
    if (strcmp(name, "default") == 0) {
        *out_device = rt->default_device;
        return ACCEL_SUCCESS;
    }

    /* NAME or NAME:INDEX, NAME of letters, digits, '_', '-'. Every refusal
     * lists the devices there are. */
    char known[512];
    known_devices(rt, known, sizeof known);
    size_t len = strcspn(name, ":");
    if (len == 0 || len >= 32)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: '%s' is not a device name (expected BACKEND or BACKEND:INDEX, "
                           "e.g. cpu, cuda:1, or default); known devices: %s",
                           fn, name, known);
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: '%s' is not a device name (expected BACKEND or "
                               "BACKEND:INDEX, e.g. cpu, cuda:1, or default); known devices: %s",
                               fn, name, known);
    }
    uint64_t index = 0;
    if (name[len] == ':') {
        const char *p = name + len + 1;
        if (!*p)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: '%s' has no index after ':' (e.g. cuda:1); known devices: %s",
                               fn, name, known);
        for (; *p; p++) {
            if (*p < '0' || *p > '9')
                return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                   "%s: '%s' has a malformed index (decimal digits expected); "
                                   "known devices: %s",
                                   fn, name, known);
            index = index * 10 + (uint64_t)(*p - '0');
            if (index > UINT32_MAX)
                return accel__fail(ACCEL_ERROR_NOT_FOUND,
                                   "%s: no device '%s': index too large; known devices: %s", fn,
                                   name, known);
        }
    }

    for (uint32_t b = 0; b < rt->backend_count; b++) {
        const accel__backend *be = &rt->backends[b];
        if (strlen(be->name) != len || strncmp(be->name, name, len) != 0)
            continue;
        if (!be->loaded)
            return accel__fail(ACCEL_ERROR_NOT_FOUND,
                               "%s: no device '%s': backend %s did not load (%s); known devices: "
                               "%s",
                               fn, name, be->name, be->reason, known);
        if (index >= be->device_count)
            return accel__fail(ACCEL_ERROR_NOT_FOUND,
                               "%s: no device '%s': backend %s has %u device(s); known devices: "
                               "%s",
                               fn, name, be->name, be->device_count, known);
        *out_device = &rt->devices[be->first_device + (uint32_t)index];
        return ACCEL_SUCCESS;
    }
    return accel__fail(ACCEL_ERROR_NOT_FOUND, "%s: no device '%s'; known devices: %s", fn, name,
                       known);
}

accel_status accel_device_default(accel_runtime *rt, accel_device **out_device)
{
    static const char fn[] = "accel_device_default";
    ACCEL__CALL(call);
    ACCEL__TRY(
        accel__enter_out(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt, out_device, "out_device"));
    *out_device = rt->default_device->handle;
    return ACCEL_SUCCESS;
}

void accel_device_properties_init(accel_device_properties *p)
{
    accel__struct_init(p, sizeof *p);
}

accel_status accel_device_properties_get(const accel_device *dev, accel_device_properties *out)
{
    static const char fn[] = "accel_device_properties_get";
    ACCEL__CALL(call);
    size_t size;
    ACCEL__TRY(accel__enter_struct_out(&call, fn, dev, ACCEL__T_DEVICE, "dev", &dev, out,
                                       ACCEL__DEVICE_PROPERTIES_SIZE_V1, sizeof *out, &size));
    accel_device_properties now = dev->props;
    accel_device_properties fresh;
    accel_device_properties_init(&fresh);
    /* memory_free changes; read everything again and keep the fresh figure. */
    if (dev->be->vt->device_properties(dev->be->ctx, dev->index, &fresh) == ACCEL_SUCCESS)
        now.memory_free = fresh.memory_free;
    accel__struct_out_write(out, &now, size);
    return ACCEL_SUCCESS;
}

const char *accel_device_name(const accel_device *dev)
{
    ACCEL__ENTER_GETTER("accel_device_name", dev, ACCEL__T_DEVICE, "");
    return dev->name;
}
