/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_peers.c — the peers' times from bench/peers.py's --json output, for
 * the chart (bench_write.h): {"devices": [{"device": "cuda:0", "rows": [{"op",
 * "dtype", "n", "peer", "peer_ms", ...}]}]}. Rows without a peer (peer_ms
 * null) are left out. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_write.h"

/* The whole file as a string (to free), or NULL with err set. */
static char *slurp(const char *path, char *err, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t len = 0, room = 4096;
    char *buf = malloc(room);
    for (size_t got; buf && (got = fread(buf + len, 1, room - len - 1, f)) > 0;) {
        len += got;
        char *more = len + 1 == room ? realloc(buf, room *= 2) : buf;
        if (!more)
            free(buf);
        buf = more;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (!buf || bad) {
        snprintf(err, cap, "%s: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static bool text_field(const cJSON *o, const char *key, char *out, size_t cap)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= cap)
        return false;
    snprintf(out, cap, "%s", v->valuestring);
    return true;
}

/* One row of a device into p; false where it has no peer time, or a field
 * is missing or of the wrong type. */
static bool peer_row(const cJSON *row, const char *device, bench_peer *p)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(row, "n");
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(row, "peer_ms");
    memset(p, 0, sizeof *p);
    snprintf(p->device, sizeof p->device, "%s", device);
    if (!cJSON_IsNumber(n) || n->valuedouble < 1 || !cJSON_IsNumber(ms) || !(ms->valuedouble > 0))
        return false;
    p->n = (uint64_t)n->valuedouble;
    p->peer_ms = ms->valuedouble;
    return text_field(row, "op", p->op, sizeof p->op) &&
           text_field(row, "dtype", p->dtype, sizeof p->dtype) &&
           text_field(row, "peer", p->who, sizeof p->who);
}

static int read_devices(const cJSON *devs, bench_peers *out, char *err, size_t cap)
{
    size_t room = 0;
    const cJSON *dev;
    cJSON_ArrayForEach(dev, devs)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(dev, "device");
        const cJSON *rows = cJSON_GetObjectItemCaseSensitive(dev, "rows");
        if (!cJSON_IsString(name) || !cJSON_IsArray(rows)) {
            snprintf(err, cap, "a device without \"device\" (a string) and \"rows\" (an array)");
            return EINVAL;
        }
        room += (size_t)cJSON_GetArraySize(rows);
    }
    out->rows = calloc(room ? room : 1, sizeof *out->rows);
    if (!out->rows) {
        snprintf(err, cap, "out of memory");
        return ENOMEM;
    }
    cJSON_ArrayForEach(dev, devs)
    {
        const char *name = cJSON_GetObjectItemCaseSensitive(dev, "device")->valuestring;
        const cJSON *row;
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(dev, "rows"))
        {
            out->count += peer_row(row, name, &out->rows[out->count]);
        }
    }
    return 0;
}

int bench_peers_read(const char *path, bench_peers *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    char *text = slurp(path, err, cap);
    if (!text)
        return EIO;
    cJSON *root = cJSON_Parse(text);
    free(text);
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(root, "devices");
    int rc = 0;
    if (!root || !cJSON_IsArray(devs)) {
        snprintf(err, cap, "%s: %s", path,
                 root ? "no \"devices\" array (not bench/peers.py's --json output)"
                      : "not valid JSON");
        rc = EINVAL;
    } else {
        char why[160] = "";
        rc = read_devices(devs, out, why, sizeof why);
        if (rc)
            snprintf(err, cap, "%s: %s", path, why);
    }
    cJSON_Delete(root);
    if (rc)
        bench_peers_free(out);
    return rc;
}

void bench_peers_free(bench_peers *p)
{
    free(p->rows);
    p->rows = NULL;
    p->count = 0;
}
