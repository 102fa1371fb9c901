/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_device.c — devices (core/base/device.c): count, lookup by index and by name,
 * the default device, properties and canonical names, on the default
 * configuration and on one with two mock devices besides the CPU. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

Test(device, cpu_properties_are_filled)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    cr_assert_str_eq(accel_device_name(dev), "cpu:0");
    accel_device_properties p;
    accel_device_properties_init(&p);
    cr_assert_eq(p.struct_size, (uint32_t)sizeof p);
    tu_ok(accel_device_properties_get(dev, &p));
    cr_assert_eq(p.kind, (uint32_t)ACCEL_DEVICE_CPU);
    cr_assert_str_eq(p.backend, "cpu");
    cr_assert(p.name[0] != '\0');
    cr_assert_eq(p.index, 0u);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cr_assert(p.compute_units >= 1 && (long)p.compute_units <= cores,
              "compute_units %u with %ld cores online", p.compute_units, cores);
    cr_assert(p.memory_total > 0 && p.memory_free <= p.memory_total, "memory %llu free of %llu",
              (unsigned long long)p.memory_free, (unsigned long long)p.memory_total);
    cr_assert(p.dtypes & (1u << ACCEL_F32) && p.dtypes & (1u << ACCEL_F64), "dtypes mask %#x",
              p.dtypes);
    cr_assert_eq(p.host_accessible, 1u);
    cr_assert_eq(p.compute_capability, 0u);
    accel_runtime_close(rt);
}

Test(device, lookup_by_index_name_and_default_agree)
{
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = mock, cpu\n[backend.cpu]\nlibrary = %s\n"
                             "[backend.mock]\nlibrary = %s\ndevices = 2\n",
                             TU_CPU_PLUGIN, TU_TEST_PLUGIN("mock")),
                      &rt, NULL));
    cr_assert_eq(accel_device_count(rt), 3u);
    const char *names[] = {"mock:0", "mock:1", "cpu:0"};
    for (uint32_t i = 0; i < 3; ++i) {
        accel_device *by_index, *by_name;
        tu_ok(accel_device_get(rt, i, &by_index));
        tu_ok(accel_device_get_by_name(rt, names[i], &by_name));
        cr_assert_eq(by_index, by_name, "%s", names[i]);
        cr_assert_str_eq(accel_device_name(by_index), names[i]);
        accel_device_properties p;
        accel_device_properties_init(&p);
        tu_ok(accel_device_properties_get(by_index, &p));
        cr_assert_eq(p.index, i < 2 ? i : 0u);
    }
    accel_device *a, *b, *d;
    tu_ok(accel_device_get_by_name(rt, "mock", &a)); /* "mock" = "mock:0" */
    tu_ok(accel_device_get(rt, 0, &b));
    tu_ok(accel_device_default(rt, &d));
    cr_assert_eq(a, b);
    cr_assert_eq(d, b);
    tu_ok(accel_device_get_by_name(rt, "default", &d));
    cr_assert_eq(d, b);
    accel_runtime_close(rt);
}

Test(device, every_device_of_the_default_config_is_described)
{
    accel_runtime *rt = tu_open_default();
    uint32_t n = accel_device_count(rt), sum = 0;
    for (uint32_t i = 0; i < accel_runtime_backend_count(rt); ++i) {
        accel_backend_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        tu_ok(accel_runtime_backend_info(rt, i, &info));
        cr_log_info("backend %s (%s): %s%s", info.name, info.path,
                    info.loaded ? "loaded" : "not loaded: ", info.reason);
        sum += info.loaded ? info.device_count : 0;
    }
    cr_assert_eq(sum, n, "device count %u but loaded backends report %u", n, sum);
    for (uint32_t i = 0; i < n; ++i) {
        accel_device *dev;
        tu_ok(accel_device_get(rt, i, &dev));
        accel_device_properties p;
        accel_device_properties_init(&p);
        tu_ok(accel_device_properties_get(dev, &p));
        cr_assert_str_eq(accel_device_name(dev), tu_fmt("%s:%u", p.backend, p.index));
        cr_assert(p.memory_total > 0 && p.name[0]);
    }
    accel_runtime_close(rt);
}
