/* main.c — entry point of the `accel` program: global options and the table of
 * subcommands. A new subcommand (verify, bench, demo, replay, ...) is one file
 * with a cli_<name>_main and cli_<name>_usage, declared in cli.h and listed in
 * `commands` below. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static const cli_command commands[] = {
    {"info", "show the configuration, every backend (loaded or why not) and every device",
     cli_info_main, cli_info_usage},
    {"run", "run one op on .npy files (NumPy names: add, matmul, sum, ...)", cli_run_main,
     cli_run_usage},
    {"verify", "conformance suite: every op, dtype and shape on a device or plugin vs the CPU",
     cli_verify_main, cli_verify_usage},
    {"replay", "run a verify-mode mismatch (repro file) again", cli_replay_main,
     cli_replay_usage},
    {"bench", "measure ops against this device's own ceilings (memcpy, cuBLAS, ...)",
     cli_bench_main, cli_bench_usage},
    {"demo", "walk through the tutorial on the default device, checked against the CPU",
     cli_demo_main, cli_demo_usage},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: accel COMMAND [ARGS...]\n"
                 "       accel --help | --version\n"
                 "       accel help COMMAND\n"
                 "\n"
                 "accel runs compute ops on whatever backends plugins.ini loads (CUDA GPUs,\n"
                 "the CPU) and tells you where they ran.\n"
                 "\n"
                 "commands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n"
            "environment:\n"
            "  ACCEL_CONFIG=FILE   the plugins.ini to use (default: the one next to libaccel)\n"
            "  ACCEL_BACKEND=NAME  put that backend first; its failure is an error\n"
            "  ACCEL_LOG=LEVEL     debug, info, warn (default), error or off\n"
            "\n"
            "exit status: 0 success, 1 the work failed, 2 usage error.\n"
            "Run 'accel COMMAND --help' for a command's options.\n");
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

bool cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int cli_option_value(int argc, char **argv, int *i, const char *long_name, const char *short_name,
                     const char **out_value)
{
    const char *arg = argv[*i];
    size_t l = strlen(long_name);
    if (strncmp(arg, long_name, l) == 0 && arg[l] == '=') {
        *out_value = arg + l + 1;
        (*i)++;
        return 1;
    }
    if (strcmp(arg, long_name) == 0 || (short_name && strcmp(arg, short_name) == 0)) {
        if (*i + 1 >= argc)
            return -1;
        *out_value = argv[*i + 1];
        *i += 2;
        return 1;
    }
    return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "accel %s: error: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(run 'accel %s --help' for usage)\n", cmd);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

int cli_runtime_error(const char *cmd, accel_status st, const char *what)
{
    const char *msg = accel_last_error();
    if (!msg || !msg[0])
        msg = accel_status_string(st);
    fprintf(stderr, "accel %s: %s: %s (%s)\n", cmd, what, msg, accel_status_name(st));
    return CLI_EXIT_RUNTIME;
}

void cli_device_hint(const char *cmd, const char *name)
{
    if (name && strncasecmp(name, "gpu", 3) == 0 && (name[3] == '\0' || name[3] == ':'))
        fprintf(stderr, "accel %s: hint: GPUs are named cuda, cuda:N\n", cmd);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (cli_is_help(first)) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) {
        printf("accel %s (libaccel %s)\n", ACCEL_VERSION_STRING, accel_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(first, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return CLI_EXIT_OK;
        }
        const cli_command *c = find_command(argv[2]);
        if (!c) {
            fprintf(stderr, "accel: unknown command '%s'; run 'accel --help'\n", argv[2]);
            return CLI_EXIT_USAGE;
        }
        c->usage(stdout);
        return CLI_EXIT_OK;
    }
    const cli_command *c = find_command(first);
    if (!c) {
        fprintf(stderr, "accel: unknown %s '%s'; run 'accel --help' for the list\n",
                first[0] == '-' ? "option" : "command", first);
        return CLI_EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (cli_is_help(argv[i])) {
            c->usage(stdout);
            return CLI_EXIT_OK;
        }
    }
    return c->main(argc - 1, argv + 1);
}
