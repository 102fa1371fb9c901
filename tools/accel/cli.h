/* cli.h — what the subcommands of the `accel` program share: exit codes, the
 * subcommand signature and small argument-parsing and error helpers (main.c). */
#ifndef ACCEL_CLI_H
#define ACCEL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "accel/accel.h"

/* Exit codes of every subcommand. */
enum {
    CLI_EXIT_OK = 0,      /* success */
    CLI_EXIT_RUNTIME = 1, /* the work failed: bad input file, device error, ... */
    CLI_EXIT_USAGE = 2    /* the command line is wrong */
};

/* A subcommand: argv[0] is the subcommand's name, the rest its arguments. */
typedef struct cli_command {
    const char *name;
    const char *summary;                /* one line for `accel --help` */
    int (*main)(int argc, char **argv); /* returns a CLI_EXIT_* code */
    void (*usage)(FILE *out);           /* full usage text */
} cli_command;

int cli_info_main(int argc, char **argv);
void cli_info_usage(FILE *out);
int cli_run_main(int argc, char **argv);
void cli_run_usage(FILE *out);
int cli_verify_main(int argc, char **argv);
void cli_verify_usage(FILE *out);
int cli_replay_main(int argc, char **argv);
void cli_replay_usage(FILE *out);
int cli_bench_main(int argc, char **argv);
void cli_bench_usage(FILE *out);
int cli_demo_main(int argc, char **argv);
void cli_demo_usage(FILE *out);

/* Matches "--name VALUE" and "--name=VALUE" (and short, e.g. "-o VALUE") at
 * argv[*i]. On a match stores VALUE, advances *i past it and returns 1;
 * returns -1 when VALUE is missing (the caller reports it), 0 when argv[*i] is
 * another argument. */
int cli_option_value(int argc, char **argv, int *i, const char *long_name, const char *short_name,
                     const char **out_value);

/* Prints "accel CMD: error: ..." and a hint to --help; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...);

/* Prints "accel CMD: what: <accel_last_error or the status message> (STATUS)";
 * returns CLI_EXIT_RUNTIME. */
int cli_runtime_error(const char *cmd, accel_status st, const char *what);

/* After a failed device lookup: a hint for names people try that are not
 * device names ("gpu": GPUs are named cuda, cuda:N). */
void cli_device_hint(const char *cmd, const char *name);

/* True for "-h" and "--help". */
bool cli_is_help(const char *arg);

/* Enqueue the op d describes (accel/backend.h's plain data: op, dtype,
 * operand offsets and counts, scalars, GEMM and transpose shape) through the
 * public API on bufs[i] (opcall.c; used by verify and replay). */
#include "accel/backend.h"
accel_status cli_op_enqueue(accel_queue *q, const accel_op_desc *d, accel_buffer *const bufs[4]);
/* d as accel_tolerance_compare takes it (accel/verify.h), in *t; returns t. */
struct accel_tolerance_op;
const struct accel_tolerance_op *cli_tolerance_op(const accel_op_desc *d,
                                                  struct accel_tolerance_op *t);

#endif /* ACCEL_CLI_H */
