/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_csv.c — `accel bench --csv`: one line per device, op and size, then
 * one per target. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench_types.h"
#include "bench_write.h"

/* CSV field: quoted when it holds a comma or quote. */
static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int bench_write_csv(const char *path, const bench *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    fprintf(f, "device,kind,name,dtype,n,median_ms,min_ms,rate,unit,ceiling,ceiling_name,"
               "fraction,target,pass\n");
    for (size_t di = 0; di < b->dev_count; di++) {
        const bench_device *d = &b->devs[di];
        for (size_t i = 0; i < d->row_count; i++) {
            const bench_row *r = &d->rows[i];
            fprintf(f, "%s,result,%s,%s,%llu,%.6g,%.6g,%.6g,%s,%.6g,", d->name, r->op, r->dtype,
                    (unsigned long long)r->n, r->median_ms, r->min_ms, r->rate, r->unit,
                    r->ceiling);
            csv_str(f, r->ceiling_name ? r->ceiling_name : "");
            fprintf(f, ",%.6g,%.6g,\n", r->fraction, r->target);
        }
        for (size_t i = 0; i < d->target_count; i++) {
            const bench_target *t = &d->targets[i];
            fprintf(f, "%s,target,", d->name);
            csv_str(f, t->name);
            fprintf(f, ",,,,,%.6g,%s,,,,%.6g,%s\n", t->measured, t->is_overhead ? "us" : "fraction",
                    t->target, t->pass ? "PASS" : "MISS");
        }
        for (size_t i = 0; i < d->note_count; i++) {
            fprintf(f, "%s,note,", d->name);
            csv_str(f, d->notes[i].name);
            fprintf(f, ",,,,,%.6g,ratio,,,,,\n", d->notes[i].measured);
        }
    }
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}
