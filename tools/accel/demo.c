/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo.c — `accel demo`: the tutorial walk-through (the steps of
 * demo_steps.c) on the default device of plugins.ini or --device, each step
 * cross-checked against the CPU device, ending with one table: step, device,
 * time, achieved GB/s or TFLOP/s, check. On a terminal, a step that runs for
 * more than a second shows a ticking progress line on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "demo_format.h"
#include "demo_steps.h"
#include "demo_types.h"

static const char *const SIZE_NAMES[] = {"small", "medium", "large"};

enum { OPT_SIZE = CLI_LONG, OPT_QUICK, OPT_CONFIG };

static int demo_main(int argc, char **argv);

static const cli_option options[] = {
    {"device", 'd', "NAME", "cuda, cuda:1, cpu, ... (default: the default of plugins.ini)", NULL},
    {"size", OPT_SIZE, "SIZE",
     "small: 1M-element vectors, 512 matmul;\n"
     "medium: 10M vectors, 2048 matmul;\n"
     "large: the tutorial's 10M vectors, 10000 x 10000 matmul,\n"
     "100M-float batched sum.\n"
     "default: large on a GPU, medium on the CPU",
     "small medium large"},
    {"quick", OPT_QUICK, NULL, "the same as --size small", NULL},
    {"config", OPT_CONFIG, "FILE", "the plugins.ini to read", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

const cli_command cli_demo_command = {
    .name = "demo",
    .summary = "walk through the tutorial on the default device, checked against the CPU",
    .synopsis = "[--device NAME] [--size small|medium|large] [--quick] [--config FILE]",
    .description = "Walks through the tutorial on one device: device query, vector add,\n"
                   "elementwise multiply and exp, a batched sum under a memory cap, copies\n"
                   "overlapped with compute over 4 queues, and an f32 matrix product. Each step\n"
                   "is checked against the CPU device to accel's tolerances (docs/checking.md).\n"
                   "Ends with a table: step, device, time (from events), GB/s or TFLOP/s,\n"
                   "check. A time or rate the device's events cannot give (0 elapsed) shows\n"
                   "as n/a.",
    .options = options,
    .notes = "exit status:\n"
             "  0  every check passed\n"
             "  1  a check or a step failed\n"
             "  2  the command line is wrong",
    .main = demo_main,
    .operand_words = NULL,
};

/* Progress on a terminal: after a step has run for a second, a line on stderr
 * ticks every half second until the step ends. */
typedef struct progress {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    const char *step; /* NULL: idle */
    size_t index, count;
    bool quit, shown;
    pthread_t thread;
} progress;

static void *progress_main(void *arg)
{
    progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->quit) {
        const char *step = p->step;
        if (!step) {
            pthread_cond_wait(&p->cond, &p->lock);
            continue;
        }
        struct timespec start, now, until;
        clock_gettime(CLOCK_REALTIME, &start);
        until = start;
        until.tv_sec += 1;
        while (p->step == step && !p->quit) {
            if (pthread_cond_timedwait(&p->cond, &p->lock, &until) == 0)
                continue;
            clock_gettime(CLOCK_REALTIME, &now);
            fprintf(stderr, "\r  [%zu/%zu] %s: running, %.0f s ", p->index + 1, p->count, step,
                    difftime(now.tv_sec, start.tv_sec));
            p->shown = true;
            until.tv_nsec += 500000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
        }
        if (p->shown)
            fprintf(stderr, "\r%60s\r", "");
        p->shown = false;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void progress_set(progress *p, const char *step, size_t index)
{
    pthread_mutex_lock(&p->lock);
    p->step = step;
    p->index = index;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
}

/* CLI_CONTINUE, or the exit code after --help or a usage error. */
static int parse_options(int argc, char **argv, const char **out_device, const char **out_size,
                         const char **out_config, bool *out_quick)
{
    cli_parser p;
    cli_parser_init(&p, &cli_demo_command, argc, argv);
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (key == 'd')
            *out_device = p.value;
        else if (key == OPT_SIZE)
            *out_size = p.value;
        else if (key == OPT_CONFIG)
            *out_config = p.value;
        else if (key == OPT_QUICK)
            *out_quick = true;
    }
    if (p.next < argc)
        return cli_usage_error("demo", "unexpected argument '%s'", argv[p.next]);
    return CLI_CONTINUE;
}

/* --size / --quick into *out_size (-1: by device kind); CLI_CONTINUE or 2. */
static int pick_size(const char *size_name, bool quick, int *out_size)
{
    int size = -1;
    for (int s = 0; size_name && s < 3; s++)
        if (strcmp(size_name, SIZE_NAMES[s]) == 0)
            size = s;
    if (size_name && size < 0)
        return cli_usage_error("demo", "--size must be small, medium or large, not '%s'",
                               size_name);
    if (quick && size > DEMO_SMALL)
        return cli_usage_error("demo", "--quick is --size small; give one of them");
    *out_size = quick ? DEMO_SMALL : size;
    return CLI_CONTINUE;
}

/* The device under test, the CPU, a queue on each, the timing events; the
 * header lines. CLI_EXIT_OK, else the exit code after a message (a --device
 * of no device is a usage error). */
static int setup(demo_ctx *c, const char *device_name, int size)
{
    int rc = cli_device_lookup("demo", c->rt, device_name, &c->dev);
    if (rc != CLI_EXIT_OK)
        return rc;
    accel_status st = accel_device_get_by_name(c->rt, "cpu", &c->cpu);
    if (st != ACCEL_SUCCESS)
        return cli_runtime_error("demo", st, "the checks need the CPU device");
    accel_device_properties p, pc;
    accel_device_properties_init(&p);
    accel_device_properties_init(&pc);
    if ((st = accel_device_properties_get(c->dev, &p)) != ACCEL_SUCCESS ||
        (st = accel_device_properties_get(c->cpu, &pc)) != ACCEL_SUCCESS ||
        (st = accel_queue_create(c->dev, &c->q)) != ACCEL_SUCCESS ||
        (st = accel_queue_create(c->cpu, &c->qc)) != ACCEL_SUCCESS ||
        (st = accel_event_create(c->dev, &c->t0)) != ACCEL_SUCCESS ||
        (st = accel_event_create(c->dev, &c->t1)) != ACCEL_SUCCESS)
        return cli_runtime_error("demo", st, "cannot set up the device");
    c->size = size >= 0 ? (demo_size)size : p.kind == ACCEL_DEVICE_GPU ? DEMO_LARGE : DEMO_MEDIUM;
    printf("accel demo (size %s): %s (%s) checked against %s (%s)\n", SIZE_NAMES[c->size],
           accel_device_name(c->dev), p.name, accel_device_name(c->cpu), pc.name);
    printf("config %s\n\n", accel_runtime_config_path(c->rt));
    fflush(stdout);
    return CLI_EXIT_OK;
}

/* The progress thread, on a terminal only; false when there is none. */
static bool progress_start(progress *pr)
{
    if (!isatty(STDERR_FILENO))
        return false;
    pthread_mutex_init(&pr->lock, NULL);
    pthread_cond_init(&pr->cond, NULL);
    if (pthread_create(&pr->thread, NULL, progress_main, pr) == 0)
        return true;
    pthread_mutex_destroy(&pr->lock);
    pthread_cond_destroy(&pr->cond);
    return false;
}

static void progress_stop(progress *pr)
{
    pthread_mutex_lock(&pr->lock);
    pr->quit = true;
    pthread_cond_broadcast(&pr->cond);
    pthread_mutex_unlock(&pr->lock);
    pthread_join(pr->thread, NULL);
    pthread_mutex_destroy(&pr->lock);
    pthread_cond_destroy(&pr->cond);
}

/* Step i into r; a failed step's row carries its error. */
static void run_step(demo_ctx *c, size_t i, demo_result *r)
{
    memset(r, 0, sizeof *r);
    r->ms = DEMO_NOT_TIMED;
    r->unit = "";
    accel_status st = demo_steps[i].run(c, r);
    if (!r->label[0])
        snprintf(r->label, sizeof r->label, "%s", demo_steps[i].name);
    if (st != ACCEL_SUCCESS) {
        r->pass = false;
        r->rate = 0;
        snprintf(r->note, sizeof r->note, "%s: %s", accel_status_name(st),
                 accel_last_error()[0] ? accel_last_error() : accel_status_string(st));
        /* A failed step may leave its error on the queues; start clean. */
        accel_queue_finish(c->q);
        accel_queue_finish(c->qc);
    }
}

/* The table and the verdict; the number of failed steps. */
static size_t print_table(const demo_ctx *c, const demo_result *res)
{
    size_t failed = 0;
    printf("%-32s %-7s %10s %16s  %-5s %s\n", "step", "device", "time", "rate", "check", "note");
    for (size_t i = 0; i < demo_step_count; i++) {
        char t[32], rate[32];
        demo_format_ms(res[i].ms, t, sizeof t);
        demo_format_rate(res[i].rate, res[i].unit, rate, sizeof rate);
        printf("%-32s %-7s %10s %16s  %-5s %s\n", res[i].label, accel_device_name(c->dev), t, rate,
               res[i].pass ? "PASS" : "FAIL", res[i].note);
        failed += !res[i].pass;
    }
    printf("\n%zu of %zu checks passed%s\n", demo_step_count - failed, demo_step_count,
           failed             ? ""
           : c->dev == c->cpu ? ": but this device IS the CPU reference, so the checks only "
                                "show the CPU agrees with itself (no GPU in use; see accel info)"
                              : ": results on this device agree with the CPU");
    return failed;
}

static int demo_main(int argc, char **argv)
{
    const char *device_name = NULL, *size_name = NULL, *config = NULL;
    bool quick = false;
    int size = -1;
    int rc = parse_options(argc, argv, &device_name, &size_name, &config, &quick);
    if (rc == CLI_CONTINUE)
        rc = pick_size(size_name, quick, &size);
    if (rc != CLI_CONTINUE)
        return rc;
    demo_ctx c = {0};
    accel_status st = accel_runtime_open(config, &c.rt);
    if (st != ACCEL_SUCCESS)
        return cli_runtime_error("demo", st, "cannot open the runtime");
    rc = setup(&c, device_name, size);
    if (rc == CLI_EXIT_OK) {
        static demo_result res[16];
        progress pr = {.count = demo_step_count};
        bool tty = progress_start(&pr);
        for (size_t i = 0; i < demo_step_count; i++) {
            if (tty)
                progress_set(&pr, demo_steps[i].name, i);
            run_step(&c, i, &res[i]);
            if (tty)
                progress_set(&pr, NULL, i);
        }
        if (tty)
            progress_stop(&pr);
        rc = print_table(&c, res) ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
    }
    accel_event_release(c.t0);
    accel_event_release(c.t1);
    accel_queue_release(c.q);
    accel_queue_release(c.qc);
    accel_runtime_close(c.rt);
    return rc;
}
