/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* tcc_helper.c — accel-tcc, the CPU backend's embedded compiler for user
 * kernels: compiles one C file into a shared object with the Tiny C Compiler
 * library (libtcc), so kernels build on a machine with no C compiler or C
 * library headers installed. The generated C includes no header and links
 * nothing (-nostdlib); math functions resolve from the process's libm when
 * the backend loads the object. Messages go to stderr, as a compiler's do.
 *
 *   accel-tcc OUT.so IN.c     exit 0 on success, 1 on a compile error */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libtcc.h>

static void report(void *opaque, const char *msg)
{
    (void)opaque;
    fprintf(stderr, "%s\n", msg);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: accel-tcc OUT.so IN.c\n");
        return 2;
    }
    TCCState *s = tcc_new();
    if (!s) {
        fprintf(stderr, "accel-tcc: out of memory\n");
        return 1;
    }
    tcc_set_error_func(s, NULL, report);
    /* tcc prefixes #line names with the source's folder: compile from it, so
     * messages read "saxpy:2: error: ..." against the user's text. */
    const char *src = argv[2];
    const char *slash = strrchr(src, '/');
    if (slash) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - src), src);
        if (chdir(dir[0] ? dir : "/") != 0) {
            fprintf(stderr, "accel-tcc: cannot enter %s\n", dir);
            tcc_delete(s);
            return 1;
        }
        src = slash + 1;
    }
    tcc_set_options(s, "-nostdlib");
    int rc = tcc_set_output_type(s, TCC_OUTPUT_DLL) < 0 || tcc_add_file(s, src) < 0 ||
             tcc_output_file(s, argv[1]) < 0;
    tcc_delete(s);
    return rc ? 1 : 0;
}
