/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/ceilings.c — accel_device_measure_ceilings: asks the device's backend
 * to measure its own ceilings (copy bandwidth, vendor GEMM, bare launch,
 * host<->device copies) through the optional measure_ceilings entry of the
 * plugin table. The plugin does the timing with the vendor's calls; the core
 * only validates, serializes and copies the result out. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"

/* measure_ceilings took the place of reserved[0] of the first table, and
 * the optional entries after it the other reserved slots: the offsets of
 * everything up to op_execute are unchanged since ABI 1, and the first
 * table's size is the smallest the loader accepts. */
_Static_assert(sizeof(accel_backend) >= ACCEL_BACKEND_TABLE_MIN_SIZE,
               "the plugin table only grows");

void accel_ceilings_options_init(accel_ceilings_options *opt)
{
    if (!accel__struct_init(opt, sizeof *opt))
        return;
    opt->what = ACCEL_CEILING_ALL;
}

/* The largest GEMM ceiling size: 3 x n^2 x 8 bytes stays far inside a
 * 64-bit size_t and n inside a BLAS int (2^20: 24 TiB, refused by the
 * allocator with a clear status long before). */
#define ACCEL__CEILINGS_MAX_GEMM_N ((uint64_t)1 << 20)

/* One measurement at a time per process: two would share memory bandwidth
 * and each would report half. */
static pthread_mutex_t measure_lock = PTHREAD_MUTEX_INITIALIZER;

accel_status accel_device_measure_ceilings(accel_device *dev, const accel_ceilings_options *opt,
                                           accel_ceilings *out)
{
    static const char fn[] = "accel_device_measure_ceilings";
    ACCEL__CALL(call);
    size_t out_bytes;
    ACCEL__TRY(accel__enter_struct_out(&call, fn, dev, ACCEL__T_DEVICE, "dev", &dev, out,
                                       ACCEL__CEILINGS_SIZE_V1, sizeof *out, &out_bytes));
    accel_status st;
    accel_ceilings_options o;
    accel_ceilings_options_init(&o);
    if (opt) {
        st = accel__struct_in(fn, "opt", opt, ACCEL__CEILINGS_OPTIONS_SIZE_V1, sizeof o, &o);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    /* What 0 is the default (everything); bits that name no measurement,
     * and GEMM sizes whose n x n x 8-byte matrices a size_t cannot count,
     * are the caller's mistake, not something to measure. */
    if (o.what == 0)
        o.what = ACCEL_CEILING_ALL;
    if (o.what & ~ACCEL_CEILING_ALL)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: opt->what 0x%x has bits that name no ceiling (known: 0x%x, "
                           "ACCEL_CEILING_*)",
                           fn, (unsigned)o.what, (unsigned)ACCEL_CEILING_ALL);
    if (o.gemm_n > ACCEL__CEILINGS_MAX_GEMM_N)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: opt->gemm_n %llu is larger than %llu (three n x n f64 matrices "
                           "must be addressable)",
                           fn, (unsigned long long)o.gemm_n,
                           (unsigned long long)ACCEL__CEILINGS_MAX_GEMM_N);
    const accel_backend *vt = dev->be->vt;
    if (!vt->measure_ceilings)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: the %s backend cannot measure ceilings (no measure_ceilings entry)",
                           fn, dev->be->name);
    accel_ceilings c;
    accel__struct_init(&c, sizeof c);
    pthread_mutex_lock(&measure_lock);
    accel__clear_error();
    int32_t rc = vt->measure_ceilings(dev->be->ctx, dev->index, &o, &c);
    pthread_mutex_unlock(&measure_lock);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: on %s", fn, dev->name);
    c.struct_size = sizeof c;
    c.copy_method[sizeof c.copy_method - 1] = '\0';
    c.gemm_method[sizeof c.gemm_method - 1] = '\0';
    accel__struct_out_write(out, &c, out_bytes);
    return ACCEL_SUCCESS;
}
