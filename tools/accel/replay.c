/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* replay.c — `accel replay FILE`: run again an op that verify mode recorded
 * as a mismatch (core/verify.c writes the file: the op descriptor, its
 * scalars and seeds, every operand's bytes before the op and the output the
 * device gave). The op runs on the recorded device (or --device) on exactly
 * those bytes and on the CPU device; the tool says whether the device gives
 * the recorded output again bit for bit and whether it is within tolerance. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/verify.h"
#include "cli.h"

enum { OPT_DEVICE = 'd', OPT_CONFIG = CLI_LONG };

static int replay_main(int argc, char **argv);

static const cli_option options[] = {
    {"device", OPT_DEVICE, "NAME", "run on this device instead of the recorded one", NULL},
    {"config", OPT_CONFIG, "FILE", "the plugins.ini to read", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

const cli_command cli_replay_command = {
    .name = "replay",
    .summary = "run a verify-mode mismatch (repro file) again",
    .synopsis = "FILE [--device NAME] [--config FILE]",
    .description = "Runs the op of a verify-mode repro file (see verify_repro_dir in\n"
                   "plugins.ini) again on its device, or on --device, with the recorded input\n"
                   "bytes, and on the CPU device. Prints whether the device reproduces the\n"
                   "recorded output bit for bit and whether it agrees with the CPU within the\n"
                   "tolerance.",
    .options = options,
    .notes = "exit status:\n"
             "  0  the results agree now\n"
             "  1  the mismatch is still there, or a runtime error\n"
             "  2  the command line is wrong",
    .main = replay_main,
    .operand_words = NULL,
};

typedef struct repro {
    char device[128], reference[128];
    accel_op_desc d;
    size_t esize;
    void *data[4];
    void *got;
} repro;

static void repro_free(repro *r)
{
    for (int i = 0; i < 4; i++)
        free(r->data[i]);
    free(r->got);
}

static bool parse(FILE *f, repro *r, char *why, size_t cap)
{
    char line[512];
    memset(r, 0, sizeof *r);
    accel_op_desc *d = &r->d;
    d->struct_size = sizeof *d;
    d->name = "accel replay";
    if (!fgets(line, sizeof line, f) || strcmp(line, "accel-repro 1\n") != 0)
        return snprintf(why, cap, "not an accel repro file (version 1)"), false;
    unsigned nops = 0;
    bool data = false;
    while (!data && fgets(line, sizeof line, f)) {
        unsigned u1, u2;
        size_t a, b;
        char name[64];
        if (sscanf(line, "device %127s", r->device) == 1 ||
            sscanf(line, "reference %127s", r->reference) == 1)
            continue;
        if (sscanf(line, "op %u %63s", &u1, name) == 2) {
            d->op = u1;
            continue;
        }
        if (sscanf(line, "dtype %u", &u1) == 1) {
            d->dtype = u1;
            continue;
        }
        if (sscanf(line, "flags %u", &u1) == 1) {
            d->flags = u1;
            continue;
        }
        if (sscanf(line, "scalars %la %la %la %la", &d->scalars[0], &d->scalars[1], &d->scalars[2],
                   &d->scalars[3]) == 4)
            continue;
        if (sscanf(line, "seed %" SCNu64, &d->seed) == 1 ||
            sscanf(line, "rng_offset %" SCNu64, &d->rng_offset) == 1 ||
            strncmp(line, "verify_seed ", 12) == 0)
            continue;
        if (sscanf(line, "gemm %u %u %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu", &u1, &u2, &d->m,
                   &d->n, &d->k, &d->lda, &d->ldb, &d->ldc, &d->batch_count, &d->stride_a,
                   &d->stride_b, &d->stride_c) == 12) {
            d->trans_a = u1, d->trans_b = u2;
            continue;
        }
        if (sscanf(line, "operands %u", &nops) == 1) {
            if (nops < 1 || nops > 4)
                return snprintf(why, cap, "operands %u is out of range", nops), false;
            d->num_operands = nops;
            continue;
        }
        if (sscanf(line, "operand %u %zu %zu", &u1, &a, &b) == 3) {
            if (u1 >= 4)
                return snprintf(why, cap, "operand %u is out of range", u1), false;
            d->operands[u1].offset = a;
            d->operands[u1].count = b;
            continue;
        }
        if (strcmp(line, "data\n") == 0) {
            data = true;
            continue;
        }
        return snprintf(why, cap, "unexpected line: %s", line), false;
    }
    r->esize = accel_dtype_size((accel_dtype)d->dtype);
    if (!data || !nops || !r->esize || !r->device[0])
        return snprintf(why, cap, "incomplete header"), false;
    for (unsigned i = 0; i <= nops; i++) {
        size_t n = i < nops ? d->operands[i].count : d->operands[nops - 1].count;
        if (n > ((size_t)1 << 40) / r->esize)
            return snprintf(why, cap, "operand %u is implausibly large", i), false;
        void *p = malloc(n * r->esize + 1);
        if (!p)
            return snprintf(why, cap, "out of host memory"), false;
        if (i < nops)
            r->data[i] = p;
        else
            r->got = p;
        if (fread(p, r->esize, n, f) != n)
            return snprintf(why, cap, "the file ends inside operand %u's bytes", i), false;
    }
    return true;
}

/* Run r's op on dev; out gets the output operand's elements. On failure
 * prints the stage, the device and accel_last_error() as it was then (the
 * releases that follow may set another). */
static accel_status run_on(accel_device *dev, const repro *r, void *out)
{
    const accel_op_desc *src = &r->d;
    accel_op_desc d = *src;
    accel_buffer *bufs[4] = {NULL, NULL, NULL, NULL};
    accel_queue *q = NULL;
    accel_status st = accel_queue_create(dev, &q);
    for (uint32_t i = 0; i < d.num_operands && st == ACCEL_SUCCESS; i++) {
        size_t bytes = d.operands[i].count * r->esize;
        st = accel_buffer_create(dev, bytes, &bufs[i]);
        if (st == ACCEL_SUCCESS && bytes)
            st = accel_queue_write(q, bufs[i], 0, r->data[i], bytes);
        d.operands[i].offset = 0;
    }
    if (st == ACCEL_SUCCESS)
        st = cli_op_enqueue(q, &d, bufs);
    uint32_t o = d.num_operands - 1;
    if (st == ACCEL_SUCCESS && d.operands[o].count)
        st = accel_queue_read(q, bufs[o], 0, out, d.operands[o].count * r->esize);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    if (st != ACCEL_SUCCESS) {
        char what[192];
        snprintf(what, sizeof what, "running %s on %s", accel_op_name((accel_op_code)d.op),
                 accel_device_name(dev));
        cli_runtime_error("replay", st, what);
    }
    accel_queue_release(q);
    for (int i = 0; i < 4; i++)
        accel_buffer_release(bufs[i]);
    return st;
}

/* CLI_CONTINUE with *out_file etc. set, or the exit code after a message. */
static int parse_options(int argc, char **argv, const char **out_file, const char **out_device,
                         const char **out_config)
{
    cli_parser p;
    cli_parser_init(&p, &cli_replay_command, argc, argv);
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (key == OPT_DEVICE)
            *out_device = p.value;
        else if (key == OPT_CONFIG)
            *out_config = p.value;
    }
    if (p.next + 1 < argc)
        return cli_usage_error("replay", "unexpected argument '%s'", argv[p.next + 1]);
    *out_file = p.next < argc ? argv[p.next] : NULL;
    if (!*out_file)
        return cli_usage_error("replay", "no repro file given");
    if ((*out_device && !(*out_device)[0]) || (*out_config && !(*out_config)[0]))
        return cli_usage_error("replay", "the %s is empty",
                               *out_device && !(*out_device)[0] ? "device name" : "config path");
    return CLI_CONTINUE;
}

/* The repro file into *r; false after a message. */
static bool load(const char *file, repro *r)
{
    FILE *f = fopen(file, "rb");
    if (!f) {
        memset(r, 0, sizeof *r);
        fprintf(stderr, "accel replay: %s: %s\n", file, strerror(errno));
        return false;
    }
    char why[600];
    bool ok = parse(f, r, why, sizeof why);
    fclose(f);
    if (!ok)
        fprintf(stderr, "accel replay: %s: %s\n", file, why);
    return ok;
}

/* The device's output against the recorded one and the CPU's; the exit code. */
static int verdict(const repro *r, const void *got, const void *exp, accel_device *cpu)
{
    uint32_t out = r->d.num_operands - 1;
    size_t n = r->d.operands[out].count;
    bool same = memcmp(got, r->got, n * r->esize) == 0;
    printf("output %s the recorded one bit for bit\n", same ? "reproduces" : "differs from");
    const void *inputs[4] = {r->data[0], r->data[1], r->data[2], r->data[3]};
    accel_compare_result c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    accel_tolerance_op t;
    accel_status st = accel_tolerance_compare(cli_tolerance_op(&r->d, &t), inputs, got, exp, &c);
    if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_MISMATCH)
        return cli_runtime_error("replay", st, "comparing the outputs");
    if (st == ACCEL_SUCCESS) {
        printf("agrees with %s within tolerance (%s): mismatch not reproduced\n",
               accel_device_name(cpu), c.rule);
        return CLI_EXIT_OK;
    }
    printf("mismatch reproduced: element %zu: got %.17g, expected %.17g (on %s), error %.3g "
           "> bound %.3g (%s); %zu of %zu elements bad\n",
           c.first_bad, c.got, c.expected, accel_device_name(cpu), c.error, c.bound, c.rule, c.bad,
           c.checked);
    return CLI_EXIT_RUNTIME;
}

/* The op on the device named dname and on the CPU; the exit code. */
static int replay_on(accel_runtime *rt, const char *file, const repro *r, const char *dname)
{
    accel_device *dev = NULL, *cpu = NULL;
    accel_status st = accel_device_get_by_name(rt, dname, &dev);
    if (st == ACCEL_SUCCESS)
        st = accel_device_get_by_name(rt, "cpu", &cpu);
    if (st != ACCEL_SUCCESS) {
        int rc = cli_runtime_error("replay", st, "no such device");
        cli_device_hint("replay", dname);
        return rc;
    }
    uint32_t out = r->d.num_operands - 1;
    size_t n = r->d.operands[out].count;
    void *got = malloc(n * r->esize + 1), *exp = malloc(n * r->esize + 1);
    int rc = CLI_EXIT_RUNTIME;
    if (!got || !exp) {
        cli_runtime_error("replay", ACCEL_ERROR_OUT_OF_HOST_MEMORY, "allocating the outputs");
    } else {
        printf("accel replay: %s (%s %s) recorded on %s, now on %s\n", file,
               accel_op_name((accel_op_code)r->d.op), accel_dtype_name((accel_dtype)r->d.dtype),
               r->device, accel_device_name(dev));
        /* run_on says why it failed */
        if (run_on(dev, r, got) == ACCEL_SUCCESS && run_on(cpu, r, exp) == ACCEL_SUCCESS)
            rc = verdict(r, got, exp, cpu);
    }
    free(got);
    free(exp);
    return rc;
}

static int replay_main(int argc, char **argv)
{
    const char *file = NULL, *device = NULL, *config = NULL;
    int rc = parse_options(argc, argv, &file, &device, &config);
    if (rc != CLI_CONTINUE)
        return rc;
    repro r;
    if (!load(file, &r)) {
        repro_free(&r);
        return CLI_EXIT_RUNTIME;
    }
    accel_runtime *rt = NULL;
    accel_status st = accel_runtime_open(config, &rt);
    if (st != ACCEL_SUCCESS) {
        repro_free(&r);
        return cli_runtime_error("replay", st, "cannot open the runtime");
    }
    /* Replay the op itself: no shadow check, no fallback. */
    accel_verify_options vo;
    accel_verify_options_init(&vo);
    accel_verify_configure(rt, &vo);
    accel_fallback_configure(rt, NULL, false);
    rc = replay_on(rt, file, &r, device ? device : r.device);
    repro_free(&r);
    accel_runtime_close(rt);
    return rc;
}
