/* verify.c — `accel verify`: the conformance suite for a device or a backend
 * plugin. Every op x dtype x shape (0, 1, primes, sizes just off the tile and
 * vector widths, special values, tall-skinny and k-large GEMM, padded leading
 * dimensions, batches, transposes) runs on the device under test and on the
 * CPU device, on the same inputs from a printed seed; outputs are compared
 * with accel_tolerance_compare (the same model as verify mode), guard
 * elements around every operand must be untouched, and inputs unchanged.
 * Ops the device declares unsupported are listed as such, not failed. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/verify.h"
#include "cli.h"

#define GUARD 16          /* guard elements before and after every operand */
#define GUARD_BYTE 0xA5u  /* their bytes (and those of an output not yet written) */

void cli_verify_usage(FILE *out)
{
    fprintf(out,
            "usage: accel verify [--device NAME | --plugin PATH.so] [--seed N] [--quick]\n"
            "                    [--config FILE] [--verbose]\n"
            "\n"
            "Runs every op, dtype and shape set on the device (or the plugin's first\n"
            "device) and on the CPU device, on the same random inputs, and compares\n"
            "the results with accel's tolerance model (see accel/verify.h): elementwise\n"
            "ops within 1 ulp (exp, log, tanh 4 ulp), sums and dots within\n"
            "2*n*eps*sum|x|, GEMM within 2*(k+2)*eps*(|A||B|)_ij, NaN meets NaN, Inf\n"
            "meets Inf. Guard elements around every operand must stay untouched (no\n"
            "writes out of range) and inputs unchanged. Prints a table; exits 1 when\n"
            "any case fails. Unsupported ops are listed, not failed.\n"
            "\n"
            "options:\n"
            "  --device NAME   the device to check (default: the default device)\n"
            "  --plugin PATH   load this backend plugin beside the CPU backend and check\n"
            "                  its device 0 (its load-time self-test runs first)\n"
            "  --seed N        the inputs' seed (default 1); printed with each failure\n"
            "  --quick         fewer, smaller shapes\n"
            "  --config FILE   the plugins.ini to read (for the CPU backend's path too)\n"
            "  --verbose       print every case\n");
}

/* ------------------------------------------------------------ inputs */

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    return mix(r->s++);
}

static double unit(rng *r)
{
    return (double)(next(r) >> 11) * 0x1p-53;
}

static void store(accel_dtype dt, void *p, size_t i, double v)
{
    if (dt == ACCEL_F32) {
        float f = (float)v;
        memcpy((char *)p + 4 * i, &f, 4);
    } else if (dt == ACCEL_F64) {
        memcpy((char *)p + 8 * i, &v, 8);
    }
}

/* Values for an input of op: [-2, 2) by default, in each op's useful range. */
static void gen(accel_op_code op, accel_dtype dt, int which, void *p, size_t n, rng *r,
                bool special)
{
    static const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5,
                                      1e-40, -3e-310, 1e30, -1e300, 65504.0, 2.5, -7.25, 3.0};
    for (size_t i = 0; i < n; i++) {
        if (dt == ACCEL_F16 || dt == ACCEL_BF16) {
            /* Random sign and mantissa, magnitudes 1/8 .. 8. */
            uint64_t b = next(r);
            uint16_t h = dt == ACCEL_F16
                             ? (uint16_t)(((b & 1) << 15) | ((12 + (b >> 1) % 7) << 10) |
                                          ((b >> 8) & 0x3ff))
                             : (uint16_t)(((b & 1) << 15) | ((124 + (b >> 1) % 7) << 7) |
                                          ((b >> 8) & 0x7f));
            memcpy((char *)p + 2 * i, &h, 2);
            continue;
        }
        double v;
        if (special) {
            v = specials[(i + (size_t)which * 5) % (sizeof specials / sizeof specials[0])];
        } else {
            v = 4.0 * unit(r) - 2.0;
            if (op == ACCEL_OP_LOG || op == ACCEL_OP_SQRT)
                v = fabs(v) * 100.0 + 1e-3;
            else if (op == ACCEL_OP_EXP)
                v *= 10.0;
            else if (op == ACCEL_OP_TANH)
                v *= 5.0;
            else if (op == ACCEL_OP_DIV && which == 1)
                v = (v < 0 ? -0.5 : 0.5) + v / 2;
        }
        store(dt, p, i, v);
    }
}

/* ------------------------------------------------------------ one case */

typedef enum { R_PASS, R_FAIL, R_UNSUPPORTED } result;

typedef struct verify_run {
    accel_device *dev, *ref;
    accel_queue *q, *rq;
    uint64_t seed;
    bool verbose;
    double worst;
} verify_run;

typedef struct side {
    accel_buffer *buf[4];
    void *host[4]; /* whole buffers, guards included */
} side;

static void side_free(side *s)
{
    for (int i = 0; i < 4; i++) {
        accel_buffer_release(s->buf[i]);
        free(s->host[i]);
    }
}

/* Upload init (guards and payloads), run d, read every buffer back. */
static accel_status run_side(accel_device *dev, accel_queue *q, const accel_op_desc *d,
                             void *const init[4], size_t es, side *s, const char **what)
{
    memset(s, 0, sizeof *s);
    accel_status st = ACCEL_SUCCESS;
    for (uint32_t i = 0; i < d->num_operands && st == ACCEL_SUCCESS; i++) {
        size_t bytes = (d->operands[i].count + 2 * GUARD) * es;
        *what = "creating a buffer";
        st = accel_buffer_create(dev, bytes, &s->buf[i]);
        if (st == ACCEL_SUCCESS) {
            *what = "writing an operand";
            st = accel_queue_write(q, s->buf[i], 0, init[i], bytes);
        }
    }
    if (st != ACCEL_SUCCESS)
        return st;
    *what = "enqueueing the op";
    st = cli_op_enqueue(q, d, s->buf);
    if (st != ACCEL_SUCCESS)
        return st;
    for (uint32_t i = 0; i < d->num_operands && st == ACCEL_SUCCESS; i++) {
        size_t bytes = (d->operands[i].count + 2 * GUARD) * es;
        s->host[i] = malloc(bytes);
        if (!s->host[i])
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        *what = "reading an operand back";
        st = accel_queue_read(q, s->buf[i], 0, s->host[i], bytes);
    }
    if (st == ACCEL_SUCCESS) {
        *what = "running the op";
        st = accel_queue_finish(q);
    }
    return st;
}

static void describe(const accel_op_desc *d, char *out, size_t cap)
{
    const accel_op_properties *p = accel_op_info((accel_op_code)d->op);
    if (p && p->kind == ACCEL_OP_KIND_GEMM)
        snprintf(out, cap, "m=%zu n=%zu k=%zu trans=%u%u ld=%zu,%zu,%zu batch=%zu alpha=%g beta=%g",
                 d->m, d->n, d->k, d->trans_a, d->trans_b, d->lda, d->ldb, d->ldc, d->batch_count,
                 d->scalars[0], d->scalars[1]);
    else if (p && p->kind == ACCEL_OP_KIND_TRANSPOSE)
        snprintf(out, cap, "rows=%zu cols=%zu ldx=%zu ldo=%zu", d->m, d->n, d->lda, d->ldc);
    else
        snprintf(out, cap, "n=%zu", d->operands[0].count);
}

static bool reads_output(const accel_op_desc *d)
{
    const accel_op_properties *p = accel_op_info((accel_op_code)d->op);
    return p && p->reads_output;
}

/* The op table's codes (accel/types.h), for the case lists by kind. */
#define ACCEL_X_CODE(E, ...) ACCEL_OP_##E,
static const accel_op_code table_ops[] = {ACCEL_OP_LIST(ACCEL_X_CODE)};
#undef ACCEL_X_CODE

/* The codes of one kind (and operand count, 0: any) into out; their number. */
static size_t ops_of_kind(accel_op_kind kind, uint32_t operands, accel_op_code *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof table_ops / sizeof *table_ops && n < cap; i++) {
        const accel_op_properties *p = accel_op_info(table_ops[i]);
        if (p->kind == kind && (!operands || p->num_operands == operands))
            out[n++] = table_ops[i];
    }
    return n;
}

static result run_case(verify_run *vr, accel_op_desc *d, bool special, uint64_t case_seed)
{
    accel_dtype dt = (accel_dtype)d->dtype;
    size_t es = accel_dtype_size(dt);
    uint32_t out = d->num_operands - 1;
    char shape[256];
    describe(d, shape, sizeof shape);
    const char *opn = accel_op_name((accel_op_code)d->op);
    const char *dtn = accel_dtype_name(dt);
    void *init[4] = {NULL, NULL, NULL, NULL};
    rng r = {case_seed};
    result res = R_PASS;
    side got, ref;
    memset(&got, 0, sizeof got);
    memset(&ref, 0, sizeof ref);
    for (uint32_t i = 0; i < d->num_operands; i++) {
        size_t n = d->operands[i].count;
        init[i] = malloc((n + 2 * GUARD) * es);
        if (!init[i]) {
            fprintf(stderr, "accel verify: out of host memory\n");
            res = R_FAIL;
            goto done;
        }
        memset(init[i], GUARD_BYTE, (n + 2 * GUARD) * es);
        d->operands[i].offset = GUARD;
        bool is_input = i < out || reads_output(d);
        if (is_input)
            gen((accel_op_code)d->op, dt, (int)i, (char *)init[i] + GUARD * es, n, &r, special);
        /* beta == 0: C is not read, so NaN there must not come through. */
        if (d->op == ACCEL_OP_GEMM && i == out && d->scalars[1] == 0 && dt != ACCEL_F16 &&
            dt != ACCEL_BF16)
            for (size_t e = 0; e < n; e++)
                store(dt, (char *)init[i] + GUARD * es, e, NAN);
    }
    const char *what = "";
    accel_status st = run_side(vr->dev, vr->q, d, init, es, &got, &what);
    if (st == ACCEL_ERROR_UNSUPPORTED) {
        res = R_UNSUPPORTED;
        if (vr->verbose)
            printf("  %-14s %-4s %-40s unsupported\n", opn, dtn, shape);
        goto done;
    }
    if (st != ACCEL_SUCCESS) {
        printf("FAIL %s %s %s on %s: %s: %s (%s) [seed %" PRIu64 "]\n", opn, dtn, shape,
               accel_device_name(vr->dev), what, accel_last_error(), accel_status_name(st),
               vr->seed);
        res = R_FAIL;
        goto done;
    }
    st = run_side(vr->ref, vr->rq, d, init, es, &ref, &what);
    if (st != ACCEL_SUCCESS) {
        /* The reference lacks it too: nothing to compare with. */
        res = st == ACCEL_ERROR_UNSUPPORTED ? R_UNSUPPORTED : R_FAIL;
        if (res == R_FAIL)
            printf("FAIL %s %s %s on the reference %s: %s: %s\n", opn, dtn, shape,
                   accel_device_name(vr->ref), what, accel_last_error());
        goto done;
    }
    /* Guards of every operand, and inputs left as they were. */
    for (uint32_t i = 0; i < d->num_operands && res == R_PASS; i++) {
        size_t n = d->operands[i].count;
        const unsigned char *h = got.host[i];
        size_t total = (n + 2 * GUARD) * es;
        for (size_t b = 0; b < total; b++) {
            bool in_guard = b < GUARD * es || b >= (GUARD + n) * es;
            bool must_keep = in_guard || (i != out);
            if (must_keep && h[b] != ((const unsigned char *)init[i])[b]) {
                long elem = (long)(b / es) - GUARD;
                printf("FAIL %s %s %s on %s: operand %u element %ld %s was changed (%s) "
                       "[seed %" PRIu64 "]\n",
                       opn, dtn, shape, accel_device_name(vr->dev), i, elem,
                       in_guard ? "outside its range" : "of an input",
                       in_guard ? "write out of range" : "input modified", vr->seed);
                res = R_FAIL;
                break;
            }
        }
    }
    if (res == R_PASS) {
        const void *inputs[4];
        for (uint32_t i = 0; i < 4; i++)
            inputs[i] = i < d->num_operands ? (const char *)init[i] + GUARD * es : NULL;
        accel_compare_result c;
        memset(&c, 0, sizeof c);
        c.struct_size = sizeof c;
        accel_tolerance_op t;
        st = accel_tolerance_compare(cli_tolerance_op(d, &t), inputs,
                                     (const char *)got.host[out] + GUARD * es,
                                     (const char *)ref.host[out] + GUARD * es, &c);
        if (c.worst_ratio > vr->worst && isfinite(c.worst_ratio))
            vr->worst = c.worst_ratio;
        if (st != ACCEL_SUCCESS) {
            printf("FAIL %s %s %s%s on %s vs %s: element %zu: got %.17g, expected %.17g, error "
                   "%.3g > bound %.3g (%s); %zu of %zu bad [seed %" PRIu64 "]\n",
                   opn, dtn, shape, special ? " (special values)" : "", accel_device_name(vr->dev),
                   accel_device_name(vr->ref), c.first_bad, c.got, c.expected, c.error, c.bound,
                   c.rule, c.bad, c.checked, vr->seed);
            res = R_FAIL;
        } else if (vr->verbose) {
            printf("  %-14s %-4s %-40s ok (%zu elements, worst %.2g of the bound)\n", opn, dtn,
                   shape, c.checked, c.worst_ratio);
        }
    }
done:
    side_free(&got);
    side_free(&ref);
    for (int i = 0; i < 4; i++)
        free(init[i]);
    return res;
}

/* ------------------------------------------------------------ the suite */

typedef struct tally {
    accel_op_code op;
    accel_dtype dt;
    unsigned pass, fail, unsupported;
} tally;

static tally *tally_for(tally *t, size_t *n, accel_op_code op, accel_dtype dt)
{
    for (size_t i = 0; i < *n; i++)
        if (t[i].op == op && t[i].dt == dt)
            return &t[i];
    t[*n] = (tally){op, dt, 0, 0, 0};
    return &t[(*n)++];
}

static void desc_base(accel_op_desc *d, accel_op_code op, accel_dtype dt)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    d->op = op;
    d->dtype = dt;
    d->name = "accel verify";
    d->batch_count = 1;
}

static void set_counts(accel_op_desc *d, uint32_t nops, size_t n, size_t out_n)
{
    d->num_operands = nops;
    for (uint32_t i = 0; i < nops; i++)
        d->operands[i].count = i == nops - 1 ? out_n : n;
}

typedef struct gemm_shape {
    size_t m, n, k;
    unsigned ta, tb;
    size_t pad, batch;
    double alpha, beta;
    bool quick;
} gemm_shape;

static size_t span(size_t rows, size_t cols, size_t ld, size_t batch, size_t stride)
{
    if (!rows || !cols || !batch)
        return 0;
    return (batch - 1) * stride + (rows - 1) * ld + cols;
}

static void gemm_desc(accel_op_desc *d, accel_dtype dt, const gemm_shape *g)
{
    desc_base(d, ACCEL_OP_GEMM, dt);
    d->num_operands = 3;
    d->m = g->m, d->n = g->n, d->k = g->k;
    d->trans_a = g->ta, d->trans_b = g->tb;
    size_t ar = g->ta ? g->k : g->m, ac = g->ta ? g->m : g->k;
    size_t br = g->tb ? g->n : g->k, bc = g->tb ? g->k : g->n;
    d->lda = ac + g->pad, d->ldb = bc + g->pad, d->ldc = g->n + g->pad;
    if (!d->lda)
        d->lda = 1;
    if (!d->ldb)
        d->ldb = 1;
    if (!d->ldc)
        d->ldc = 1;
    d->batch_count = g->batch;
    if (g->batch > 1) {
        d->stride_a = ar * d->lda + 2;
        d->stride_b = br * d->ldb + 1;
        d->stride_c = g->m * d->ldc + 3;
    }
    d->operands[0].count = span(ar, ac, d->lda, g->batch, d->stride_a);
    d->operands[1].count = span(br, bc, d->ldb, g->batch, d->stride_b);
    d->operands[2].count = span(g->m, g->n, d->ldc, g->batch, d->stride_c);
    d->scalars[0] = g->alpha;
    d->scalars[1] = g->beta;
}

static accel_runtime *open_for_plugin(const char *config, const char *plugin, char *ini_path,
                                      size_t cap)
{
    /* The CPU backend's path comes from the usual configuration. */
    accel_runtime *rt = NULL;
    accel_status st = accel_runtime_open(config, &rt);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("verify", st, "cannot open the configuration to find the CPU backend");
        return NULL;
    }
    char cpu_path[4096] = "";
    for (uint32_t i = 0; i < accel_runtime_backend_count(rt); i++) {
        accel_backend_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        if (accel_runtime_backend_info(rt, i, &info) == ACCEL_SUCCESS &&
            strcmp(info.name, "cpu") == 0)
            snprintf(cpu_path, sizeof cpu_path, "%s", info.path);
    }
    accel_runtime_close(rt);
    if (!cpu_path[0]) {
        fprintf(stderr, "accel verify: the configuration has no [backend.cpu] for the reference\n");
        return NULL;
    }
    char dir[] = "/tmp/accel-verify-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("accel verify: mkdtemp");
        return NULL;
    }
    snprintf(ini_path, cap, "%s/plugins.ini", dir);
    FILE *f = fopen(ini_path, "w");
    if (!f) {
        perror("accel verify: writing a temporary plugins.ini");
        return NULL;
    }
    fprintf(f,
            "[runtime]\norder = plugin, cpu\nfallback = none\n"
            "[backend.plugin]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
            plugin, cpu_path);
    fclose(f);
    rt = NULL;
    st = accel_runtime_open(ini_path, &rt);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("verify", st, "cannot open the plugin's configuration");
        rt = NULL;
    }
    return rt;
}

int cli_verify_main(int argc, char **argv)
{
    const char *device = NULL, *plugin = NULL, *config = NULL, *seed_s = NULL;
    bool quick = false, verbose = false;
    for (int i = 1; i < argc;) {
        int r;
        if ((r = cli_option_value(argc, argv, &i, "--device", NULL, &device)) ||
            (r = cli_option_value(argc, argv, &i, "--plugin", NULL, &plugin)) ||
            (r = cli_option_value(argc, argv, &i, "--config", NULL, &config)) ||
            (r = cli_option_value(argc, argv, &i, "--seed", NULL, &seed_s))) {
            if (r < 0)
                return cli_usage_error("verify", "%s needs a value", argv[i]);
            continue;
        }
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = true;
        else
            return cli_usage_error("verify", "unexpected argument '%s'", argv[i]);
        i++;
    }
    if (device && plugin)
        return cli_usage_error("verify", "--device and --plugin exclude each other");
    uint64_t seed = 1;
    if (seed_s) {
        char *end;
        seed = strtoull(seed_s, &end, 0);
        if (end == seed_s || *end)
            return cli_usage_error("verify", "--seed %s is not a number", seed_s);
    }

    char ini[4200] = "";
    accel_runtime *rt = NULL;
    if (plugin) {
        if (access(plugin, R_OK) != 0)
            return cli_usage_error("verify", "--plugin %s: no such readable file", plugin);
        rt = open_for_plugin(config, plugin, ini, sizeof ini);
        if (!rt)
            return CLI_EXIT_RUNTIME;
        accel_backend_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        accel_runtime_backend_info(rt, 0, &info);
        if (!info.loaded) {
            fprintf(stderr, "accel verify: the plugin %s did not load: %s (%s)\n", plugin,
                    info.reason, accel_status_name(info.status));
            accel_runtime_close(rt);
            return CLI_EXIT_RUNTIME;
        }
        device = "plugin";
    } else {
        accel_status st = accel_runtime_open(config, &rt);
        if (st != ACCEL_SUCCESS)
            return cli_runtime_error("verify", st, "cannot open the runtime");
    }
    /* The suite sees the device as it is: no shadow checks, no fallback. */
    accel_verify_options vo;
    accel_verify_options_init(&vo);
    accel_verify_configure(rt, &vo);
    accel_fallback_configure(rt, NULL, false);

    verify_run vr;
    memset(&vr, 0, sizeof vr);
    vr.seed = seed;
    vr.verbose = verbose;
    accel_status st = device ? accel_device_get_by_name(rt, device, &vr.dev)
                             : accel_device_default(rt, &vr.dev);
    if (st == ACCEL_SUCCESS)
        st = accel_device_get_by_name(rt, "cpu", &vr.ref);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_create(vr.dev, &vr.q);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_create(vr.ref, &vr.rq);
    if (st != ACCEL_SUCCESS) {
        int rc = cli_runtime_error("verify", st, "cannot set up the device and the CPU reference");
        accel_runtime_close(rt);
        return rc;
    }
    printf("accel verify: %s against %s, seed %" PRIu64 "%s\n", accel_device_name(vr.dev),
           accel_device_name(vr.ref), seed, quick ? ", quick" : "");

    static const size_t sizes_full[] = {0,   1,   2,    3,    4,    5,    7,    8,    13,   31,
                                        32,  33,  63,   64,   65,   127,  128,  129,  255,  256,
                                        257, 1023, 1024, 1025, 4095, 4096, 4097, 65537};
    static const size_t sizes_quick[] = {0, 1, 3, 4, 5, 31, 127, 128, 129, 4095, 4097};
    const size_t *sizes = quick ? sizes_quick : sizes_full;
    size_t nsizes = quick ? sizeof sizes_quick / sizeof *sizes_quick
                          : sizeof sizes_full / sizeof *sizes_full;
    /* Every binary, unary and reduction op of the op table; scale and copy
     * run as x -> out ops with the unary ones. */
    accel_op_code binary[64], unary[64], reductions[64];
    size_t nbinary = ops_of_kind(ACCEL_OP_KIND_BINARY, 0, binary, 64);
    size_t nunary = ops_of_kind(ACCEL_OP_KIND_UNARY, 0, unary, 62);
    unary[nunary++] = ACCEL_OP_SCALE;
    unary[nunary++] = ACCEL_OP_COPY;
    size_t nreductions = ops_of_kind(ACCEL_OP_KIND_REDUCTION, 0, reductions, 64);
    static const gemm_shape gemms[] = {
        {0, 3, 4, 0, 0, 0, 1, 1, 0, true},     {3, 0, 4, 0, 0, 0, 1, 1, 0, false},
        {3, 4, 0, 0, 0, 0, 1, 1, 0.5, true},   {1, 1, 1, 0, 0, 0, 1, 1, 0, true},
        {3, 5, 7, 0, 0, 0, 1, 1, 0, true},     {4, 4, 4, 0, 0, 0, 1, 1, 0, false},
        {7, 5, 6, 1, 0, 0, 1, 1, 0, true},     {7, 5, 6, 0, 1, 0, 1, 1, 0, true},
        {7, 5, 6, 1, 1, 0, 1, 1, 0, true},     {17, 13, 129, 0, 0, 0, 1, 1, 0, true},
        {127, 129, 128, 0, 0, 0, 1, 1, 0, false}, {1025, 3, 17, 0, 0, 0, 1, 1, 0, true},
        {3, 1025, 17, 0, 1, 0, 1, 1, 0, false}, {4, 5, 4097, 0, 0, 0, 1, 1, 0, true},
        {9, 7, 5, 0, 0, 3, 1, 1, 0, true},     {9, 7, 5, 1, 1, 3, 1, -1.5, 0.75, true},
        {6, 5, 4, 0, 0, 1, 3, 1, 0, true},     {6, 5, 4, 1, 0, 2, 4, 0.5, 2, false},
        {33, 31, 65, 0, 0, 0, 2, 1, 1, false},
    };
    tally tallies[128];
    size_t ntally = 0;
    uint64_t case_no = 0;
    accel_op_desc d;
    static const accel_dtype fdt[] = {ACCEL_F32, ACCEL_F64};
    static const accel_dtype alldt[] = {ACCEL_F32, ACCEL_F64, ACCEL_F16, ACCEL_BF16};

#define RUN(special)                                                                               \
    do {                                                                                           \
        result r_ = run_case(&vr, &d, (special), mix(seed ^ mix(++case_no)));                     \
        tally *t_ = tally_for(tallies, &ntally, (accel_op_code)d.op, (accel_dtype)d.dtype);      \
        if (r_ == R_PASS)                                                                          \
            t_->pass++;                                                                            \
        else if (r_ == R_FAIL)                                                                     \
            t_->fail++;                                                                            \
        else                                                                                       \
            t_->unsupported++;                                                                     \
    } while (0)

    for (size_t t = 0; t < 2; t++) {
        accel_dtype dt = fdt[t];
        for (size_t s = 0; s < nsizes; s++) {
            desc_base(&d, ACCEL_OP_FILL, dt);
            set_counts(&d, 1, sizes[s], sizes[s]);
            d.scalars[0] = -2.75;
            RUN(false);
        }
        for (size_t o = 0; o < nbinary; o++) {
            for (size_t s = 0; s < nsizes; s++) {
                desc_base(&d, binary[o], dt);
                set_counts(&d, 3, sizes[s], sizes[s]);
                RUN(false);
            }
            desc_base(&d, binary[o], dt);
            set_counts(&d, 3, 16, 16);
            RUN(true);
        }
        for (size_t o = 0; o < nunary; o++) {
            for (size_t s = 0; s < nsizes; s++) {
                desc_base(&d, unary[o], dt);
                set_counts(&d, 2, sizes[s], sizes[s]);
                d.scalars[0] = unary[o] == ACCEL_OP_SCALE ? -1.25 : 0.0;
                RUN(false);
            }
            desc_base(&d, unary[o], dt);
            set_counts(&d, 2, 16, 16);
            d.scalars[0] = unary[o] == ACCEL_OP_SCALE ? 3.0 : 0.0;
            RUN(true);
        }
        for (size_t s = 0; s < nsizes; s++) {
            desc_base(&d, ACCEL_OP_AXPBY, dt);
            set_counts(&d, 2, sizes[s], sizes[s]);
            d.scalars[0] = 1.5;
            d.scalars[1] = -0.75;
            RUN(false);
        }
        for (size_t o = 0; o < nreductions; o++) {
            for (size_t s = 0; s < nsizes + (quick ? 0 : 1); s++) {
                size_t n = s < nsizes ? sizes[s] : 100003;
                if (n == 0 && reductions[o] != ACCEL_OP_SUM && reductions[o] != ACCEL_OP_DOT)
                    continue; /* max/min of nothing is an argument error */
                desc_base(&d, reductions[o], dt);
                set_counts(&d, reductions[o] == ACCEL_OP_DOT ? 3 : 2, n, 1);
                RUN(false);
            }
            if (reductions[o] != ACCEL_OP_SUM && reductions[o] != ACCEL_OP_DOT) {
                desc_base(&d, reductions[o], dt);
                set_counts(&d, 2, 16, 1);
                RUN(true);
            }
        }
        static const size_t rsizes[] = {0, 1, 5, 4097};
        for (int op = 0; op < 2; op++) {
            for (size_t s = 0; s < 4; s++) {
                desc_base(&d, op ? ACCEL_OP_RANDOM_NORMAL : ACCEL_OP_RANDOM_UNIFORM, dt);
                set_counts(&d, 1, rsizes[s], rsizes[s]);
                d.seed = seed;
                d.rng_offset = 3;
                d.scalars[0] = op ? 1.5 : 0;
                d.scalars[1] = op ? 2.0 : 0;
                RUN(false);
            }
        }
    }
    for (size_t t = 0; t < 4; t++) {
        accel_dtype dt = alldt[t];
        if (dt == ACCEL_F16 || dt == ACCEL_BF16) {
            for (size_t s = 0; s < nsizes; s++) {
                desc_base(&d, ACCEL_OP_COPY, dt);
                set_counts(&d, 2, sizes[s], sizes[s]);
                RUN(false);
            }
        }
        for (size_t g = 0; g < sizeof gemms / sizeof *gemms; g++) {
            if (quick && !gemms[g].quick)
                continue;
            gemm_desc(&d, dt, &gemms[g]);
            RUN(false);
        }
        static const size_t tr[][3] = {{0, 3, 0}, {1, 1, 0}, {3, 5, 0}, {3, 5, 2},
                                       {17, 129, 1}, {128, 129, 0}};
        for (size_t s = 0; s < sizeof tr / sizeof *tr; s++) {
            desc_base(&d, ACCEL_OP_TRANSPOSE, dt);
            d.num_operands = 2;
            d.m = tr[s][0], d.n = tr[s][1];
            d.lda = d.n + tr[s][2], d.ldc = d.m + tr[s][2];
            if (!d.lda)
                d.lda = 1;
            if (!d.ldc)
                d.ldc = 1;
            d.operands[0].count = span(d.m, d.n, d.lda, 1, 0);
            d.operands[1].count = span(d.n, d.m, d.ldc, 1, 0);
            RUN(false);
        }
    }
#undef RUN

    unsigned pass = 0, fail = 0, unsup = 0;
    printf("\n%-16s %-5s %7s %7s %12s\n", "op", "dtype", "passed", "failed", "unsupported");
    for (size_t i = 0; i < ntally; i++) {
        const tally *t = &tallies[i];
        printf("%-16s %-5s %7u %7u %12u%s\n", accel_op_name(t->op), accel_dtype_name(t->dt),
               t->pass, t->fail, t->unsupported,
               t->fail ? "  FAIL" : (t->pass == 0 && t->unsupported ? "  (unsupported)" : ""));
        pass += t->pass, fail += t->fail, unsup += t->unsupported;
    }
    printf("\n%u cases passed, %u failed, %u unsupported on %s (seed %" PRIu64
           "; worst error %.2g of its bound)%s\n",
           pass, fail, unsup, accel_device_name(vr.dev), seed, vr.worst,
           fail || vr.dev != vr.ref
               ? ""
               : ": but this device IS the CPU reference, so the checks only show the CPU "
                 "agrees with itself (no GPU in use; see accel info)");
    accel_queue_release(vr.q);
    accel_queue_release(vr.rq);
    accel_runtime_close(rt);
    if (ini[0]) {
        unlink(ini);
        char *slash = strrchr(ini, '/');
        if (slash) {
            *slash = '\0';
            rmdir(ini);
        }
    }
    return fail ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}
