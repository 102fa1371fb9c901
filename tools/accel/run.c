/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run.c — `accel run OP IN.npy [IN2.npy] -o OUT.npy`: one op of the runtime on
 * NumPy files, with NumPy's op names and shape rules (without broadcasting),
 * on the default device or the one --device names. It says on stderr which
 * device ran the op (the fallback device when the asked one could not). The
 * output file is written only when everything succeeded (and then
 * atomically, see accel_npy_save). The parts are in run.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/verify.h"
#include "cli.h"
#include "run_check.h"
#include "run_exec.h"
#include "run_ops.h"
#include "run_shape.h"

enum { OPT_CONFIG = CLI_LONG, OPT_VERIFY, OPT_TIME, OPT_REPORT };

static int run_main(int argc, char **argv);
static const char *run_description(void);

static const cli_option options[] = {
    {"output", 'o', "FILE",
     "where to write the result (required; written only on success,\n"
     "atomically; may be one of the inputs)",
     NULL},
    {"device", 'd', "NAME", "cpu, cuda, cuda:1, ... or default (the default)", NULL},
    {"config", OPT_CONFIG, "FILE", "the plugins.ini to read", NULL},
    {"verify", OPT_VERIFY, NULL,
     "also run the op on the CPU device and print the largest difference\n"
     "against the op's tolerance (the core's accel_tolerance_compare, the rule\n"
     "of verify mode); exit 1 when it is exceeded (OUT.npy is still written,\n"
     "for inspection)",
     NULL},
    {"time", OPT_TIME, NULL, "print the op's device time (from events, copies excluded)", NULL},
    {"report", OPT_REPORT, NULL,
     "print the placement report on stderr: which device ran each op kind,\n"
     "fallbacks, bytes moved and why",
     NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static const cli_command *const run_subcommands[] = {&cli_run_eval_command, &cli_run_array_command,
                                                     NULL};

const cli_command cli_run_command = {
    .name = "run",
    .summary = "run one op on .npy files (NumPy names: add, matmul, sum, ...)",
    .synopsis = "OP IN.npy [IN2.npy] -o OUT.npy [--device NAME] [--config FILE]\n"
                "    [--verify] [--time] [--report]",
    .description = NULL,
    .description_fn = run_description,
    .options = options,
    .notes = "exit status:\n"
             "  0  success\n"
             "  1  the op, a file or --verify failed\n"
             "  2  the command line is wrong\n"
             "\n"
             "example:\n"
             "  accel run matmul a.npy b.npy -o c.npy --device cuda",
    .main = run_main,
    .operand_words = run_op_names,
    .subcommands = run_subcommands,
};

/* The description with the op names of the op table (run_ops.c). */
static const char *run_description(void)
{
    static char text[2048];
    snprintf(text, sizeof text,
             "Runs one op on NumPy .npy files (little-endian float32 or float64, C order;\n"
             "both inputs of one dtype) and writes the result as OUT.npy. Prints on\n"
             "stderr which device ran it: the one asked for, or the fallback device\n"
             "that ran it instead, with the reason. No broadcasting: shapes must match\n"
             "exactly ('accel run array' runs any array function with broadcasting on\n"
             "every dtype).\n"
             "\n"
             "ops (NumPy's names):\n"
             "  two inputs, same shape:  %s\n"
             "  one input:               %s\n"
             "  reductions (0-d result): %s\n"
             "  dot                      1-D x 1-D of equal length -> 0-d\n"
             "  matmul                   (m,k) @ (k,n) -> (m,n), or batched\n"
             "                           (b,m,k) @ (b,k,n) -> (b,m,n)\n"
             "  transpose                (r,c) -> (c,r), as np.ascontiguousarray(x.T)",
             run_op_names_of(RUN_BINARY), run_op_names_of(RUN_UNARY), run_op_names_of(RUN_REDUCE));
    return text;
}

typedef struct run_args {
    const char *output, *device, *config;
    bool verify, timing, report;
    const char *positional[4];
    int npos;
} run_args;

/* Store an option that may be given once. */
static bool set_once(const char **slot, const char *value)
{
    if (*slot)
        return false;
    *slot = value;
    return true;
}

/* CLI_CONTINUE, or the exit code after --help or a usage error. */
static int parse_options(int argc, char **argv, run_args *a)
{
    cli_parser p;
    cli_parser_init(&p, &cli_run_command, argc, argv);
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        const char **slot = key == 'o'          ? &a->output
                            : key == 'd'        ? &a->device
                            : key == OPT_CONFIG ? &a->config
                                                : NULL;
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (slot && !set_once(slot, p.value))
            return cli_usage_error("run", "option --%s given twice",
                                   key == 'o'   ? "output"
                                   : key == 'd' ? "device"
                                                : "config");
        a->verify |= key == OPT_VERIFY;
        a->timing |= key == OPT_TIME;
        a->report |= key == OPT_REPORT;
    }
    for (int i = p.next; i < argc; i++) {
        if (a->npos == 4)
            return cli_usage_error("run", "too many arguments (from '%s' on)", argv[i]);
        a->positional[a->npos++] = argv[i];
    }
    return CLI_CONTINUE;
}

/* The checks on the arguments that need no file; the op into *out_op.
 * CLI_CONTINUE, or the exit code after a message. */
static int check_args(const run_args *a, const run_op **out_op)
{
    if (a->npos == 0)
        return cli_usage_error("run", "missing OP (add, matmul, sum, ...)");
    const run_op *op = run_op_find(a->positional[0]);
    if (!op)
        return cli_usage_error("run", "unknown op '%s'; known ops: %s", a->positional[0],
                               run_op_names());
    int nin = run_op_arity(op);
    if (a->npos - 1 != nin)
        return cli_usage_error("run", "%s takes %d input file%s, got %d", op->name, nin,
                               nin == 1 ? "" : "s", a->npos - 1);
    if (!a->output)
        return cli_usage_error("run", "missing -o OUT.npy");
    if (!a->output[0])
        return cli_usage_error("run", "the output path is empty");
    if (a->device && !a->device[0])
        return cli_usage_error("run", "the device name is empty");
    if (a->config && !a->config[0])
        return cli_usage_error("run", "the config path is empty");
    *out_op = op;
    return CLI_CONTINUE;
}

/* The input files into j, of one float dtype; false after a message. */
static bool load_inputs(run_job *j)
{
    for (int i = 0; i < j->nin; i++) {
        accel_status st = accel_npy_load(j->paths[i], &j->in[i]);
        if (st != ACCEL_SUCCESS) {
            cli_runtime_error("run", st, "cannot read input");
            return false;
        }
        if (j->in[i].dtype != ACCEL_F32 && j->in[i].dtype != ACCEL_F64) {
            fprintf(stderr, "accel run: %s: %s holds %s; ops take float32 or float64\n",
                    j->op->name, j->paths[i], accel_dtype_name(j->in[i].dtype));
            return false;
        }
    }
    if (j->nin == 2 && j->in[0].dtype != j->in[1].dtype) {
        fprintf(stderr,
                "accel run: %s: inputs differ in dtype: %s is %s, %s is %s (convert one with "
                "astype)\n",
                j->op->name, j->paths[0], accel_dtype_name(j->in[0].dtype), j->paths[1],
                accel_dtype_name(j->in[1].dtype));
        return false;
    }
    j->dt = j->in[0].dtype;
    return run_output_shape(j);
}

/* "accel: OP ran on DEVICE (MODEL)", and the fallback that made it so. */
static void print_placement(accel_runtime *rt, const run_job *j, const run_placement *w)
{
    accel_device *dev = NULL;
    accel_device_properties p;
    accel_device_properties_init(&p);
    bool props = accel_device_get_by_name(rt, w->device, &dev) == ACCEL_SUCCESS &&
                 accel_device_properties_get(dev, &p) == ACCEL_SUCCESS;
    fprintf(stderr, "accel: %s ran on %s", j->op->name, w->device);
    if (props)
        fprintf(stderr, " (%s)", p.name);
    if (w->fell_back)
        fprintf(stderr, ", the fallback of %s: %s", w->asked,
                w->reason[0] ? w->reason : "the op is not supported there");
    fprintf(stderr, "\n");
}

/* Open the runtime, run the op, write OUT.npy, print where it ran. */
static int execute(const run_args *a, run_job *j, accel_runtime *rt)
{
    if (a->report)
        accel_report_enable(rt, true);
    accel_device *dev = NULL;
    int lrc = cli_device_lookup("run", rt, a->device, &dev);
    if (lrc != CLI_EXIT_OK)
        return lrc;
    size_t esize = accel_dtype_size(j->dt);
    void *result = malloc(j->out_count ? j->out_count * esize : 1);
    if (!result) {
        fprintf(stderr, "accel run: out of host memory for the result\n");
        return CLI_EXIT_RUNTIME;
    }
    int rc = CLI_EXIT_RUNTIME;
    double ms = 0;
    run_placement where;
    if (run_compute(rt, dev, j, result, a->timing ? &ms : NULL, &where) != ACCEL_SUCCESS)
        goto done;
    accel_status st = accel_npy_save(a->output, j->dt, j->out_ndim, j->out_shape, result);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run", st, "cannot write the output");
        goto done;
    }
    print_placement(rt, j, &where);
    if (a->timing)
        fprintf(stderr, "accel: %s took %.3f ms on %s (device time between events)\n", j->op->name,
                ms, where.device);
    /* The report counts the user's op; --verify's own run on the CPU is a
     * check of it, not one of the user's ops (counts already made stay). */
    if (a->verify)
        accel_report_enable(rt, false);
    if (!a->verify || run_verify_on_cpu(rt, dev, j, result))
        rc = CLI_EXIT_OK;
done:
    free(result);
    return rc;
}

static int run_main(int argc, char **argv)
{
    const cli_command *sub = argc > 1 ? cli_subcommand(&cli_run_command, argv[1]) : NULL;
    if (sub) /* eval: an expression as a user kernel */
        return sub->main(argc - 1, argv + 1);
    run_args a;
    memset(&a, 0, sizeof a);
    const run_op *op = NULL;
    int rc = parse_options(argc, argv, &a);
    if (rc == CLI_CONTINUE)
        rc = check_args(&a, &op);
    if (rc != CLI_CONTINUE)
        return rc;
    run_job j;
    memset(&j, 0, sizeof j);
    j.op = op;
    j.nin = run_op_arity(op);
    j.paths[0] = a.positional[1];
    j.paths[1] = j.nin == 2 ? a.positional[2] : NULL;
    accel_runtime *rt = NULL;
    rc = CLI_EXIT_RUNTIME;
    if (load_inputs(&j)) {
        accel_status st = accel_runtime_open(a.config, &rt);
        if (st != ACCEL_SUCCESS)
            cli_runtime_error("run", st, "cannot open the runtime");
        else
            rc = execute(&a, &j, rt);
    }
    if (a.report && rt) {
        char text[8192];
        if (accel_report_format(rt, text, sizeof text, NULL) == ACCEL_SUCCESS)
            fputs(text, stderr);
        if (a.verify)
            fprintf(stderr, "  (not counted: the --verify run of %s on cpu:0, its reference)\n",
                    op->name);
    }
    accel_runtime_close(rt);
    accel_npy_free(&j.in[0]);
    accel_npy_free(&j.in[1]);
    return rc;
}
