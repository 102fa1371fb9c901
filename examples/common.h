/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* common.h — the few helpers every example shares: a CHECK macro, option
 * parsing with getopt_long (--device NAME, --n N, --quick, --help; unknown
 * options are errors), opening the runtime on the chosen device
 * and timing. Header-only and small, so an example stays one file plus this one
 * when you copy it. */
#ifndef ACCEL_EXAMPLES_COMMON_H
#define ACCEL_EXAMPLES_COMMON_H

#define _POSIX_C_SOURCE 200809L
#include <accel/accel.h>
#include <errno.h>
#include <getopt.h>
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

/* One option of an example besides --device, --quick and --help, which
 * every example takes: "--name VALUE", or a flag when arg is NULL. */
typedef struct ex_opt {
    const char *name;  /* long name without "--"; NULL ends a table */
    const char *arg;   /* the value's name in --help ("N", "64M"), NULL: a flag */
    const char *help;  /* one line for --help */
    const char *value; /* set by ex_parse: the value given ("1" for a flag), or NULL */
    const char *quick; /* the value under --quick when none is given, or NULL */
} ex_opt;

/* --device NAME, once ex_parse has run; NULL: the default device. */
static const char *ex_device_name;
/* --quick, once ex_parse has run: the small sizes the tests run, as for
 * `accel demo --quick` and the Python scripts' --quick. */
static int ex_quick;

static inline void ex_usage(FILE *out, const char *prog, const char *synopsis, const ex_opt *opts)
{
    fprintf(out, "usage: %s %s\n\noptions:\n", prog, synopsis);
    fprintf(out, "  --device NAME    the device to run on (cpu, cuda, cuda:1; default: the\n"
                 "                   default device of plugins.ini)\n");
    for (const ex_opt *o = opts; o && o->name; o++)
        fprintf(out, "  --%s%s%-*s %s%s%s%s\n", o->name, o->arg ? " " : "",
                (int)(14 - strlen(o->name) - (o->arg ? 1 : 0)), o->arg ? o->arg : "", o->help,
                o->quick ? " (--quick: " : "", o->quick ? o->quick : "", o->quick ? ")" : "");
    fprintf(out, "  --quick          small sizes, a few seconds on a CPU (the tests run these)\n");
    fprintf(out, "  --help           print this help and exit\n");
}

/* Parse argv with getopt_long: --device NAME and opts, as "--name VALUE",
 * "--name=VALUE" or an unambiguous prefix ("--dev cpu"). --help prints the
 * usage and exits 0; an unknown option, a missing value or more than
 * max_operands operands prints why and exits 2. Returns the index of the
 * first operand in argv (getopt_long moves operands behind the options). */
static inline int ex_parse(int argc, char **argv, const char *synopsis, ex_opt *opts,
                           int max_operands)
{
    struct option longs[19];
    int n = 0;
    longs[n++] = (struct option){"device", required_argument, NULL, 'd'};
    longs[n++] = (struct option){"help", no_argument, NULL, 'h'};
    longs[n++] = (struct option){"quick", no_argument, NULL, 'q'};
    for (ex_opt *o = opts; o && o->name && n < 18; o++, n++)
        longs[n] =
            (struct option){o->name, o->arg ? required_argument : no_argument, NULL, 256 + n};
    longs[n] = (struct option){NULL, 0, NULL, 0};
    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int key;
    opterr = 0;
    while ((key = getopt_long(argc, argv, ":", longs, NULL)) != -1) {
        if (key == 'h') {
            ex_usage(stdout, prog, synopsis, opts);
            exit(0);
        } else if (key == 'd') {
            ex_device_name = optarg;
        } else if (key == 'q') {
            ex_quick = 1;
        } else if (key >= 256) {
            opts[key - 256 - 3].value = optarg ? optarg : "1";
        } else {
            fprintf(stderr, "%s: %s '%s'; run '%s --help'\n", prog,
                    key == ':' ? "missing value for option" : "unknown or ambiguous option",
                    argv[optind - 1], prog);
            exit(2);
        }
    }
    if (argc - optind > max_operands) {
        fprintf(stderr, "%s: unexpected argument '%s'; run '%s --help'\n", prog, argv[optind],
                prog);
        exit(2);
    }
    return optind;
}

/* The option `name` of opts as given, else its --quick value under --quick,
 * else NULL. */
static inline const char *ex_opt_value(const ex_opt *opts, const char *name)
{
    for (const ex_opt *o = opts; o && o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o->value ? o->value : ex_quick ? o->quick : NULL;
    return NULL;
}

/* A size option ("--n 10000000", also 1e7 or 64M/1G for bytes); def when absent.
 * Exits with status 2 on a malformed value. */
static inline size_t ex_opt_size(const ex_opt *opts, const char *name, size_t def)
{
    const char *s = ex_opt_value(opts, name);
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
    if (errno || end == s || *end || !(v >= 0) || v * unit > 1e18) {
        fprintf(stderr, "--%s: bad value '%s' (a non-negative number, e.g. 1000000, 1e6, 64M)\n",
                name, s);
        exit(2);
    }
    return (size_t)(v * unit);
}

/* A count option ("--reps 3", "--n 1e4"): a whole number from lo to hi; def
 * when absent. Exits with status 2, naming the option and the range, on a
 * malformed value or one out of range (so a size cannot overflow what is
 * computed from it, such as n * n * 4 bytes). */
static inline size_t ex_opt_count(const ex_opt *opts, const char *name, size_t def, size_t lo,
                                  size_t hi)
{
    const char *s = ex_opt_value(opts, name);
    size_t v = ex_opt_size(opts, name, def);
    if (s && (v < lo || v > hi || strtod(s, NULL) != (double)v)) {
        fprintf(stderr, "--%s: bad value '%s' (a whole number from %zu to %zu)\n", name, s, lo, hi);
        exit(2);
    }
    return v;
}

/* Open the runtime (plugins.ini) and pick --device NAME (ex_parse), else the
 * default device; print which device the program runs on. */
static inline accel_status ex_open(accel_runtime **out_rt, accel_device **out_dev)
{
    const char *name = ex_device_name;
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
               p.kind == ACCEL_DEVICE_GPU   ? "GPU"
               : p.kind == ACCEL_DEVICE_CPU ? "CPU"
                                            : "other",
               name ? "" : " [default]");
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
