/* common.h — the few helpers every example shares: a CHECK macro, option
 * parsing (--device NAME, --n N, ...), opening the runtime on the chosen device
 * and timing. Header-only and small, so an example stays one file plus this one
 * when you copy it. */
#ifndef ACCEL_EXAMPLES_COMMON_H
#define ACCEL_EXAMPLES_COMMON_H

#define _POSIX_C_SOURCE 200809L
#include <accel/accel.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* On failure: print the call, the status and accel_last_error(), then jump to
 * the function's `done:` label (where everything is released; releasing NULL
 * is a no-op). The function must have an int `rc` that is 1 until success. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        accel_status st_ = (call);                                                                 \
        if (st_ != ACCEL_SUCCESS) {                                                                \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,              \
                    accel_status_name(st_), accel_last_error());                                   \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/* The value after `name` in argv ("--n 1000" or "--n=1000"), or NULL. */
static inline const char *ex_option(int argc, char **argv, const char *name)
{
    size_t len = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], name) == 0 && i + 1 < argc)
            return argv[i + 1];
        if (strncmp(argv[i], name, len) == 0 && argv[i][len] == '=')
            return argv[i] + len + 1;
    }
    return NULL;
}

/* A size option ("--n 10000000", also 1e7 or 64M/1G for bytes); def when absent.
 * Exits with status 2 on a malformed value. */
static inline size_t ex_option_size(int argc, char **argv, const char *name, size_t def)
{
    const char *s = ex_option(argc, argv, name);
    if (!s)
        return def;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    double unit = 1;
    if (*end == 'K' || *end == 'k')
        unit = 1024.0, end++;
    else if (*end == 'M')
        unit = 1024.0 * 1024, end++;
    else if (*end == 'G')
        unit = 1024.0 * 1024 * 1024, end++;
    if (errno || end == s || *end || v < 0 || v * unit > 1e18) {
        fprintf(stderr, "%s: bad value '%s' (a non-negative number, e.g. 1000000, 1e6, 64M)\n",
                name, s);
        exit(2);
    }
    return (size_t)(v * unit);
}

/* True when argv holds the flag ("--quick"). */
static inline int ex_flag(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

/* Open the runtime (plugins.ini) and pick --device NAME, else the default
 * device; print which device the program runs on. */
static inline accel_status ex_open(int argc, char **argv, accel_runtime **out_rt,
                                   accel_device **out_dev)
{
    const char *name = ex_option(argc, argv, "--device");
    accel_status st = accel_runtime_open(NULL, out_rt);
    if (st != ACCEL_SUCCESS)
        return st;
    st = name ? accel_device_get_by_name(*out_rt, name, out_dev)
              : accel_device_default(*out_rt, out_dev);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_device_properties p;
    accel_device_properties_init(&p);
    st = accel_device_properties_get(*out_dev, &p);
    if (st == ACCEL_SUCCESS)
        printf("device: %s (%s, %s)%s\n", accel_device_name(*out_dev), p.name,
               p.kind == ACCEL_DEVICE_GPU ? "GPU" : "CPU", name ? "" : " [default]");
    return st;
}

/* True when dev is a GPU (used to pick larger default sizes there). */
static inline int ex_is_gpu(const accel_device *dev)
{
    accel_device_properties p;
    accel_device_properties_init(&p);
    return accel_device_properties_get(dev, &p) == ACCEL_SUCCESS && p.kind == ACCEL_DEVICE_GPU;
}

/* Host wall-clock milliseconds (CLOCK_MONOTONIC). Device time comes from
 * events: accel_event_elapsed_ms. */
static inline double ex_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Bytes per millisecond as GB/s (1e9 bytes per second). */
static inline double ex_gbps(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e6) : 0.0;
}

#endif /* ACCEL_EXAMPLES_COMMON_H */
