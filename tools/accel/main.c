/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* main.c — entry point of the `accel` program: its own options, the list of
 * subcommands (each is one cli_command table and a main, cli.h). The error
 * helpers the subcommands share are in cli_errors.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const cli_command *const cli_commands[] = {
    &cli_info_command,   &cli_run_command,   &cli_verify_command,
    &cli_replay_command, &cli_bench_command, &cli_demo_command,
};
const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

enum { OPT_MAN = CLI_LONG, OPT_COMPLETION };

static const cli_option program_options[] = {
    {"version", 'V', NULL, "print the versions of the program and of libaccel and exit", NULL},
    {"man", OPT_MAN, "DIR",
     "write the manual pages (accel.1, and accel-COMMAND.1 for every\ncommand and subcommand) into "
     "DIR and exit",
     NULL},
    {"completion", OPT_COMPLETION, NULL, "print the bash completion script and exit", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

const cli_command cli_program = {
    .name = NULL,
    .summary = "run compute ops on GPUs and CPUs through plugins, and say where they ran",
    .synopsis = "COMMAND [ARGS...]\n--help | --version\nhelp COMMAND [SUBCOMMAND]",
    .description = "accel runs compute ops on whatever backends plugins.ini loads (CUDA GPUs,\n"
                   "the CPU) and tells you where they ran. Run 'accel COMMAND --help' (or\n"
                   "'accel help COMMAND') for a command's options.",
    .options = program_options,
    .notes = "environment:\n"
             "  ACCEL_CONFIG=FILE         the plugins.ini to use (default: the one next to\n"
             "                            libaccel); --config overrides it\n"
             "  ACCEL_BACKEND=NAME        put that backend first; its failure is an error\n"
             "  ACCEL_LOG=LEVEL           debug, info, warn (default), error or off\n"
             "  ACCEL_TRACE=FILE          write a Chrome trace-event file of every op and\n"
             "                            transfer when the runtime closes\n"
             "  ACCEL_VERIFY=DEVICE|off   check every op against DEVICE (verify mode);\n"
             "                            overrides [runtime] verify\n"
             "  ACCEL_REPORT=1|0          count ops per device and print the placement\n"
             "                            report at close; overrides [runtime] report\n"
             "  ACCEL_ALLOW_INSECURE=1    load plugins and configuration files that others\n"
             "                            can write (refused by default)\n"
             "  ACCEL_KERNEL_CACHE=DIR|off where compiled user kernels are cached (default:\n"
             "                            the user's cache folder); overrides [runtime]\n"
             "                            kernel_cache\n"
             "  ACCEL_KERNEL_DEBUG=1|0    run every raw kernel launch on the CPU twin with\n"
             "                            checked accesses (a debug launch); overrides\n"
             "                            [runtime] kernel_debug\n"
             "  ACCEL_CPU_KERNEL_COMPILER=auto|cc|tcc\n"
             "                            the CPU backend's compiler of user kernels;\n"
             "                            overrides [backend.cpu] kernel_compiler\n"
             "  ACCEL_CPU_KERNEL_ISA=auto|baseline\n"
             "                            the CPU's kernels built for AVX2 where the CPU\n"
             "                            has it (auto), or for the compiler's default\n"
             "  ACCEL_CPU_VMATH=avx2|sse2  the CPU's exp, log, tanh, sin, cos at most that\n"
             "                            vector width (testing)\n"
             "  ACCEL_ARRAY_WALK=grid[:B] strided array kernels walk grid-stride, as on a\n"
             "                            GPU, on every device (testing)\n"
             "  ACCEL_MPI_NCCL=0          libaccel_mpi stages GPU buffers through host\n"
             "                            memory and MPI instead of NCCL ('accel info'\n"
             "                            shows each device's transport)\n"
             "\n"
             "exit status:\n"
             "  0  success\n"
             "  1  the work failed (a device, a file, a check)\n"
             "  2  the command line is wrong",
    .main = NULL,
    .operand_words = NULL,
};

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < cli_command_count; i++)
        if (strcmp(cli_commands[i]->name, name) == 0)
            return cli_commands[i];
    return NULL;
}

/* One page into dir/name. */
static int write_page(const char *dir, const char *name, const cli_command *cmd)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "accel: cannot write %s: %s\n", path, strerror(errno));
        return CLI_EXIT_RUNTIME;
    }
    cli_man_print(f, cmd);
    if (fclose(f) != 0) {
        fprintf(stderr, "accel: cannot write %s: %s\n", path, strerror(errno));
        return CLI_EXIT_RUNTIME;
    }
    return CLI_EXIT_OK;
}

/* accel.1, accel-COMMAND.1 and accel-COMMAND-SUB.1 into dir. */
static int write_man_pages(const char *dir)
{
    int rc = write_page(dir, "accel.1", &cli_program);
    for (size_t i = 0; i < cli_command_count && rc == CLI_EXIT_OK; i++) {
        const cli_command *c = cli_commands[i];
        for (const cli_command *const *sub = c->subcommands; rc == CLI_EXIT_OK;) {
            char page[64], name[80];
            snprintf(name, sizeof name, "%s.1", cli_page_name(c, page, sizeof page));
            rc = write_page(dir, name, c);
            if (!sub || !*sub)
                break;
            c = *sub++;
        }
    }
    return rc;
}

/* `accel help [COMMAND]`. */
static int help_command(int argc, char **argv)
{
    if (argc < 2) {
        cli_help_print(stdout, &cli_program);
        return CLI_EXIT_OK;
    }
    const cli_command *c = find_command(argv[1]);
    if (!c)
        return cli_usage_error("", "unknown command '%s'", argv[1]);
    if (argc > 2) { /* help run eval */
        const cli_command *sub = cli_subcommand(c, argv[2]);
        if (!sub)
            return cli_usage_error("", "'%s' has no subcommand '%s'", c->name, argv[2]);
        c = sub;
    }
    cli_help_print(stdout, c);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    cli_parser p;
    cli_parser_init(&p, &cli_program, argc, argv);
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        switch (key) {
        case CLI_OPT_EXIT:
            return p.exit_code;
        case 'V':
            printf("accel %s (libaccel %s)\n", ACCEL_VERSION_STRING, accel_version());
            return CLI_EXIT_OK;
        case OPT_MAN:
            return write_man_pages(p.value);
        case OPT_COMPLETION:
            cli_completion_print(stdout);
            return CLI_EXIT_OK;
        }
    }
    if (p.next >= argc) {
        cli_help_print(stderr, &cli_program);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[p.next];
    if (strcmp(name, "help") == 0)
        return help_command(argc - p.next, argv + p.next);
    const cli_command *c = find_command(name);
    if (!c)
        return cli_usage_error("", "unknown command '%s'", name);
    return c->main(argc - p.next, argv + p.next);
}
