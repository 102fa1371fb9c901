/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_eval.c — `accel run eval EXPR NAME=IN.npy ... -o OUT.npy`: an
 * elementwise expression over .npy files, as numexpr's evaluate("2*a + 3*b")
 * does, compiled at run time as a user kernel (accel/kernel.h) for the
 * device that runs it. Every input has the same shape and dtype (float32,
 * float64, int32, int64 or uint8; no broadcasting); the result has that shape
 * and dtype. --verify runs it in verify mode against the CPU (the kernel's
 * tolerance, 4 ulp; integers exact). A fault of the CPU code (an integer
 * division by zero) is an error with its message, not a crash. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/kernel.h"
#include "accel/npy.h"
#include "accel/verify.h"
#include "cli.h"

#define EVAL_MAX_INPUTS 16

enum { EVAL_CONFIG = CLI_LONG, EVAL_VERIFY, EVAL_REPORT };

static const cli_option eval_options[] = {
    {"output", 'o', "FILE", "where to write the result (required)", NULL},
    {"device", 'd', "NAME", "cpu, cuda, cuda:1, ... or default (the default)", NULL},
    {"config", EVAL_CONFIG, "FILE", "the plugins.ini to read", NULL},
    {"verify", EVAL_VERIFY, NULL, "run in verify mode against the CPU (4 ulp)", NULL},
    {"report", EVAL_REPORT, NULL,
     "print the placement report on stderr: which device ran the kernel,\n"
     "fallbacks and why",
     NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static int run_eval_main(int argc, char **argv);

/* `accel run eval`: a subcommand of `accel run` (run.c lists it), not one of
 * cli_commands; --help, its man page and its completion come from here. */
const cli_command cli_run_eval_command = {
    .name = "run eval",
    .summary = "evaluate an elementwise C expression over .npy files as a user kernel",
    .synopsis = "EXPR NAME=IN.npy [NAME=IN.npy ...] -o OUT.npy [--device NAME]\n"
                "    [--config FILE] [--verify] [--report]",
    .description =
        "Evaluates the C expression EXPR element by element over the inputs (as\n"
        "numexpr.evaluate), compiled at run time for the device. Inputs: float32,\n"
        "float64, int32, int64 or uint8 arrays of one shape and dtype, named in EXPR by\n"
        "NAME (a C identifier); math functions are C's (sqrt, exp, fmin, ...). Integer\n"
        "arithmetic is C's: a division by zero on the CPU fails the command (exit 1)\n"
        "with ACCEL_ERROR_KERNEL_FAULT. An EXPR the compiler refuses, or one that\n"
        "names something that is neither an input nor a C function or constant, is\n"
        "a command-line error (exit 2) that names it.\n"
        "\n"
        "EXPR is C code, compiled and run with your rights: it can call any C function\n"
        "(system(\"...\") included), read and write your files. Do not pass untrusted\n"
        "text; this is not a sandboxed expression language like numexpr.",
    .options = eval_options,
    .notes = "example:\n  accel run eval \"2*a + 3*b\" a=a.npy b=b.npy -o c.npy --device cuda",
    .main = run_eval_main,
};

/* The body the kernel runs: "#line 1 \"eval wrapper\"\nresult_ = (\n#line 1
 * \"expr\"\n" EXPR "\n#line L\n" PAD ")", where L is the number of EXPR's
 * last line and PAD its last line with every character but a tab turned
 * into a space. The expression thus starts
 * at expr:1:1, so cc's and tcc's positions count in the text the user typed
 * (tcc names the line of the token after an error: the closing, on line L),
 * and the closing parenthesis sits just past the expression's end (an
 * operand missing at the end of "a +" is reported there). The newline
 * before the closing ends a trailing // comment. NULL: out of memory. */
static char *eval_body(const char *expr, unsigned *last_line, size_t *last_col)
{
    unsigned line = 1;
    const char *last = expr;
    for (const char *p = expr; *p; p++)
        if (*p == '\n')
            line++, last = p + 1;
    size_t pad = strlen(last), len = strlen(expr);
    char *body = malloc(len + pad + 96);
    if (!body)
        return NULL;
    int o = sprintf(body, "#line 1 \"eval wrapper\"\nresult_ = (\n#line 1 \"expr\"\n%s\n#line %u\n",
                    expr, line);
    for (size_t i = 0; i < pad; i++)
        body[o++] = last[i] == '\t' ? '\t' : ' ';
    strcpy(body + o, ")"); /* the wrapper puts the ; */
    *last_line = line;
    *last_col = pad + 1;
    return body;
}

/* The compiler's message with each position past the expression (the
 * wrapper's lines after it, still counted in "expr") rewritten to the one
 * just past its end (cc's and tcc's "expr:L[:C]", NVRTC's "expr(L)"), into
 * out (cap bytes: a rewrite grows a position by at most 24 bytes). */
static const char *positions_in_expr(const char *msg, unsigned last_line, size_t last_col,
                                     char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (const char *p = msg ? msg : ""; *p && o + 48 < cap;) {
        unsigned line, col;
        int used = 0;
        if (strncmp(p, "expr:", 5) == 0 && sscanf(p + 5, "%u%n", &line, &used) == 1 &&
            line > last_line) {
            int more = 0;
            if (sscanf(p + 5 + used, ":%u%n", &col, &more) == 1)
                used += more;
            o += (size_t)snprintf(out + o, cap - o, "expr:%u:%zu", last_line, last_col);
            p += 5 + used;
            continue;
        }
        int closed = 0; /* NVRTC's "expr(LINE): error: ..." */
        if (strncmp(p, "expr(", 5) == 0 && sscanf(p + 5, "%u)%n", &line, &closed) == 1 &&
            closed > 0 && line > last_line) {
            o += (size_t)snprintf(out + o, cap - o, "expr(%u)", last_line);
            p += 5 + closed;
            continue;
        }
        out[o++] = *p++;
        out[o] = '\0';
    }
    return out;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The name a kernel's build could not find, from the compiler's or the
 * loader's message: cc's "'NAME' undeclared" (quotes ASCII or U+2018/U+2019
 * by the locale), tcc's alike, NVRTC's "identifier "NAME" is undefined", and
 * dlopen's "undefined symbol: NAME" (a call cc took as an implicitly declared
 * function). Into out (cap bytes); false when the message names none. */
static bool unknown_name(const char *log, char *out, size_t cap)
{
    const char *from = NULL, *to = NULL, *m;
    if ((m = strstr(log, "undefined symbol: "))) {
        from = to = m + strlen("undefined symbol: ");
        while (ident_char(*to))
            to++;
    } else if ((m = strstr(log, "\" is undefined"))) {
        to = m;
        from = to;
        while (from > log && ident_char(from[-1]))
            from--;
        if (from == log || from[-1] != '"')
            from = to;
    } else if ((m = strstr(log, " undeclared"))) {
        to = m;
        if (to - log >= 3 && strncmp(to - 3, "\xe2\x80\x99", 3) == 0)
            to -= 3;
        else if (to > log && to[-1] == '\'')
            to--;
        from = to;
        while (from > log && ident_char(from[-1]))
            from--;
    }
    if (!from || from == to || (size_t)(to - from) >= cap)
        return false;
    memcpy(out, from, (size_t)(to - from));
    out[to - from] = '\0';
    return true;
}

/* After a failed build of EXPR (a compile error, or a name the loader could
 * not resolve): the user's EXPR is wrong, so this is a command-line error
 * naming what it could not find and what it may name. Returns
 * CLI_EXIT_USAGE. */
static int eval_expr_error(const char *log, const char *const *names, int nin)
{
    char name[128], inputs[EVAL_MAX_INPUTS * 72] = "";
    size_t o = 0;
    for (int i = 0; i < nin && o < sizeof inputs; i++)
        o += (size_t)snprintf(inputs + o, sizeof inputs - o, "%s%.*s", i ? ", " : "",
                              (int)(strchr(names[i], '=') - names[i]), names[i]);
    if (!unknown_name(log, name, sizeof name))
        return cli_usage_error("run eval",
                               "EXPR does not compile (the compiler's message is "
                               "above); its inputs are %s",
                               inputs);
    return cli_usage_error("run eval",
                           "EXPR names '%s', which is neither an input (%s) nor a C function "
                           "or constant; EXPR may use its inputs and C's math functions "
                           "(sqrt, exp, log, pow, fmin, fmax, fabs, tanh, ...)",
                           name, inputs);
}

/* The kernel parameter type of an input's dtype; NULL: not one eval takes. */
static const char *eval_type(accel_dtype dt)
{
    switch (dt) {
    case ACCEL_F32:
        return "float32";
    case ACCEL_F64:
        return "float64";
    case ACCEL_I32:
        return "int32";
    case ACCEL_I64:
        return "int64";
    case ACCEL_U8:
        return "uint8";
    case ACCEL_F16:
    case ACCEL_BF16:
    case ACCEL_BOOL:
    case ACCEL_I8:
    case ACCEL_I16:
    case ACCEL_U16:
    case ACCEL_U32:
    case ACCEL_U64:
    case ACCEL_C64:
    case ACCEL_C128:
    case ACCEL_DTYPE_INVALID:
    case ACCEL_DTYPE_COUNT_:
        break;
    }
    return NULL;
}

/* One run of the command: its arguments and what it holds. */
typedef struct eval_job {
    const char *expr, *output, *device_name, *config;
    const char *names[EVAL_MAX_INPUTS], *paths[EVAL_MAX_INPUTS];
    int nin;
    bool verify, report;
    accel_npy_array in[EVAL_MAX_INPUTS];
    accel_runtime *rt;
    accel_device *dev;
    accel_kernel *k;
    accel_queue *q;
    accel_buffer *bufs[EVAL_MAX_INPUTS + 1];
    void *result;
    char *params, *body;
    unsigned last_line;
    size_t last_col;
} eval_job;

/* The command line into j; -1 when it is complete, else the exit code. */
static int eval_parse(eval_job *j, int argc, char **argv)
{
    cli_parser p;
    cli_parser_init(&p, &cli_run_eval_command, argc, argv);
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (key == 'o')
            j->output = p.value;
        else if (key == 'd')
            j->device_name = p.value;
        else if (key == EVAL_CONFIG)
            j->config = p.value;
        else if (key == EVAL_VERIFY)
            j->verify = true;
        else if (key == EVAL_REPORT)
            j->report = true;
    }
    for (int i = p.next; i < argc; i++) {
        const char *arg = argv[i];
        if (!j->expr) {
            j->expr = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg || !eq[1])
            return cli_usage_error("run eval", "'%s' is not NAME=FILE.npy", arg);
        if (j->nin == EVAL_MAX_INPUTS)
            return cli_usage_error("run eval", "at most %d inputs", EVAL_MAX_INPUTS);
        j->names[j->nin] = arg;
        j->paths[j->nin++] = eq + 1;
    }
    if (!j->expr || !*j->expr)
        return cli_usage_error("run eval", "missing EXPR");
    if (j->nin == 0)
        return cli_usage_error("run eval", "missing NAME=IN.npy inputs");
    if (!j->output || !*j->output)
        return cli_usage_error("run eval", "missing -o OUT.npy");
    return -1;
}

/* The inputs, read and checked (one shape and dtype eval takes), and the
 * kernel's parameter list naming them; false: the reason is printed. */
static bool eval_load(eval_job *j)
{
    size_t params_len = 0;
    for (int i = 0; i < j->nin; i++) {
        accel_status st = accel_npy_load(j->paths[i], &j->in[i]);
        if (st != ACCEL_SUCCESS) {
            cli_runtime_error("run eval", st, "cannot read input");
            return false;
        }
        if (!eval_type(j->in[i].dtype)) {
            fprintf(stderr,
                    "accel run eval: %s holds %s; expressions take float32, float64, int32, "
                    "int64 or uint8\n",
                    j->paths[i], accel_dtype_name(j->in[i].dtype));
            return false;
        }
        if (j->in[i].dtype != j->in[0].dtype || j->in[i].ndim != j->in[0].ndim ||
            memcmp(j->in[i].shape, j->in[0].shape, sizeof j->in[0].shape) != 0) {
            fprintf(stderr,
                    "accel run eval: %s and %s differ in shape or dtype (no "
                    "broadcasting)\n",
                    j->paths[0], j->paths[i]);
            return false;
        }
        int name_len = (int)(strchr(j->names[i], '=') - j->names[i]);
        char *grown = realloc(j->params, params_len + (size_t)name_len + 16);
        if (!grown) {
            cli_runtime_error("run eval", ACCEL_ERROR_OUT_OF_HOST_MEMORY, "the parameters");
            return false;
        }
        j->params = grown;
        params_len += (size_t)sprintf(j->params + params_len, "%s%s %.*s", i ? ", " : "",
                                      eval_type(j->in[0].dtype), name_len, j->names[i]);
    }
    return true;
}

/* The runtime, the device and verify mode as the options ask: CLI_EXIT_OK,
 * else the exit code (the reason printed; an unknown device is a usage
 * error, as in every subcommand). */
static int eval_open(eval_job *j)
{
    int rc = cli_open_device("run eval", j->config, j->device_name, j->verify, &j->rt, &j->dev);
    if (rc == CLI_EXIT_OK && j->report)
        accel_report_enable(j->rt, true);
    return rc;
}

/* The kernel: -1 when made, else the exit code (its reason printed). */
static int eval_kernel(eval_job *j)
{
    if (!(j->body = eval_body(j->expr, &j->last_line, &j->last_col))) {
        cli_runtime_error("run eval", ACCEL_ERROR_OUT_OF_HOST_MEMORY, "the expression");
        return CLI_EXIT_RUNTIME;
    }
    int rc = eval_open(j);
    if (rc != CLI_EXIT_OK)
        return rc;
    char out_param[32];
    snprintf(out_param, sizeof out_param, "%s result_", eval_type(j->in[0].dtype));
    accel_status st =
        accel_kernel_elementwise_create(j->rt, "expr", j->params, out_param, j->body, NULL, &j->k);
    if (st == ACCEL_ERROR_INVALID_ARGUMENT) /* a NAME or EXPR the kernel cannot take */
        return cli_usage_error("run eval", "bad expression or inputs: %s", accel_last_error());
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run eval", st, "bad expression or inputs");
        return CLI_EXIT_RUNTIME;
    }
    return -1;
}

/* The launch on the device: inputs written, the kernel run, the result read
 * into j->result (ACCEL_ERROR_OUT_OF_HOST_MEMORY when it cannot be held). */
static accel_status eval_launch(eval_job *j)
{
    accel_dtype dt = j->in[0].dtype;
    size_t n = j->in[0].count, es = accel_dtype_size(dt);
    accel_kernel_arg args[EVAL_MAX_INPUTS + 1];
    accel_status st = accel_queue_create(j->dev, &j->q);
    for (int i = 0; i <= j->nin && st == ACCEL_SUCCESS; i++) {
        st = accel_buffer_create(j->dev, n * es, &j->bufs[i]);
        if (st == ACCEL_SUCCESS && i < j->nin && n)
            st = accel_queue_write(j->q, j->bufs[i], 0, j->in[i].data, n * es);
        if (st != ACCEL_SUCCESS)
            break;
        args[i] = accel_karg_array(accel_slice_of(j->bufs[i], 0, n));
        args[i].dtype = dt;
    }
    if (st != ACCEL_SUCCESS)
        return st;
    if (!(j->result = malloc(n * es + 1)))
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    st = accel_kernel_launch(j->q, j->k, (size_t)j->nin + 1, args);
    if (st == ACCEL_SUCCESS)
        st = n ? accel_queue_read_blocking(j->q, j->bufs[j->nin], 0, j->result, n * es)
               : accel_queue_finish(j->q);
    return st;
}

/* "accel: expression ran on DEVICE", naming the fallback device and why
 * when the placement report shows the kernel fell back. */
static void eval_say_where(const eval_job *j)
{
    const char *ran_on = accel_device_name(j->dev), *why = NULL;
    accel_report_row rows[64];
    size_t nrows = 0;
    for (size_t i = 0; i < 64; i++)
        rows[i] = (accel_report_row){.struct_size = sizeof rows[i]};
    if (accel_report(j->rt, rows, 64, &nrows) == ACCEL_SUCCESS)
        for (size_t i = 0; i < nrows && i < 64; i++)
            if (rows[i].op == ACCEL_OP_KERNEL && !(rows[i].kernel && rows[i].kernel[0]) &&
                strcmp(rows[i].device, ran_on) == 0 && rows[i].fallbacks > 0 &&
                rows[i].fallback_device && rows[i].fallback_device[0]) {
                why = rows[i].reason ? rows[i].reason : "";
                ran_on = rows[i].fallback_device;
            }
    fprintf(stderr, "accel: expression ran on %s%s%s%s%s\n", ran_on,
            why ? ", the fallback of " : "", why ? accel_device_name(j->dev) : "",
            why && why[0] ? ": " : "", why ? why : "");
    if (j->verify)
        fprintf(stderr, "accel: verify mode: checked against cpu\n");
}

/* The exit code of a failed launch with status st: a compile error, also
 * one met when the kernel was built for a fallback device (then the status
 * is the first device's), or a name the compiled kernel could not resolve
 * when it was loaded, is the user's EXPR; anything else a runtime error. */
static int eval_failed(const eval_job *j, accel_status st)
{
    if (st == ACCEL_ERROR_COMPILE || strstr(accel_last_error(), "compile error")) {
        const char *log = accel_last_error() ? accel_last_error() : "";
        size_t cap = 6 * strlen(log) + 64;
        char *msg = malloc(cap);
        fprintf(stderr, "accel run eval: the expression failed: %s (%s)\n",
                msg ? positions_in_expr(log, j->last_line, j->last_col, msg, cap) : log,
                accel_status_name(st));
        free(msg);
        return eval_expr_error(log, j->names, j->nin);
    }
    if (strstr(accel_last_error(), "undefined symbol: "))
        return eval_expr_error(accel_last_error(), j->names, j->nin);
    cli_runtime_error("run eval", st ? st : ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                      "the expression failed");
    return CLI_EXIT_RUNTIME;
}

/* Everything j holds, released; the report printed first when asked for. */
static void eval_free(eval_job *j)
{
    free(j->result);
    free(j->body);
    free(j->params);
    for (int i = 0; i <= j->nin && i <= EVAL_MAX_INPUTS; i++)
        accel_buffer_release(j->bufs[i]);
    accel_queue_release(j->q);
    accel_kernel_release(j->k);
    if (j->report && j->rt) {
        char text[8192];
        if (accel_report_format(j->rt, text, sizeof text, NULL) == ACCEL_SUCCESS)
            fputs(text, stderr);
    }
    accel_runtime_close(j->rt);
    for (int i = 0; i < j->nin; i++)
        accel_npy_free(&j->in[i]);
}

/* The run after the command line: load, build, launch, save. */
static int eval_run(eval_job *j)
{
    if (!eval_load(j))
        return CLI_EXIT_RUNTIME;
    int rc = eval_kernel(j);
    if (rc >= 0)
        return rc;
    accel_status st = eval_launch(j);
    if (st != ACCEL_SUCCESS)
        return eval_failed(j, st);
    st = accel_npy_save(j->output, j->in[0].dtype, j->in[0].ndim, j->in[0].shape, j->result);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run eval", st, "cannot write the output");
        return CLI_EXIT_RUNTIME;
    }
    eval_say_where(j);
    return CLI_EXIT_OK;
}

static int run_eval_main(int argc, char **argv)
{
    eval_job *j = calloc(1, sizeof *j);
    if (!j) {
        cli_runtime_error("run eval", ACCEL_ERROR_OUT_OF_HOST_MEMORY, "the command");
        return CLI_EXIT_RUNTIME;
    }
    j->last_line = 1;
    j->last_col = 1;
    int rc = eval_parse(j, argc, argv);
    if (rc < 0)
        rc = eval_run(j);
    eval_free(j);
    free(j);
    return rc;
}
