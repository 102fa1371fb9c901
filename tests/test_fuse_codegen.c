/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_fuse_codegen.c — the CUDA entry core/kernels/kernel_codegen.c generates for
 * elementwise kernels (fused chains are such kernels), checked where there
 * is no GPU: the generated source of graph_bench's fused 8-op chain and of a
 * two-output f64 kernel is compiled as host C++ (tests/fuse_codegen/
 * host_run.cc runs every thread of every block in turn) and must give a
 * plain loop's values bit for bit over every n around the block and vector
 * edges, aligned and unaligned, in place, and with grids smaller than n
 * needs; the full-block path loads two vectors per input at a constant
 * offset. core/kernels/kernel_codegen.c is compiled into this test (its entry is
 * internal). */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/kernels.h"

TestSuite(fuse_codegen, .timeout = 300);

static void param(accel_kernel *k, const char *name, accel_dtype dt, bool out)
{
    accel__kparam *p = &k->params[k->nparams++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->dtype = dt;
    p->output = out;
    if (!out)
        k->nin++;
}

/* The body core/graphs/fuse.c writes for graph_bench's chain: mul, add, tanh,
 * scale (alpha = p1), sub, relu, mul, sigmoid, through the op table's
 * per-element expressions. */
static const char chain_body[] =
    "float v0 = p0;\n"
    "float v1; { const float a = v0; const float b = v0; v1 = (a * b); }\n"
    "float v2; { const float a = v1; const float b = v0; v2 = (a + b); }\n"
    "float v3; { const float x = v2; v3 = (tanhf(x)); }\n"
    "float v4; { const float x = v3; const float alpha = p1; v4 = (alpha * x); }\n"
    "float v5; { const float a = v4; const float b = v0; v5 = (a - b); }\n"
    "float v6; { const float x = v5; v6 = (x <= 0.0f ? 0.0f : x); }\n"
    "float v7; { const float a = v6; const float b = v0; v7 = (a * b); }\n"
    "float v8; { const float x = v7; v8 = (1.0f / (1.0f + expf(-x))); }\n"
    "q0 = v8;\n";

/* The CUDA source of the chain (p0 array, p1 scalar -> q0) or of the pair
 * (a, b f64 -> z, w), malloc'ed; entry gets its symbol. */
static char *source_of(bool chain, char *entry)
{
    static accel_kernel k;
    memset(&k, 0, sizeof k);
    k.kind = ACCEL_KERNEL_ELEMENTWISE;
    uint32_t mask = 0;
    if (chain) {
        snprintf(k.name, sizeof k.name, "fused_chain");
        param(&k, "p0", ACCEL_F32, false);
        param(&k, "p1", ACCEL_F32, false);
        param(&k, "q0", ACCEL_F32, true);
        k.body = (char *)chain_body;
        mask = 2;
    } else {
        snprintf(k.name, sizeof k.name, "pair");
        param(&k, "a", ACCEL_F64, false);
        param(&k, "b", ACCEL_F64, false);
        param(&k, "z", ACCEL_F64, true);
        param(&k, "w", ACCEL_F64, true);
        k.body = (char *)"z = a * b + (double)i; w = a - b";
    }
    char *s = accel__kernel_codegen(&k, ACCEL_PROGRAM_CUDA, mask, entry);
    cr_assert(s, "out of host memory");
    return s;
}

static size_t count(const char *s, const char *what)
{
    size_t c = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        c++;
    return c;
}

Test(fuse_codegen, full_blocks_load_two_vectors_per_input_at_a_constant_offset)
{
    char entry[ACCEL__KNAME_MAX + 16];
    char *s = source_of(true, entry);
    cr_assert_str_eq(entry, "accel_ew_fused_chain");
    cr_assert_eq(ACCEL_KERNEL_ELEMENTWISE_BLOCK, 2048u);
    /* The full block: vectors accel_v and accel_v + 256 of p0, stored to
     * the same places of q0; the block's other paths take one vector. */
    cr_assert_eq(count(s, "accel_x0_0 = accel_a0[0];"), 2, "%s", s);
    cr_assert_eq(count(s, "accel_x0_1 = accel_a0[256];"), 1, "%s", s);
    cr_assert_eq(count(s, "accel_a2[256] = accel_y2_1;"), 1, "%s", s);
    cr_assert_eq(count(s, "__launch_bounds__(256)"), 1, "%s", s);
    free(s);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    cr_assert_eq(fputs(text, f) >= 0, 1);
    cr_assert_eq(fclose(f), 0);
}

Test(fuse_codegen, cuda_entries_match_a_plain_loop_when_run_on_the_host)
{
    char dir[] = "/tmp/accel_fuse_codegen_XXXXXX";
    cr_assert(mkdtemp(dir), "mkdtemp failed");
    char path[512], entry[2][ACCEL__KNAME_MAX + 16], cmd[4096];
    for (int c = 0; c < 2; c++) {
        char *s = source_of(c == 0, entry[c]);
        snprintf(path, sizeof path, "%s/%s", dir, c == 0 ? "chain.cu" : "pair.cu");
        write_file(path, s);
        free(s);
    }
    /* No contraction, like NVRTC's --fmad=false: the plain loop's bits. */
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c++17 -O1 -ffp-contract=off -I'%s' -DCHAIN_ENTRY=%s -DPAIR_ENTRY=%s "
             "-o '%s/run' '%s' -lm > '%s/cc.log' 2>&1",
             ACCEL_TEST_CXX, dir, entry[0], entry[1], dir, ACCEL_TEST_HOST_RUN, dir);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/cc.log", dir);
    char log[4096] = "";
    FILE *f = fopen(path, "r");
    if (f) {
        size_t m = fread(log, 1, sizeof log - 1, f);
        log[m] = '\0';
        fclose(f);
    }
    cr_assert_eq(rc, 0, "compiling the generated CUDA entries as host C++ failed:\n%s", log);
    snprintf(cmd, sizeof cmd, "'%s/run'", dir);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "cannot run %s/run", dir);
    char out[4096] = "";
    size_t m = fread(out, 1, sizeof out - 1, p);
    out[m] = '\0';
    int st = pclose(p);
    cr_assert_eq(st, 0, "the host run of the generated entries failed:\n%s", out);
    int runs = 0, failed = -1;
    cr_assert_eq(sscanf(strstr(out, "runs ") ? strstr(out, "runs ") : "", "runs %d failed %d",
                        &runs, &failed),
                 2, "%s", out);
    cr_assert_eq(failed, 0, "%s", out);
    cr_assert_eq(runs, 2 * 20 * 3 * 2 * 3, "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}
