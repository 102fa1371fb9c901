/* run.c — `accel run OP IN.npy [IN2.npy] -o OUT.npy`: one op of the runtime on
 * NumPy files, with NumPy's op names and shape rules (without broadcasting),
 * on the default device or the one --device names. It says on stderr which
 * device ran the op. The output file is written only when everything
 * succeeded (and then atomically, see accel_npy_save). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/npy.h"
#include "accel/verify.h"
#include "cli.h"

typedef enum op_kind {
    KIND_BINARY, /* two inputs of the same shape, output of that shape */
    KIND_UNARY,  /* one input, output of its shape */
    KIND_REDUCE, /* one input of any shape, 0-d output */
    KIND_DOT,    /* two 1-D inputs of the same length, 0-d output */
    KIND_MATMUL, /* (m,k)@(k,n) or (b,m,k)@(b,k,n) */
    KIND_TRANSPOSE /* one 2-D input (r,c), output (c,r) */
} op_kind;

typedef struct op_entry {
    const char *name; /* NumPy's name, as given */
    op_kind kind;
    accel_op_code code;
} op_entry;

/* The ops: every row of the op table (accel/types.h) with NumPy names (its
 * NUMPY column, '|'-separated aliases). */
#define ACCEL_X_NUMPY(E, V, NAME, KIND, OPS, READS, DTYPES, TOL, TOLN, COST, RD, WR, FL, NP, ...)  \
    {NP, ACCEL_OP_##E},
static const struct {
    const char *names;
    accel_op_code code;
} numpy_rows[] = {ACCEL_OP_LIST(ACCEL_X_NUMPY)};
#undef ACCEL_X_NUMPY
#define ROW_COUNT (sizeof numpy_rows / sizeof numpy_rows[0])

/* How `accel run` shapes an op of the table; false for kinds it does not run. */
static bool kind_of(accel_op_code code, op_kind *out)
{
    const accel_op_properties *p = accel_op_info(code);
    if (!p)
        return false;
    switch (p->kind) {
    case ACCEL_OP_KIND_BINARY:
        *out = KIND_BINARY;
        return true;
    case ACCEL_OP_KIND_UNARY:
        *out = KIND_UNARY;
        return true;
    case ACCEL_OP_KIND_REDUCTION:
        *out = p->num_operands == 3 ? KIND_DOT : KIND_REDUCE;
        return true;
    case ACCEL_OP_KIND_GEMM:
        *out = KIND_MATMUL;
        return true;
    case ACCEL_OP_KIND_TRANSPOSE:
        *out = KIND_TRANSPOSE;
        return true;
    case ACCEL_OP_KIND_FILL:
    case ACCEL_OP_KIND_COPY:
    case ACCEL_OP_KIND_AXPBY:
    case ACCEL_OP_KIND_RANDOM:
        break;
    }
    return false;
}

/* The NumPy names of the ops of one shape, space-separated, on out. */
static void print_names(FILE *out, op_kind kind)
{
    const char *sep = "";
    for (size_t i = 0; i < ROW_COUNT; i++) {
        op_kind k;
        if (!numpy_rows[i].names || !kind_of(numpy_rows[i].code, &k) || k != kind)
            continue;
        for (const char *n = numpy_rows[i].names; *n;) {
            size_t len = strcspn(n, "|");
            fprintf(out, "%s%.*s", sep, (int)len, n);
            sep = " ";
            n += len + (n[len] == '|');
        }
    }
}

void cli_run_usage(FILE *out)
{
    fprintf(out, "usage: accel run OP IN.npy [IN2.npy] -o OUT.npy [--device NAME] [--config FILE]\n"
                 "                 [--verify] [--time] [--report]\n"
                 "\n"
                 "Runs one op on NumPy .npy files (little-endian float32 or float64, C order;\n"
                 "both inputs of one dtype) and writes the result as OUT.npy. Prints on\n"
                 "stderr which device ran it. No broadcasting: shapes must match exactly.\n"
                 "\n"
                 "ops (NumPy's names):\n"
                 "  two inputs, same shape:  ");
    print_names(out, KIND_BINARY);
    fprintf(out, "\n  one input:               ");
    print_names(out, KIND_UNARY);
    fprintf(out, "\n  reductions (0-d result): ");
    print_names(out, KIND_REDUCE);
    fprintf(out, "\n"
                 "  dot                      1-D x 1-D of equal length -> 0-d\n"
                 "  matmul                   (m,k) @ (k,n) -> (m,n), or batched\n"
                 "                           (b,m,k) @ (b,k,n) -> (b,m,n)\n"
                 "  transpose                (r,c) -> (c,r), as np.ascontiguousarray(x.T)\n"
                 "\n"
                 "options:\n"
                 "  -o, --output FILE  where to write the result (required; written only on\n"
                 "                     success, atomically; may be one of the inputs)\n"
                 "  --device NAME      cpu, cuda, cuda:1, ... or default (the default)\n"
                 "  --config FILE      the plugins.ini to read\n"
                 "  --verify           also run the op on the CPU device and print the largest\n"
                 "                     difference against the op's tolerance (the core's\n"
                 "                     accel_tolerance_compare; README, \"Cross-checking\");\n"
                 "                     exit 1 when it is exceeded (OUT.npy is still written,\n"
                 "                     for inspection)\n"
                 "  --time             print the op's device time (from events, copies excluded)\n"
                 "  --report           print the placement report on stderr: which device ran\n"
                 "                     each op kind, fallbacks, bytes moved and why\n"
                 "\n"
                 "exit status: 0 success, 1 the op, a file or --verify failed, 2 usage error.\n"
                 "example: accel run matmul a.npy b.npy -o c.npy --device cuda\n");
}

/* The op NumPy calls name; false when there is none. */
static bool find_op(const char *name, op_entry *out)
{
    size_t want = strlen(name);
    for (size_t i = 0; i < ROW_COUNT; i++) {
        if (!numpy_rows[i].names || !kind_of(numpy_rows[i].code, &out->kind))
            continue;
        for (const char *n = numpy_rows[i].names; *n;) {
            size_t len = strcspn(n, "|");
            if (len == want && strncmp(n, name, len) == 0) {
                out->name = name;
                out->code = numpy_rows[i].code;
                return true;
            }
            n += len + (n[len] == '|');
        }
    }
    return false;
}

static int arity(op_kind k)
{
    return (k == KIND_UNARY || k == KIND_REDUCE || k == KIND_TRANSPOSE) ? 1 : 2;
}

/* "(3, 4)" into buf. */
static const char *shape_str(const accel_npy_array *a, char *buf, size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "(");
    for (uint32_t d = 0; d < a->ndim && len < cap; d++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%zu", d ? ", " : "", a->shape[d]);
    if (len < cap)
        snprintf(buf + len, cap - len, "%s)", a->ndim == 1 ? "," : "");
    return buf;
}

static bool same_shape(const accel_npy_array *a, const accel_npy_array *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (uint32_t d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

/* The output's shape, or an error message on stderr and false. */
static bool output_shape(const op_entry *op, const accel_npy_array *in, const char *const *paths,
                         uint32_t *out_ndim, size_t *out_shape)
{
    char s0[200], s1[200];
    switch (op->kind) {
    case KIND_UNARY:
        *out_ndim = in[0].ndim;
        memcpy(out_shape, in[0].shape, sizeof in[0].shape);
        return true;
    case KIND_REDUCE:
        *out_ndim = 0;
        return true;
    case KIND_BINARY:
        if (!same_shape(&in[0], &in[1])) {
            fprintf(stderr,
                    "accel run: %s: shapes %s (%s) and %s (%s) differ (accel does not broadcast)\n",
                    op->name, shape_str(&in[0], s0, sizeof s0), paths[0],
                    shape_str(&in[1], s1, sizeof s1), paths[1]);
            return false;
        }
        *out_ndim = in[0].ndim;
        memcpy(out_shape, in[0].shape, sizeof in[0].shape);
        return true;
    case KIND_DOT:
        if (in[0].ndim != 1 || in[1].ndim != 1 || in[0].shape[0] != in[1].shape[0]) {
            fprintf(
                stderr,
                "accel run: dot: needs two 1-D arrays of equal length, got %s (%s) and %s (%s)\n",
                shape_str(&in[0], s0, sizeof s0), paths[0], shape_str(&in[1], s1, sizeof s1),
                paths[1]);
            return false;
        }
        *out_ndim = 0;
        return true;
    case KIND_MATMUL: {
        uint32_t nd = in[0].ndim;
        bool ok = nd == in[1].ndim && (nd == 2 || nd == 3);
        if (ok && nd == 3)
            ok = in[0].shape[0] == in[1].shape[0];
        if (ok)
            ok = in[0].shape[nd - 1] == in[1].shape[nd - 2];
        if (!ok) {
            fprintf(stderr,
                    "accel run: matmul: needs (m,k) @ (k,n) or (b,m,k) @ (b,k,n), got %s (%s) and "
                    "%s (%s)\n",
                    shape_str(&in[0], s0, sizeof s0), paths[0], shape_str(&in[1], s1, sizeof s1),
                    paths[1]);
            return false;
        }
        *out_ndim = nd;
        if (nd == 3)
            out_shape[0] = in[0].shape[0];
        out_shape[nd - 2] = in[0].shape[nd - 2];
        out_shape[nd - 1] = in[1].shape[nd - 1];
        return true;
    }
    case KIND_TRANSPOSE:
        if (in[0].ndim != 2) {
            fprintf(stderr, "accel run: transpose: needs a 2-D array, got %s (%s)\n",
                    shape_str(&in[0], s0, sizeof s0), paths[0]);
            return false;
        }
        *out_ndim = 2;
        out_shape[0] = in[0].shape[1];
        out_shape[1] = in[0].shape[0];
        return true;
    }
    return false;
}

/* Enqueue the op on q. */
static accel_status enqueue_op(accel_queue *q, const op_entry *op, accel_dtype dt,
                               const accel_npy_array *in, accel_buffer *const *buf,
                               accel_buffer *out_buf, size_t out_count)
{
    switch (op->kind) {
    case KIND_BINARY:
        return accel_binary(q, op->code, dt, accel_slice_of(buf[0], 0, in[0].count),
                            accel_slice_of(buf[1], 0, in[1].count),
                            accel_slice_of(out_buf, 0, out_count));
    case KIND_UNARY:
        return accel_unary(q, op->code, dt, accel_slice_of(buf[0], 0, in[0].count),
                           accel_slice_of(out_buf, 0, out_count));
    case KIND_REDUCE:
        return accel_reduce(q, op->code, dt, accel_slice_of(buf[0], 0, in[0].count),
                            accel_slice_of(out_buf, 0, 1));
    case KIND_DOT:
        return accel_dot(q, dt, accel_slice_of(buf[0], 0, in[0].count),
                         accel_slice_of(buf[1], 0, in[1].count), accel_slice_of(out_buf, 0, 1));
    case KIND_MATMUL: {
        uint32_t nd = in[0].ndim;
        size_t batch = nd == 3 ? in[0].shape[0] : 1;
        size_t m = in[0].shape[nd - 2], k = in[0].shape[nd - 1], n = in[1].shape[nd - 1];
        if (batch == 0)
            return ACCEL_SUCCESS; /* nothing to compute; the output is empty */
        accel_gemm_desc d;
        accel_gemm_desc_init(&d);
        d.dtype = dt;
        d.m = m;
        d.n = n;
        d.k = k;
        d.alpha = 1.0;
        d.beta = 0.0;
        d.a = buf[0];
        d.lda = k;
        d.b = buf[1];
        d.ldb = n;
        d.c = out_buf;
        d.ldc = n;
        d.batch_count = batch;
        d.stride_a = m * k;
        d.stride_b = k * n;
        d.stride_c = m * n;
        return accel_gemm(q, &d);
    }
    case KIND_TRANSPOSE: {
        size_t rows = in[0].shape[0], cols = in[0].shape[1];
        return accel_transpose_2d(q, dt, rows, cols, buf[0], 0, cols, out_buf, 0, rows);
    }
    }
    return ACCEL_ERROR_INTERNAL;
}

/* Copy the inputs to dev, run the op there and read its out_count elements
 * into result. With out_ms, the op's device time between two events. Prints
 * the error (naming the stage) and returns its status on failure. */
static accel_status compute_on(accel_device *dev, const op_entry *op, accel_dtype dt,
                               const accel_npy_array *in, int nin, size_t out_count, void *result,
                               double *out_ms)
{
    size_t esize = accel_dtype_size(dt);
    accel_queue *q = NULL;
    accel_buffer *buf[2] = {NULL, NULL}, *out_buf = NULL;
    accel_event *ev[2] = {NULL, NULL};
    const char *what = "cannot create a queue";
    accel_status st = accel_queue_create(dev, &q);
    for (int i = 0; i < nin && st == ACCEL_SUCCESS; i++) {
        what = "cannot copy an input to the device";
        st = accel_buffer_create(dev, in[i].count * esize, &buf[i]);
        if (st == ACCEL_SUCCESS)
            st = accel_queue_write(q, buf[i], 0, in[i].data, in[i].count * esize);
    }
    if (st == ACCEL_SUCCESS) {
        what = "cannot allocate the output";
        st = accel_buffer_create(dev, out_count * esize, &out_buf);
    }
    for (int i = 0; i < 2 && out_ms && st == ACCEL_SUCCESS; i++) {
        what = "cannot create an event for --time";
        st = accel_event_create(dev, &ev[i]);
    }
    if (st == ACCEL_SUCCESS && out_ms)
        st = accel_event_record(ev[0], q);
    if (st == ACCEL_SUCCESS) {
        what = op->name;
        st = enqueue_op(q, op, dt, in, buf, out_buf, out_count);
    }
    if (st == ACCEL_SUCCESS && out_ms)
        st = accel_event_record(ev[1], q);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(q, out_buf, 0, result, out_count * esize);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    if (st == ACCEL_SUCCESS && out_ms)
        st = accel_event_elapsed_ms(ev[0], ev[1], out_ms);
    if (st != ACCEL_SUCCESS)
        cli_runtime_error("run", st, what);
    /* The queue first: releasing it waits for work that may still use the
     * buffers and the input arrays. */
    accel_queue_release(q);
    accel_event_release(ev[0]);
    accel_event_release(ev[1]);
    accel_buffer_release(out_buf);
    accel_buffer_release(buf[0]);
    accel_buffer_release(buf[1]);
    return st;
}

/* The op as enqueue_op runs it, for accel_tolerance_compare (which reads
 * the op, dtype, operand counts, shapes and scalars). */
static accel_tolerance_op describe_op(const op_entry *op, accel_dtype dt, const accel_npy_array *in,
                                      size_t out_count)
{
    accel_tolerance_op d;
    accel_tolerance_op_init(&d);
    d.op = op->code;
    d.dtype = dt;
    int nin = arity(op->kind);
    for (int i = 0; i < nin; i++)
        d.counts[i] = in[i].count;
    d.counts[nin] = out_count;
    d.num_operands = (uint32_t)nin + 1;
    if (op->kind == KIND_MATMUL) {
        uint32_t nd = in[0].ndim;
        d.batch_count = nd == 3 ? in[0].shape[0] : 1;
        d.m = in[0].shape[nd - 2];
        d.k = in[0].shape[nd - 1];
        d.n = in[1].shape[nd - 1];
        d.lda = d.k;
        d.ldb = d.n;
        d.ldc = d.n;
        d.stride_a = d.m * d.k;
        d.stride_b = d.k * d.n;
        d.stride_c = d.m * d.n;
        d.scalars[0] = 1.0; /* alpha; beta = 0 */
    } else if (op->kind == KIND_TRANSPOSE) {
        d.m = in[0].shape[0];
        d.n = in[0].shape[1];
        d.lda = d.n;
        d.ldc = d.m;
    }
    return d;
}

/* --verify: the same op on the CPU device, compared with result by the core's
 * tolerance model (accel_tolerance_compare, README "Cross-checking"), which
 * allows for both results' errors. Prints the largest difference relative
 * to its bound on stderr; true when every element is within its bound. */
static bool verify_on_cpu(accel_runtime *rt, accel_device *dev, const op_entry *op,
                          accel_dtype dt, const accel_npy_array *in, int nin, size_t out_count,
                          const void *result)
{
    accel_device *cpu = NULL;
    accel_status st = accel_device_get_by_name(rt, "cpu", &cpu);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run", st, "--verify needs the CPU device");
        return false;
    }
    size_t esize = accel_dtype_size(dt);
    void *ref = malloc(out_count ? out_count * esize : 1);
    if (!ref) {
        fprintf(stderr, "accel run: --verify: out of host memory\n");
        return false;
    }
    accel_compare_result c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    st = compute_on(cpu, op, dt, in, nin, out_count, ref, NULL); /* prints why it failed */
    if (st == ACCEL_SUCCESS) {
        accel_tolerance_op d = describe_op(op, dt, in, out_count);
        const void *inputs[4] = {in[0].data, nin > 1 ? in[1].data : NULL, NULL, NULL};
        st = accel_tolerance_compare(&d, inputs, result, ref, &c);
        if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_MISMATCH)
            cli_runtime_error("run", st, "--verify cannot compare the results");
    }
    free(ref);
    if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_MISMATCH)
        return false;
    bool pass = st == ACCEL_SUCCESS;
    const char *ref_name = accel_device_name(cpu);
    /* Before the verdict, which stays last on the line (tests parse it). */
    const char *self = pass && dev == cpu
                           ? "; but this device IS the CPU reference, so this only shows the CPU "
                             "agrees with itself (no GPU in use; see accel info)"
                           : "";
    if (c.worst_index == SIZE_MAX) {
        fprintf(stderr, "accel: verify: %zu element%s identical to %s (%s)%s: PASS\n", out_count,
                out_count == 1 ? "" : "s", ref_name, c.rule, self);
    } else {
        double ratio = isfinite(c.worst_error) && c.worst_bound > 0
                           ? c.worst_error / c.worst_bound
                           : INFINITY;
        fprintf(stderr,
                "accel: verify: largest error %.3g at element %zu vs tolerance %.3g (%.3g of it; "
                "%s) against %s%s: %s\n",
                c.worst_error, c.worst_index, c.worst_bound, ratio, c.rule, ref_name, self,
                pass ? "PASS" : "FAIL");
    }
    return pass;
}

int cli_run_main(int argc, char **argv)
{
    const char *output = NULL, *device_name = NULL, *config = NULL;
    const char *positional[4];
    int npos = 0;
    bool only_positional = false, verify = false, timing = false, report = false;
    for (int i = 1; i < argc;) {
        const char *arg = argv[i];
        if (!only_positional && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                only_positional = true;
                i++;
                continue;
            }
            if (strcmp(arg, "--report") == 0) {
                report = true;
                i++;
                continue;
            }
            if (strcmp(arg, "--verify") == 0 || strcmp(arg, "--time") == 0) {
                *(arg[2] == 'v' ? &verify : &timing) = true;
                i++;
                continue;
            }
            const char *before[3] = {output, device_name, config};
            int r = cli_option_value(argc, argv, &i, "--output", "-o", &output);
            if (r == 0)
                r = cli_option_value(argc, argv, &i, "--device", NULL, &device_name);
            if (r == 0)
                r = cli_option_value(argc, argv, &i, "--config", NULL, &config);
            if (r < 0)
                return cli_usage_error("run", "option %s needs a value", arg);
            if (r == 0)
                return cli_usage_error("run", "unknown option '%s'", arg);
            if ((before[0] && before[0] != output) || (before[1] && before[1] != device_name) ||
                (before[2] && before[2] != config))
                return cli_usage_error("run", "option %s given twice", arg);
            continue;
        }
        if (npos == 4)
            return cli_usage_error("run", "too many arguments (from '%s' on)", arg);
        positional[npos++] = arg;
        i++;
    }
    if (npos == 0)
        return cli_usage_error("run", "missing OP (add, matmul, sum, ...)");
    op_entry op_found;
    if (!find_op(positional[0], &op_found)) {
        fprintf(stderr, "accel run: error: unknown op '%s'; known ops: ", positional[0]);
        print_names(stderr, KIND_BINARY);
        fputc(' ', stderr);
        print_names(stderr, KIND_UNARY);
        fputc(' ', stderr);
        print_names(stderr, KIND_REDUCE);
        fprintf(stderr, " dot matmul transpose\n");
        return CLI_EXIT_USAGE;
    }
    const op_entry *op = &op_found;
    int nin = arity(op->kind);
    if (npos - 1 != nin)
        return cli_usage_error("run", "%s takes %d input file%s, got %d", op->name, nin,
                               nin == 1 ? "" : "s", npos - 1);
    if (!output)
        return cli_usage_error("run", "missing -o OUT.npy");
    if (!output[0])
        return cli_usage_error("run", "the output path is empty");
    if (device_name && !device_name[0])
        return cli_usage_error("run", "the device name is empty");
    if (config && !config[0])
        return cli_usage_error("run", "the config path is empty");

    int rc = CLI_EXIT_RUNTIME;
    accel_npy_array in[2];
    memset(in, 0, sizeof in);
    accel_runtime *rt = NULL;
    void *result = NULL;
    accel_status st;
    const char *paths[2] = {positional[1], nin == 2 ? positional[2] : NULL};

    for (int i = 0; i < nin; i++) {
        st = accel_npy_load(paths[i], &in[i]);
        if (st != ACCEL_SUCCESS) {
            cli_runtime_error("run", st, "cannot read input");
            goto done;
        }
        if (in[i].dtype != ACCEL_F32 && in[i].dtype != ACCEL_F64) {
            fprintf(stderr, "accel run: %s: %s holds %s; ops take float32 or float64\n", op->name,
                    paths[i], accel_dtype_name(in[i].dtype));
            goto done;
        }
    }
    if (nin == 2 && in[0].dtype != in[1].dtype) {
        fprintf(stderr,
                "accel run: %s: inputs differ in dtype: %s is %s, %s is %s (convert one with "
                "astype)\n",
                op->name, paths[0], accel_dtype_name(in[0].dtype), paths[1],
                accel_dtype_name(in[1].dtype));
        goto done;
    }
    accel_dtype dt = in[0].dtype;
    size_t esize = accel_dtype_size(dt);

    uint32_t out_ndim = 0;
    size_t out_shape[ACCEL_NPY_MAX_DIMS] = {0};
    if (!output_shape(op, in, paths, &out_ndim, out_shape))
        goto done;
    size_t out_count = 1;
    for (uint32_t d = 0; d < out_ndim; d++) {
        if (out_shape[d] && out_count > SIZE_MAX / esize / out_shape[d]) {
            fprintf(stderr, "accel run: %s: the output's size overflows\n", op->name);
            goto done;
        }
        out_count *= out_shape[d];
    }

    st = accel_runtime_open(config, &rt);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run", st, "cannot open the runtime");
        goto done;
    }
    if (report)
        accel_report_enable(rt, true);
    accel_device *dev = NULL;
    st = device_name ? accel_device_get_by_name(rt, device_name, &dev)
                     : accel_device_default(rt, &dev);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run", st, "no such device");
        cli_device_hint("run", device_name);
        goto done;
    }
    result = malloc(out_count ? out_count * esize : 1);
    if (!result) {
        fprintf(stderr, "accel run: out of host memory for the result\n");
        goto done;
    }
    double ms = 0;
    if (compute_on(dev, op, dt, in, nin, out_count, result, timing ? &ms : NULL) != ACCEL_SUCCESS)
        goto done;
    st = accel_npy_save(output, dt, out_ndim, out_shape, result);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run", st, "cannot write the output");
        goto done;
    }
    accel_device_properties p;
    accel_device_properties_init(&p);
    if (accel_device_properties_get(dev, &p) == ACCEL_SUCCESS)
        fprintf(stderr, "accel: %s ran on %s (%s)\n", op->name, accel_device_name(dev), p.name);
    else
        fprintf(stderr, "accel: %s ran on %s\n", op->name, accel_device_name(dev));
    if (timing)
        fprintf(stderr, "accel: %s took %.3f ms on %s (device time between events)\n", op->name, ms,
                accel_device_name(dev));
    if (verify && !verify_on_cpu(rt, dev, op, dt, in, nin, out_count, result))
        goto done;
    rc = CLI_EXIT_OK;

done:
    if (report && rt) {
        char text[8192];
        if (accel_report_format(rt, text, sizeof text, NULL) == ACCEL_SUCCESS)
            fputs(text, stderr);
    }
    free(result);
    accel_runtime_close(rt);
    accel_npy_free(&in[0]);
    accel_npy_free(&in[1]);
    return rc;
}
