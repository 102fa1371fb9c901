/* core/ceilings.c — accel_device_measure_ceilings: asks the device's backend
 * to measure its own ceilings (copy bandwidth, vendor GEMM, bare launch,
 * host<->device copies) through the optional measure_ceilings entry of the
 * plugin table. The plugin does the timing with the vendor's calls; the core
 * only validates, serializes and copies the result out. */
#include <stddef.h>
#include <string.h>

#include "internal.h"

/* measure_ceilings took the place of reserved[0]: the table's size and the
 * offsets of everything else are unchanged (ABI 1). */
_Static_assert(sizeof(accel_backend) ==
                   offsetof(accel_backend, measure_ceilings) + 16 * sizeof(void *),
               "measure_ceilings must occupy exactly one former reserved slot");

void accel_ceilings_options_init(accel_ceilings_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->struct_size = sizeof *opt;
    opt->what = ACCEL_CEILING_ALL;
}

/* One measurement at a time per process: two would share memory bandwidth
 * and each would report half. */
static pthread_mutex_t measure_lock = PTHREAD_MUTEX_INITIALIZER;

accel_status accel_device_measure_ceilings(accel_device *dev, const accel_ceilings_options *opt,
                                           accel_ceilings *out)
{
    static const char fn[] = "accel_device_measure_ceilings";
    ACCEL__CALL(call);
    accel_status st = accel__enter(&call, fn, dev, ACCEL__T_DEVICE, "dev", &dev);
    if (st != ACCEL_SUCCESS)
        return st;
    if (!out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (out->struct_size < sizeof *out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out->struct_size is %u, expected %zu (set it to sizeof *out)", fn,
                           out->struct_size, sizeof *out);
    accel_ceilings_options o;
    accel_ceilings_options_init(&o);
    if (opt) {
        if (opt->struct_size < sizeof *opt)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: opt->struct_size is %u, expected %zu (call "
                               "accel_ceilings_options_init)",
                               fn, opt->struct_size, sizeof *opt);
        o = *opt;
        o.struct_size = sizeof o;
    }
    const accel_backend *vt = dev->be->vt;
    if (!vt->measure_ceilings)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: the %s backend cannot measure ceilings (no measure_ceilings entry)",
                           fn, dev->be->name);
    accel_ceilings c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    pthread_mutex_lock(&measure_lock);
    accel__clear_error();
    int32_t rc = vt->measure_ceilings(dev->be->ctx, dev->index, &o, &c);
    pthread_mutex_unlock(&measure_lock);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: on %s", fn, dev->name);
    c.struct_size = sizeof c;
    c.copy_method[sizeof c.copy_method - 1] = '\0';
    c.gemm_method[sizeof c.gemm_method - 1] = '\0';
    *out = c;
    return ACCEL_SUCCESS;
}
