/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cli_help.c — --help text and man pages, both written from the command
 * tables of cli.h, so that they cannot say different things. Text rules
 * (cli.h): paragraphs are separated by an empty line, a line starting with
 * two spaces is kept as it is, and a paragraph whose first line ends with ':'
 * and is not indented starts with a heading (a section in the man page). */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"

static const cli_option help_option = {"help", 'h', NULL, "print this help and exit", NULL};

/* ------------------------------------------------------------- --help */

const char *cli_description(const cli_command *cmd)
{
    return cmd->description_fn ? cmd->description_fn() : cmd->description;
}

const char *cli_last_word(const cli_command *cmd)
{
    const char *sp = strrchr(cmd->name, ' ');
    return sp ? sp + 1 : cmd->name;
}

const cli_command *cli_subcommand(const cli_command *cmd, const char *word)
{
    for (const cli_command *const *s = cmd->subcommands; s && *s; s++)
        if (strcmp(cli_last_word(*s), word) == 0)
            return *s;
    return NULL;
}

const char *cli_page_name(const cli_command *cmd, char *buf, size_t cap)
{
    snprintf(buf, cap, "accel%s%s", cmd->name ? "-" : "", cmd->name ? cmd->name : "");
    for (char *c = buf; *c; c++)
        if (*c == ' ')
            *c = '-';
    return buf;
}

/* "-o, --output FILE" into buf; its length. */
static int option_label(const cli_option *o, char *buf, size_t cap)
{
    int n;
    if (o->key < CLI_LONG)
        n = snprintf(buf, cap, "-%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
    else
        n = snprintf(buf, cap, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    return n < 0 ? 0 : n;
}

static int label_width(const cli_option *opts)
{
    char buf[96];
    int w = option_label(&help_option, buf, sizeof buf);
    for (const cli_option *o = opts; o && o->name; o++) {
        int n = option_label(o, buf, sizeof buf);
        w = n > w ? n : w;
    }
    return w > 24 ? 24 : w;
}

/* text as one paragraph wrapped to `width` columns, each line after the first
 * indented by `indent`. */
static void wrap(FILE *out, const char *text, int indent, int width)
{
    int col = 0;
    while (*text) {
        text += strspn(text, " \n");
        size_t len = strcspn(text, " \n");
        if (!len)
            break;
        if (col && col + 1 + (int)len > width) {
            fprintf(out, "\n%*s", indent, "");
            col = 0;
        }
        fprintf(out, "%s%.*s", col ? " " : "", (int)len, text);
        col += (col ? 1 : 0) + (int)len;
        text += len;
    }
    fputc('\n', out);
}

static void help_option_line(FILE *out, const cli_option *o, int width)
{
    char label[96];
    int n = option_label(o, label, sizeof label);
    fprintf(out, "  %s", label);
    if (n > width)
        fprintf(out, "\n  %*s", width, "");
    else
        fprintf(out, "%*s", width - n, "");
    fputs("  ", out);
    wrap(out, o->help, width + 4, 79 - (width + 4));
}

static void help_options(FILE *out, const cli_option *opts)
{
    int width = label_width(opts);
    fprintf(out, "\noptions:\n");
    for (const cli_option *o = opts; o && o->name; o++)
        help_option_line(out, o, width);
    help_option_line(out, &help_option, width);
}

/* cmd's forms, the first after lead, then those of its subcommands. */
static void help_synopsis(FILE *out, const cli_command *cmd, const char *lead)
{
    const char *s = cmd->synopsis;
    /* "usage: accel NAME ", the column continuation lines start at. */
    int indent = 13 + (cmd->name ? 1 + (int)strlen(cmd->name) : 0);
    for (;;) {
        size_t len = strcspn(s, "\n");
        size_t pad = strspn(s, " ");
        if (pad && pad < len)
            fprintf(out, "%*s%.*s\n", indent, "", (int)(len - pad), s + pad);
        else
            fprintf(out, "%saccel%s%s %.*s\n", lead, cmd->name ? " " : "",
                    cmd->name ? cmd->name : "", (int)len, s);
        if (!s[len])
            break;
        s += len + 1;
        lead = "       ";
    }
    for (const cli_command *const *sub = cmd->subcommands; sub && *sub; sub++)
        help_synopsis(out, *sub, "       ");
}

void cli_help_print(FILE *out, const cli_command *cmd)
{
    help_synopsis(out, cmd, "usage: ");
    if (cli_description(cmd))
        fprintf(out, "\n%s\n", cli_description(cmd));
    if (!cmd->name) {
        fprintf(out, "\ncommands:\n");
        for (size_t i = 0; i < cli_command_count; i++)
            fprintf(out, "  %-8s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    }
    if (cmd->subcommands) {
        fprintf(out, "\ncommands:\n");
        for (const cli_command *const *sub = cmd->subcommands; *sub; sub++)
            fprintf(out, "  %-8s %s\n           ('accel %s --help' for its options)\n",
                    cli_last_word(*sub), (*sub)->summary, (*sub)->name);
    }
    help_options(out, cmd->options);
    if (cmd->notes)
        fprintf(out, "\n%s\n", cmd->notes);
}

/* ---------------------------------------------------------- man pages */

/* One line of text for roff: backslashes and hyphens escaped, a leading
 * '.' or '\'' made literal. */
static void man_escape(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\\')
            fputs("\\e", out);
        else if (s[i] == '-')
            fputs("\\-", out);
        else
            fputc(s[i], out);
    }
}

static void man_text(FILE *out, const char *s, size_t len)
{
    if (len && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", out);
    man_escape(out, s, len);
    fputc('\n', out);
}

static bool is_heading(const char *line, size_t len)
{
    return len > 1 && line[0] != ' ' && line[len - 1] == ':';
}

static void man_heading(FILE *out, const char *line, size_t len, bool section)
{
    fputs(section ? ".SH \"" : ".SS \"", out);
    for (size_t i = 0; i + 1 < len; i++)
        fputc(section ? toupper((unsigned char)line[i]) : line[i], out);
    fputs("\"\n", out);
}

/* Text by the rules of the file's opening comment; headings become .SH when
 * sections is true, else .SS. */
static void man_body(FILE *out, const char *text, bool sections)
{
    bool verbatim = false, para_start = true;
    while (text && *text) {
        size_t len = strcspn(text, "\n");
        bool indented = len >= 2 && text[0] == ' ' && text[1] == ' ';
        if (len == 0) {
            if (verbatim)
                fputs(".fi\n", out);
            verbatim = false;
            fputs(".PP\n", out);
            para_start = true;
        } else if (para_start && is_heading(text, len)) {
            man_heading(out, text, len, sections);
        } else {
            if (indented && !verbatim)
                fputs(".nf\n", out);
            else if (!indented && verbatim)
                fputs(".fi\n", out);
            verbatim = indented;
            man_text(out, text, len);
        }
        if (len)
            para_start = false;
        text += len + (text[len] == '\n');
    }
    if (verbatim)
        fputs(".fi\n", out);
}

static void man_option(FILE *out, const cli_option *o)
{
    fputs(".TP\n", out);
    if (o->key < CLI_LONG)
        fprintf(out, "\\fB\\-%c\\fR, ", o->key);
    fprintf(out, "\\fB\\-\\-");
    man_escape(out, o->name, strlen(o->name));
    if (o->arg)
        fprintf(out, "\\fR \\fI%s\\fR\n", o->arg);
    else
        fputs("\\fR\n", out);
    man_body(out, o->help, false);
}

/* The synopsis lines of cmd (inside .nf). */
static void man_synopsis(FILE *out, const cli_command *cmd)
{
    const char *name = cmd->name ? cmd->name : "";
    for (const char *s = cmd->synopsis; *s;) {
        size_t len = strcspn(s, "\n");
        size_t pad = strspn(s, " ");
        if (pad && pad < len) /* a continuation line */
            fputs("    ", out);
        else
            fprintf(out, "\\fBaccel%s%s\\fR ", cmd->name ? " " : "", name);
        man_text(out, s + (pad < len ? pad : 0), len - (pad < len ? pad : 0));
        s += len + (s[len] == '\n');
    }
    for (const cli_command *const *sub = cmd->subcommands; sub && *sub; sub++)
        man_synopsis(out, *sub);
}

static void man_header(FILE *out, const cli_command *cmd)
{
    char page[64];
    cli_page_name(cmd, page, sizeof page);
    fprintf(out, ".\\\" Generated by `accel --man`, from the tables that --help prints.\n");
    fputs(".TH \"", out);
    for (const char *c = page; *c; c++)
        fputc(toupper((unsigned char)*c), out);
    fprintf(out, "\" 1 \"\" \"accel %s\" \"accel manual\"\n", ACCEL_VERSION_STRING);
    fputs(".SH NAME\n", out);
    man_escape(out, page, strlen(page));
    fputs(" \\- ", out);
    man_text(out, cmd->summary, strlen(cmd->summary));
    fputs(".SH SYNOPSIS\n.nf\n", out);
    man_synopsis(out, cmd);
    fputs(".fi\n", out);
}

/* "\fBaccel\-run\-eval\fR(1)" */
static void man_reference(FILE *out, const cli_command *cmd, const char *end)
{
    char page[64];
    cli_page_name(cmd, page, sizeof page);
    fputs("\\fB", out);
    man_escape(out, page, strlen(page));
    fprintf(out, "\\fR(1)%s\n", end);
}

void cli_man_print(FILE *out, const cli_command *cmd)
{
    man_header(out, cmd);
    if (cli_description(cmd)) {
        fputs(".SH DESCRIPTION\n", out);
        man_body(out, cli_description(cmd), false);
    }
    if (!cmd->name || cmd->subcommands) {
        fputs(".SH COMMANDS\n", out);
        size_t n = cmd->name ? 0 : cli_command_count;
        for (const cli_command *const *sub = cmd->subcommands; sub && *sub; sub++)
            n++;
        for (size_t i = 0; i < n; i++) {
            const cli_command *c = cmd->name ? cmd->subcommands[i] : cli_commands[i];
            fprintf(out, ".TP\n\\fB%s\\fR\n", cli_last_word(c));
            man_text(out, c->summary, strlen(c->summary));
            fputs("See ", out);
            man_reference(out, c, ".");
        }
    }
    fputs(".SH OPTIONS\n", out);
    for (const cli_option *o = cmd->options; o && o->name; o++)
        man_option(out, o);
    man_option(out, &help_option);
    if (cmd->notes)
        man_body(out, cmd->notes, true);
    fputs(".SH \"SEE ALSO\"\n", out);
    if (cmd->name) {
        /* accel(1), the command this one is a subcommand of, its own subcommands */
        const char *sp = strrchr(cmd->name, ' ');
        bool more = sp || cmd->subcommands;
        man_reference(out, &cli_program, more ? "," : "");
        for (size_t i = 0; sp && i < cli_command_count; i++)
            if (strlen(cli_commands[i]->name) == (size_t)(sp - cmd->name) &&
                strncmp(cli_commands[i]->name, cmd->name, (size_t)(sp - cmd->name)) == 0)
                man_reference(out, cli_commands[i], cmd->subcommands ? "," : "");
        for (const cli_command *const *sub = cmd->subcommands; sub && *sub; sub++)
            man_reference(out, *sub, sub[1] ? "," : "");
        return;
    }
    for (size_t i = 0; i < cli_command_count; i++) {
        const cli_command *c = cli_commands[i];
        bool last = i + 1 == cli_command_count && !c->subcommands;
        man_reference(out, c, last ? "" : ",");
        for (const cli_command *const *sub = c->subcommands; sub && *sub; sub++)
            man_reference(out, *sub, i + 1 == cli_command_count && !sub[1] ? "" : ",");
    }
}
