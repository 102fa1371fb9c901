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

void cli_replay_usage(FILE *out)
{
    fprintf(out, "usage: accel replay FILE [--device NAME] [--config FILE]\n"
                 "\n"
                 "Runs the op of a verify-mode repro file (see verify_repro_dir in\n"
                 "plugins.ini) again on its device, or on --device, with the recorded input\n"
                 "bytes, and on the CPU device. Prints whether the device reproduces the\n"
                 "recorded output bit for bit and whether it agrees with the CPU within the\n"
                 "tolerance. Exit status: 0 the results agree now, 1 the mismatch is\n"
                 "still there (or a runtime error), 2 usage error.\n");
}

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
        if (sscanf(line, "scalars %la %la %la %la", &d->scalars[0], &d->scalars[1],
                   &d->scalars[2], &d->scalars[3]) == 4)
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

/* Run r's op on dev; out gets the output operand's elements. */
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
    accel_queue_release(q);
    for (int i = 0; i < 4; i++)
        accel_buffer_release(bufs[i]);
    return st;
}

int cli_replay_main(int argc, char **argv)
{
    const char *file = NULL, *device = NULL, *config = NULL;
    for (int i = 1; i < argc;) {
        int r;
        if ((r = cli_option_value(argc, argv, &i, "--device", NULL, &device)) ||
            (r = cli_option_value(argc, argv, &i, "--config", NULL, &config))) {
            if (r < 0)
                return cli_usage_error("replay", "%s needs a value", argv[i]);
            continue;
        }
        if (argv[i][0] == '-' || file)
            return cli_usage_error("replay", "unexpected argument '%s'", argv[i]);
        file = argv[i++];
    }
    if (!file)
        return cli_usage_error("replay", "no repro file given");
    if ((device && !device[0]) || (config && !config[0]))
        return cli_usage_error("replay", "the %s is empty",
                               device && !device[0] ? "device name" : "config path");
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "accel replay: %s: %s\n", file, strerror(errno));
        return CLI_EXIT_RUNTIME;
    }
    repro r;
    char why[600];
    bool ok = parse(f, &r, why, sizeof why);
    fclose(f);
    if (!ok) {
        fprintf(stderr, "accel replay: %s: %s\n", file, why);
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
    int rc = CLI_EXIT_RUNTIME;
    accel_device *dev = NULL, *cpu = NULL;
    const char *dname = device ? device : r.device;
    uint32_t out = r.d.num_operands - 1;
    size_t n = r.d.operands[out].count;
    void *got = malloc(n * r.esize + 1), *exp = malloc(n * r.esize + 1);
    st = accel_device_get_by_name(rt, dname, &dev);
    if (st == ACCEL_SUCCESS)
        st = accel_device_get_by_name(rt, "cpu", &cpu);
    if (st != ACCEL_SUCCESS || !got || !exp) {
        cli_runtime_error("replay", st, "no such device");
        if (st != ACCEL_SUCCESS)
            cli_device_hint("replay", dname);
        goto done;
    }
    printf("accel replay: %s (%s %s) recorded on %s, now on %s\n", file,
           accel_op_name((accel_op_code)r.d.op), accel_dtype_name((accel_dtype)r.d.dtype),
           r.device, accel_device_name(dev));
    st = run_on(dev, &r, got);
    if (st == ACCEL_SUCCESS)
        st = run_on(cpu, &r, exp);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("replay", st, "running the op");
        goto done;
    }
    bool same = memcmp(got, r.got, n * r.esize) == 0;
    printf("output %s the recorded one bit for bit\n", same ? "reproduces" : "differs from");
    const void *inputs[4] = {r.data[0], r.data[1], r.data[2], r.data[3]};
    accel_compare_result c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    accel_tolerance_op t;
    st = accel_tolerance_compare(cli_tolerance_op(&r.d, &t), inputs, got, exp, &c);
    if (st == ACCEL_SUCCESS) {
        printf("agrees with %s within tolerance (%s): mismatch not reproduced\n",
               accel_device_name(cpu), c.rule);
        rc = CLI_EXIT_OK;
    } else {
        printf("mismatch reproduced: element %zu: got %.17g, expected %.17g (on %s), error %.3g "
               "> bound %.3g (%s); %zu of %zu elements bad\n",
               c.first_bad, c.got, c.expected, accel_device_name(cpu), c.error, c.bound, c.rule,
               c.bad, c.checked);
    }
done:
    free(got);
    free(exp);
    repro_free(&r);
    accel_runtime_close(rt);
    return rc;
}
