/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cli_opt.c — command-line parsing for every subcommand: getopt_long driven by
 * the command's option table (cli.h), with messages that name the option. */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_OPTIONS 32

static const cli_option help_option = {"help", 'h', NULL, "print this help and exit", NULL};

/* The getopt tables of the command being parsed (one at a time). */
static struct option long_opts[MAX_OPTIONS + 1];
static char short_opts[2 * MAX_OPTIONS + 4];

static void build_tables(const cli_command *cmd)
{
    size_t n = 0, s = 0;
    if (!cmd->name)
        short_opts[s++] = '+'; /* the program's own options end at the command's name */
    short_opts[s++] = ':';     /* a missing value returns ':', not '?' */
    for (const cli_option *o = cmd->options; o && o->name && n < MAX_OPTIONS - 1; o++, n++) {
        long_opts[n] =
            (struct option){o->name, o->arg ? required_argument : no_argument, NULL, o->key};
        if (o->key < CLI_LONG) {
            short_opts[s++] = (char)o->key;
            if (o->arg)
                short_opts[s++] = ':';
        }
    }
    long_opts[n++] = (struct option){help_option.name, no_argument, NULL, 'h'};
    long_opts[n] = (struct option){NULL, 0, NULL, 0};
    short_opts[s++] = 'h';
    short_opts[s] = '\0';
}

void cli_parser_init(cli_parser *p, const cli_command *cmd, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    p->next = argc;
    build_tables(cmd);
    optind = 0; /* glibc: start over on a new argv */
    opterr = 0; /* our messages, not getopt's */
}

static const cli_option *find_key(const cli_command *cmd, int key)
{
    for (const cli_option *o = cmd->options; o && o->name; o++)
        if (o->key == key)
            return o;
    return key == 'h' ? &help_option : NULL;
}

/* "--dev" matching --device and --devices: list the candidates. */
static int unknown_long(const cli_parser *p, const char *arg)
{
    const char *cmd = p->cmd->name ? p->cmd->name : "";
    if (strncmp(arg, "--", 2) != 0)
        return cli_usage_error(cmd, "unknown option '%s'", arg);
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    char cands[256] = "";
    size_t used = 0, count = 0;
    for (const cli_option *o = p->cmd->options; o && o->name; o++)
        if (strncmp(o->name, name, len) == 0 && used < sizeof cands) {
            int w =
                snprintf(cands + used, sizeof cands - used, "%s--%s", count ? ", " : "", o->name);
            used += w > 0 ? (size_t)w : 0;
            count++;
        }
    if (count > 1)
        return cli_usage_error(cmd, "option '%.*s' is ambiguous: %s", (int)len + 2, arg, cands);
    return cli_usage_error(cmd, "unknown option '%.*s'", (int)len + 2, arg);
}

/* A '?' from getopt: an unknown option, or a value given to a flag. */
static int bad_option(const cli_parser *p)
{
    const char *cmd = p->cmd->name ? p->cmd->name : "";
    const char *arg = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
    const cli_option *o = optopt ? find_key(p->cmd, optopt) : NULL;
    if (o && strncmp(arg, "--", 2) == 0 && strchr(arg, '='))
        return cli_usage_error(cmd, "option --%s takes no value", o->name);
    if (optopt && optopt < CLI_LONG)
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    return unknown_long(p, arg);
}

int cli_parser_next(cli_parser *p)
{
    p->value = NULL;
    int key = getopt_long(p->argc, p->argv, short_opts, long_opts, NULL);
    const char *cmd = p->cmd->name ? p->cmd->name : "";
    if (key == -1) {
        p->next = optind;
        return CLI_OPT_END;
    }
    p->exit_code = CLI_EXIT_USAGE;
    if (key == '?') {
        bad_option(p);
        return CLI_OPT_EXIT;
    }
    if (key == ':') {
        const cli_option *o = find_key(p->cmd, optopt);
        if (o && o->key < CLI_LONG)
            cli_usage_error(cmd, "option -%c (--%s) needs a value (%s)", o->key, o->name, o->arg);
        else
            cli_usage_error(cmd, "option --%s needs a value (%s)", o ? o->name : "?",
                            o ? o->arg : "?");
        return CLI_OPT_EXIT;
    }
    if (key == 'h') {
        cli_help_print(stdout, p->cmd);
        p->exit_code = CLI_EXIT_OK;
        return CLI_OPT_EXIT;
    }
    p->value = optarg;
    return key;
}

bool cli_parse_u64(const char *s, unsigned long long min, unsigned long long max,
                   unsigned long long *out)
{
    if (!s || *s < '0' || *s > '9') /* strtoull would accept " 1", "+1" and "-1" */
        return false;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    if ((base == 16 && !*s) || *s == '-' || *s == '+' || *s == ' ')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno == ERANGE || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}
