/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_svg.c — the chart of `accel bench --svg`: for each device, one
 * horizontal bar per op (at its largest size) whose length is the fraction
 * of the device's own ceiling reached, a line at 1 (the ceiling), and a tick
 * at the op's target. Bars that meet their target are green, those that miss
 * it red, those without a target grey, so the picture reads without the
 * numbers (which are printed at the bar ends all the same). Plain SVG 1.1,
 * no scripts or external resources. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define LEFT 230.0 /* room for the labels */
#define PLOT 560.0 /* width of the plot area */
#define RIGHT 80.0
#define ROW 20.0
#define HEADER 34.0

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

static bool charted(const bench_row *r)
{
    return r->largest && r->ceiling > 0 && isfinite(r->fraction);
}

/* One scale for the whole chart: at least up to 1.25, wide enough for the
 * largest bar or target (capped: a far outlier is clipped and labelled). */
static double chart_scale(const bench_device *devs, size_t count, size_t *out_rows)
{
    double xmax = 1.25;
    size_t rows = 0;
    for (size_t d = 0; d < count; d++) {
        for (size_t i = 0; i < devs[d].row_count; i++) {
            const bench_row *r = &devs[d].rows[i];
            if (!charted(r))
                continue;
            rows++;
            double v = fmax(r->fraction, r->target * 1.1);
            if (v > xmax)
                xmax = v;
        }
    }
    if (xmax > 3.0)
        xmax = 3.0;
    *out_rows = rows;
    return ceil(xmax * 4.0) / 4.0;
}

static void write_header(FILE *f, double width, double height, const char *title)
{
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n",
            width, height, width, height);
    fprintf(f, "<title>accel bench: fraction of each device's own ceiling</title>\n");
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", width,
            height);
    fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">accel bench: "
               "fraction of the device's own ceiling (measured in the same run)</text>\n");
    fprintf(f, "<text x=\"10\" y=\"40\" fill=\"#555\">");
    xml_text(f, title ? title : "");
    fprintf(f, " \xe2\x80\x94 green: meets its target (tick), red: misses it, grey: no "
               "target</text>\n");
}

/* Grid lines every 0.25 from top to bottom, the ceiling (1.0) darker. */
static void write_grid(FILE *f, double top, double bottom, double xmax)
{
    for (double g = 0.0; g <= xmax + 1e-9; g += 0.25) {
        double x = LEFT + PLOT * g / xmax;
        bool one = fabs(g - 1.0) < 1e-9;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"%s\"/>\n",
                x, top - 4, x, bottom + 2, one ? "#000" : "#ddd", one ? "1.5" : "1");
        fprintf(f,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\" "
                "font-size=\"10\">%.2g%s</text>\n",
                x, bottom + 14, g, one ? " = ceiling" : "");
    }
}

/* One row's label, bar, target tick and value at height y. */
static void write_bar(FILE *f, const bench_row *r, double y, double xmax)
{
    char label[96];
    snprintf(label, sizeof label, "%s %s (vs %s)", r->op, r->dtype, r->ceiling_name);
    const char *color = r->target <= 0             ? "#9e9e9e"
                        : r->fraction >= r->target ? "#2e7d32"
                                                   : "#c62828";
    double frac = r->fraction > xmax ? xmax : r->fraction;
    double w = PLOT * frac / xmax;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 6, y + 14);
    xml_text(f, label);
    fprintf(f, "</text>\n");
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", LEFT,
            y + 3, w, ROW - 6, color);
    if (r->target > 0) {
        double tx = LEFT + PLOT * (r->target > xmax ? xmax : r->target) / xmax;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                "stroke-width=\"2\"/>\n",
                tx, y + 1, tx, y + ROW - 1);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\" font-size=\"11\">%.3f%s</text>\n",
            LEFT + w + 4, y + 14, r->fraction, r->fraction > xmax ? " (clipped)" : "");
}

/* A device's title, grid and bars from height y; the height after them. */
static double write_device(FILE *f, const bench_device *dev, double y, double xmax)
{
    fprintf(f, "<text x=\"10\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">", y + 18);
    xml_text(f, dev->name);
    fprintf(f, "  ");
    xml_text(f, dev->model);
    fprintf(f, "</text>\n");
    y += HEADER;
    size_t n = 0;
    for (size_t i = 0; i < dev->row_count; i++)
        n += charted(&dev->rows[i]);
    double bottom = y + (double)n * ROW;
    write_grid(f, y, bottom, xmax);
    for (size_t i = 0; i < dev->row_count; i++) {
        if (!charted(&dev->rows[i]))
            continue;
        write_bar(f, &dev->rows[i], y, xmax);
        y += ROW;
    }
    return bottom + 30.0;
}

int bench_write_svg(const char *path, const bench_device *devs, size_t count, const char *title)
{
    size_t rows = 0;
    double xmax = chart_scale(devs, count, &rows);
    const double width = LEFT + PLOT + RIGHT;
    const double height = 60.0 + (double)count * (HEADER + 30.0) + (double)rows * ROW;
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    write_header(f, width, height, title);
    double y = 60.0;
    for (size_t d = 0; d < count; d++)
        y = write_device(f, &devs[d], y, xmax);
    fprintf(f, "</svg>\n");
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}
