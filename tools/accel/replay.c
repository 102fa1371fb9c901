/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* replay.c — `accel replay FILE`: run again an op that verify mode recorded
 * as a mismatch (core/repro.c writes the .npz file: the op's description,
 * its inputs, its output range with the guard elements around it, before
 * the op, from the device and from the reference; repro_file.c reads it).
 * The op runs on the recorded device (or --device) on exactly those bytes,
 * its output in a buffer with the recorded guard elements on each side, and
 * on the CPU device; the tool says whether the device gives the recorded
 * output (guards included) again bit for bit, whether it wrote outside its
 * range, and whether it is within tolerance of the CPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/verify.h"
#include "cli.h"
#include "repro_file.h"

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
                   "bytes and the recorded guard elements around the output, and on the CPU\n"
                   "device. Prints whether the device reproduces the recorded output (guards\n"
                   "included) bit for bit, whether it wrote outside its output range, and\n"
                   "whether it agrees with the CPU within the tolerance. A repro file is a\n"
                   "NumPy .npz archive (np.load opens it: input0, input1, input2,\n"
                   "output_before, output_device, output_reference, scalars and op.json);\n"
                   "one written again from np.load's dict by np.savez or np.savez_compressed\n"
                   "is read too. The old text format of repro files (\"accel-repro 1\") is\n"
                   "no longer read.\n"
                   "\n"
                   "op.json must agree with itself and with the members: the op and dtype\n"
                   "names with op_code and dtype_code, counts and the guards with the\n"
                   "arrays' lengths, scalars with scalars.npy; an unknown or repeated key,\n"
                   "text after the JSON object, or a member the op does not read (input2 of\n"
                   "an op of two inputs, an unknown name, both op.json and op.json.npy) is\n"
                   "refused with a message naming it. Bytes after the zip archive's end\n"
                   "record are ignored with a note, as np.load ignores them; a file with\n"
                   "bytes in front of its first member is refused, as np.load does not read\n"
                   "it as .npz either.",
    .options = options,
    .notes = "exit status:\n"
             "  0  the results agree now\n"
             "  1  the mismatch is still there, or a runtime error\n"
             "  2  the command line is wrong",
    .main = replay_main,
    .operand_words = NULL,
};

/* Run r's op on dev; out gets the output window (lo + count + hi elements:
 * the output range with the guard elements around it, which start as
 * recorded). On failure prints the stage, the device and accel_last_error()
 * as it was then (the releases that follow may set another). */
static accel_status run_on(accel_device *dev, const repro *r, void *out)
{
    accel_op_desc d = r->d;
    uint32_t o = d.num_operands - 1;
    size_t window = r->lo + d.operands[o].count + r->hi;
    accel_buffer *bufs[4] = {NULL, NULL, NULL, NULL};
    accel_queue *q = NULL;
    accel_status st = accel_queue_create(dev, &q);
    for (uint32_t i = 0; i < d.num_operands && st == ACCEL_SUCCESS; i++) {
        size_t bytes = (i == o ? window : d.operands[i].count) * r->esize;
        st = accel_buffer_create(dev, bytes, &bufs[i]);
        if (st == ACCEL_SUCCESS && bytes)
            st = accel_queue_write(q, bufs[i], 0, r->data[i], bytes);
        d.operands[i].offset = i == o ? r->lo : 0;
    }
    if (st == ACCEL_SUCCESS)
        st = cli_op_enqueue(q, &d, bufs);
    if (st == ACCEL_SUCCESS && window)
        st = accel_queue_read(q, bufs[o], 0, out, window * r->esize);
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
    char why[600];
    bool ok = repro_load(file, r, why, sizeof why);
    if (!ok)
        fprintf(stderr, "accel replay: %s: %s\n", file, why);
    else if (r->trailing_bytes)
        fprintf(stderr,
                "accel replay: %s: note: %zu bytes after the zip archive's end record are "
                "ignored, as np.load ignores them\n",
                file, r->trailing_bytes);
    return ok;
}

/* The first of n elements of size es where a and b differ; n when none. */
static size_t first_difference(const void *a, const void *b, size_t n, size_t es)
{
    size_t i = 0;
    while (i < n && memcmp((const char *)a + i * es, (const char *)b + i * es, es) == 0)
        i++;
    return i;
}

/* The device's output window against the recorded one, its guards against
 * those before the op, its range against the CPU's; the exit code. */
static int verdict(const repro *r, const void *got, const void *exp, accel_device *cpu)
{
    uint32_t out = r->d.num_operands - 1;
    size_t n = r->d.operands[out].count, es = r->esize, lo = r->lo, hi = r->hi;
    size_t window = lo + n + hi;
    size_t diff = first_difference(got, r->device_out, window, es);
    if (diff == window)
        printf("output reproduces the recorded one bit for bit (%zu elements, %zu guard "
               "elements)\n",
               n, lo + hi);
    else
        printf("output differs from the recorded one (first at element %ld of the range)\n",
               (long)diff - (long)lo);
    const char *before = r->data[out];
    size_t g = first_difference(got, before, lo, es);
    if (g == lo) {
        g = first_difference((const char *)got + (lo + n) * es, before + (lo + n) * es, hi, es);
        g = g == hi ? SIZE_MAX : lo + n + g;
    }
    size_t cpu_diff = first_difference((const char *)exp + lo * es,
                                       (const char *)r->reference_out + lo * es, n, es);
    printf("%s %s the recorded reference output bit for bit\n", accel_device_name(cpu),
           cpu_diff == n ? "gives" : "no longer gives");
    const void *inputs[4] = {r->data[0], r->data[1], r->data[2], r->data[3]};
    inputs[out] = before + lo * es;
    accel_compare_result c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    accel_tolerance_op t;
    accel_status st =
        accel_tolerance_compare(cli_tolerance_op(&r->d, &t), inputs, (const char *)got + lo * es,
                                (const char *)exp + lo * es, &c);
    if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_MISMATCH)
        return cli_runtime_error("replay", st, "comparing the outputs");
    if (g != SIZE_MAX)
        printf("mismatch reproduced: wrote outside its output range: element %ld of the range "
               "changed\n",
               (long)g - (long)lo);
    if (st == ACCEL_SUCCESS && g == SIZE_MAX) {
        printf("agrees with %s within tolerance (%s): mismatch not reproduced\n",
               accel_device_name(cpu), c.rule);
        return CLI_EXIT_OK;
    }
    if (st == ACCEL_SUCCESS) {
        printf("agrees with %s within tolerance (%s) inside its range\n", accel_device_name(cpu),
               c.rule);
        return CLI_EXIT_RUNTIME;
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
    int lrc = cli_device_lookup("replay", rt, dname, &dev);
    if (lrc != CLI_EXIT_OK)
        return lrc;
    accel_status st = accel_device_get_by_name(rt, "cpu", &cpu);
    if (st != ACCEL_SUCCESS)
        return cli_runtime_error("replay", st, "the check needs the CPU device");
    uint32_t out = r->d.num_operands - 1;
    size_t window = r->lo + r->d.operands[out].count + r->hi;
    void *got = malloc(window * r->esize + 1), *exp = malloc(window * r->esize + 1);
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
