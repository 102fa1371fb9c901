/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fuzz_ini.c — libFuzzer harness for the plugins.ini reader
 * (accel__config_load in core/base/config.c, with inih underneath). Each input is
 * written to a private temporary file (mode 0600, so the security check of
 * core/base/security.c passes) and parsed; nothing is dlopen'ed, since only the
 * configuration layer is linked in. Built with ACCEL_FUZZ=ON and clang;
 * replay_main.c replays the corpora as a ctest in every build. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char ini_path[4096];

static void remove_ini(void)
{
    if (ini_path[0])
        unlink(ini_path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    accel_set_log_level(ACCEL_LOG_OFF);
    const char *base = getenv("TMPDIR");
    snprintf(ini_path, sizeof ini_path, "%s/accel-fuzz-ini-XXXXXX", base && *base ? base : "/tmp");
    int fd = mkstemp(ini_path);
    if (fd < 0) {
        perror("fuzz_ini: mkstemp");
        exit(1);
    }
    close(fd);
    atexit(remove_ini);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ini_path[0])
        LLVMFuzzerInitialize(NULL, NULL);
    FILE *f = fopen(ini_path, "wb");
    if (!f)
        return 0;
    if (size)
        fwrite(data, 1, size, f);
    fclose(f);
    accel__config *cfg = NULL;
    if (accel__config_load(ini_path, "fuzz_ini", &cfg) == ACCEL_SUCCESS) {
        /* Walk what the parser built: every string must be a valid C string. */
        size_t total = strlen(cfg->path) + strlen(cfg->dir);
        for (size_t i = 0; i < cfg->order_count; i++)
            total += strlen(cfg->order[i]) + (accel__config_section(cfg, cfg->order[i]) ? 0 : 1);
        for (size_t i = 0; i < cfg->section_count; i++) {
            total += strlen(cfg->sections[i].name) + strlen(cfg->sections[i].path);
            total += accel__kvlist_get(&cfg->sections[i].keys, "library") ? 0 : 1;
        }
        (void)total;
        accel__config_free(cfg);
    }
    return 0;
}
