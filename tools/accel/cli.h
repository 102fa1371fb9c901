/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cli.h — what the subcommands of the `accel` program share: exit codes, the
 * table that describes a subcommand (one source for --help, the parser, the
 * man pages and the bash completion: cli_help.c, cli_opt.c), and small error
 * helpers (main.c). */
#ifndef ACCEL_CLI_H
#define ACCEL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "accel/accel.h"

/* Exit codes of every subcommand. */
enum {
    CLI_CONTINUE = -1,    /* not an exit code: option parsing says "go on" */
    CLI_EXIT_OK = 0,      /* success */
    CLI_EXIT_RUNTIME = 1, /* the work failed: bad input file, device error, ... */
    CLI_EXIT_USAGE = 2    /* the command line is wrong */
};

/* One option of a command. help is one paragraph: --help wraps it to the
 * terminal's 80 columns, the man page lets roff fill it. */
typedef struct cli_option {
    const char *name; /* long name without "--"; NULL ends a table */
    int key;          /* short letter ('o' for -o), or CLI_LONG + n for long only */
    const char *arg;  /* name of the value ("FILE"), NULL for a flag */
    const char *help;
    const char *values; /* for completion: "small medium large"; NULL: by arg name */
} cli_option;

#define CLI_LONG 0x100

/* A subcommand, or (with name NULL in main.c) the program itself. Text:
 * paragraphs separated by an empty line; a line starting with two spaces is
 * kept as it is (a table or an example) in the man page too. */
typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `accel --help` and the man page's NAME */
    /* After "accel NAME "; several forms separated by '\n', a line that
     * starts with spaces continues the form before it. */
    const char *synopsis;
    const char *description; /* after the synopsis */
    const cli_option *options;
    const char *notes;                  /* after the options: exit status, examples */
    int (*main)(int argc, char **argv); /* argv[0] is the name; returns a CLI_EXIT_* code */
    /* For completion: words the first operand may be ("add subtract ..."). */
    const char *(*operand_words)(void);
    /* When set, the description is built from other tables (the op names of
     * `accel run`) instead of being a fixed string. */
    const char *(*description_fn)(void);
    /* Commands reached as `accel NAME SUB ...` (`accel run eval`), each with
     * a table of its own whose name is "NAME SUB"; NULL-terminated, NULL for
     * none. Their synopses follow this command's in --help and its man page,
     * each has its own man page (accel-NAME-SUB.1) and completion. */
    const struct cli_command *const *subcommands;
} cli_command;

/* The description of cmd: description_fn's text, or description. */
const char *cli_description(const cli_command *cmd);

/* The subcommand of cmd whose last word is word; NULL when none. */
const cli_command *cli_subcommand(const cli_command *cmd, const char *word);

/* The last word of a command's name ("eval" of "run eval"). */
const char *cli_last_word(const cli_command *cmd);

/* "accel", "accel-run", "accel-run-eval": cmd's man page name, into buf. */
const char *cli_page_name(const cli_command *cmd, char *buf, size_t cap);

extern const cli_command cli_info_command, cli_run_command, cli_verify_command, cli_replay_command,
    cli_bench_command, cli_demo_command;
/* `accel run eval EXPR NAME=IN.npy ...` (run_eval.c), a subcommand of run. */
extern const cli_command cli_run_eval_command;
extern const cli_command cli_run_array_command;

/* Every subcommand, in the order of `accel --help` (main.c). */
extern const cli_command *const cli_commands[];
extern const size_t cli_command_count;
/* The program's own description and global options (main.c). */
extern const cli_command cli_program;

/* ------------------------------------------------------------ parsing */

/* getopt_long over a command's table (cli_opt.c): short options bundle and
 * take their value attached or apart (-oout.npy, -o out.npy), long options
 * take --name=VALUE or --name VALUE and may be shortened to any unambiguous
 * prefix (--dev), operands and options mix in any order, "--" ends the
 * options. --help (-h) is added to every table. */
typedef struct cli_parser {
    const cli_command *cmd;
    int argc;
    char **argv;
    const char *value; /* the current option's value, NULL for a flag */
    int exit_code;     /* after CLI_OPT_EXIT: what the command returns */
    int next;          /* after the loop: argv[next..argc-1] are the operands */
} cli_parser;

enum {
    CLI_OPT_END = -1, /* no more options */
    CLI_OPT_EXIT = -2 /* stop: --help was printed (exit 0) or an error (exit 2) */
};

void cli_parser_init(cli_parser *p, const cli_command *cmd, int argc, char **argv);

/* The next option's key (cli_option.key) with its value in p->value, or
 * CLI_OPT_END, or CLI_OPT_EXIT after printing --help or a usage error
 * (unknown or ambiguous option, missing value, a value given to a flag). */
int cli_parser_next(cli_parser *p);

/* Parse an unsigned integer (decimal, or hex after 0x) in [min, max]: no sign, no spaces, no
 * trailing text, no overflow. False (and *out untouched) otherwise. */
bool cli_parse_u64(const char *s, unsigned long long min, unsigned long long max,
                   unsigned long long *out);

/* ------------------------------------------------------- help, man, bash */

/* --help text of cmd (cli_program for the program's own). */
void cli_help_print(FILE *out, const cli_command *cmd);

/* The man page of cmd as roff (man(7) macros). */
void cli_man_print(FILE *out, const cli_command *cmd);

/* The bash completion script for the program and every subcommand. */
void cli_completion_print(FILE *out);

/* ------------------------------------------------------------- errors */

/* Prints "accel CMD: error: ..." and a hint to --help; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...);

/* Prints "accel CMD: what: <accel_last_error or the status message> (STATUS)";
 * returns CLI_EXIT_RUNTIME. */
int cli_runtime_error(const char *cmd, accel_status st, const char *what);

/* After a failed device lookup: a hint for names people try that are not
 * device names ("gpu": GPUs are named cuda, cuda:N). */
void cli_device_hint(const char *cmd, const char *name);

/* The device --device names in *out, or the default device when name is
 * NULL. A name of no device (unknown or malformed) is a usage error: prints
 * "accel CMD: error: --device NAME: <the core's message, which lists the known
 * devices> (STATUS)" and the hint, and returns CLI_EXIT_USAGE, as in every
 * subcommand. No default device: the runtime error, CLI_EXIT_RUNTIME. */
int cli_device_lookup(const char *cmd, accel_runtime *rt, const char *name, accel_device **out);

/* The runtime (config: a plugins.ini or NULL) and the device --device
 * names (cli_device_lookup), in verify mode against the CPU (mismatches
 * fail the call) when verify: CLI_EXIT_OK, else the exit code after the
 * message. *rt is the caller's to close, also on failure. */
int cli_open_device(const char *cmd, const char *config, const char *device, bool verify,
                    accel_runtime **rt, accel_device **dev);

/* "CPU", "GPU" or "other" for an accel_device_kind. */
const char *cli_kind_name(uint32_t kind);

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
