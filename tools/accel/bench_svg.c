/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_svg.c — the chart of `accel bench --svg`: for each device, one
 * horizontal bar per op (at its largest size) whose length is the fraction
 * of the device's own ceiling reached, a line at 1 (the ceiling), and a tick
 * at the op's target. The bar is the figure the op's PASS or MISS is made
 * from (bench_targets.c: the median of the target rounds where the row had
 * rounds, with their spread as a whisker, else the sweep's), so its colour
 * is the verdict: green meets its target, red misses it, grey has no target.
 * The numbers are printed in a column right of the plot, where no line runs.
 * Where bench/peers.py's JSON is given (--peers), the faster peer's time on
 * the same op and size is a blue diamond, against this run's ceiling. Below
 * the bars, per device, the size sweep as a roofline view: achieved GB/s (and
 * TFLOP/s for GEMM) against size on log-log axes, each ceiling a dashed line,
 * series told apart by colour and by dash.
 *
 * The margins are sized from the text they hold: a label's width is
 * estimated from its length at a per-character width no narrow sans-serif
 * exceeds (DejaVu Sans, the widest common default, averages about 0.6 em),
 * so no label runs off the picture (tests/cli/svg_render_check.py renders it
 * with rsvg-convert and checks). Plain SVG 1.1, no scripts or external
 * resources. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_types.h"
#include "bench_write.h"

#define PLOT 560.0   /* width of the plot area */
#define LEGEND 170.0 /* room for a sweep's legend, right of its plot */
#define ROW 20.0
#define HEADER 34.0
#define TOP 92.0        /* the chart's title and legend lines */
#define SWEEP_H 220.0   /* height of a sweep's plot area */
#define SWEEP_PAD 70.0  /* a sweep's title above and axis labels below */
#define EM_REGULAR 0.62 /* estimated character width, in em */
#define EM_BOLD 0.70

/* Estimated width in pixels of UTF-8 text s at font size fs. */
static double text_width(const char *s, double fs, double em)
{
    size_t chars = 0;
    for (; *s; s++)
        chars += ((unsigned char)*s & 0xC0) != 0x80; /* count code points, not bytes */
    return (double)chars * fs * em;
}

/* Left margin: the widest bar label, right-aligned before the plot. */
static void bar_label(const bench_row *r, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s %s (vs %s)", r->op, r->dtype, r->ceiling_name);
}

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

/* The figure of a row's verdict (bench_check_targets): the median of its
 * target rounds where it had rounds, else the sweep's fraction. */
static double verdict_fraction(const bench_row *r)
{
    return r->rounds ? r->round_median : r->fraction;
}

static bool charted(const bench_row *r)
{
    return r->largest && r->ceiling > 0 && isfinite(verdict_fraction(r));
}

/* The faster peer of row r on device dev (bench/peers.py's rows of the same
 * device, op, dtype and size), or NULL. */
static const bench_peer *faster_peer(const bench_peers *peers, const bench_device *dev,
                                     const bench_row *r)
{
    const bench_peer *best = NULL;
    for (size_t i = 0; peers && i < peers->count; i++) {
        const bench_peer *p = &peers->rows[i];
        if (strcmp(p->device, dev->name) == 0 && strcmp(p->op, r->op) == 0 &&
            strcmp(p->dtype, r->dtype) == 0 && p->n == r->n && p->peer_ms > 0 &&
            (!best || p->peer_ms < best->peer_ms))
            best = p;
    }
    return best;
}

/* The peer's fraction of this run's ceiling: the same work in its time. */
static double peer_fraction(const bench_row *r, const bench_peer *p)
{
    return r->median_ms > 0 ? r->fraction * r->median_ms / p->peer_ms : NAN;
}

/* The number column of a bar: the verdict's figure, where it comes from,
 * the peer's. */
static void value_label(const bench_row *r, const bench_peer *p, double xmax, char *buf, size_t cap)
{
    double v = verdict_fraction(r);
    int n = r->rounds ? snprintf(buf, cap, "%.3f (median of %u rounds)", v, r->rounds)
                      : snprintf(buf, cap, "%.3f", v);
    if (n > 0 && (size_t)n < cap && v > xmax)
        n += snprintf(buf + n, cap - (size_t)n, " clipped");
    if (n > 0 && (size_t)n < cap && p && isfinite(peer_fraction(r, p)))
        snprintf(buf + n, cap - (size_t)n, "; %s %.3f", p->who, peer_fraction(r, p));
}

/* One scale for the whole chart: at least up to 1.25, wide enough for the
 * largest bar or target (capped: a far outlier is clipped and labelled). */
static double chart_scale(const bench_device *devs, size_t count, const bench_peers *peers,
                          size_t *out_rows)
{
    double xmax = 1.25;
    size_t rows = 0;
    for (size_t d = 0; d < count; d++) {
        for (size_t i = 0; i < devs[d].row_count; i++) {
            const bench_row *r = &devs[d].rows[i];
            if (!charted(r))
                continue;
            rows++;
            double v = fmax(verdict_fraction(r), r->target * 1.1);
            if (r->rounds)
                v = fmax(v, r->round_max);
            const bench_peer *p = faster_peer(peers, &devs[d], r);
            if (p && isfinite(peer_fraction(r, p)))
                v = fmax(v, peer_fraction(r, p));
            if (v > xmax)
                xmax = v;
        }
    }
    if (xmax > 3.0)
        xmax = 3.0;
    *out_rows = rows;
    return ceil(xmax * 4.0) / 4.0;
}

#define HEAD_WHAT                                                                                  \
    "fraction of the device's own ceiling (measured in the same run), and each op's rate "         \
    "against size; "
#define HEAD_LEGEND                                                                                \
    "bars: the figure of the verdict (median of the target rounds, whisker: their spread, else "   \
    "the sweep's); green meets its target (tick), red misses it, grey has none"
#define HEAD_LEGEND2                                                                               \
    "blue diamond: the faster peer (bench/peers.py, --peers), against the same ceiling; sweeps: "  \
    "log-log, dashed lines are the ceilings"

/* The bold title: accel's version and the devices measured. */
static void head_title(const bench_device *devs, size_t count, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "accel %s bench:", accel_version());
    for (size_t d = 0; d < count && n > 0 && (size_t)n < cap; d++)
        n += snprintf(buf + n, cap - (size_t)n, "%s %s (%s)", d ? "," : "", devs[d].name,
                      devs[d].model);
}

static void write_header(FILE *f, double width, double height, const char *head, const char *title)
{
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n",
            width, height, width, height);
    fprintf(f, "<title>");
    xml_text(f, head);
    fprintf(f, "</title>\n");
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", width,
            height);
    fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">");
    xml_text(f, head);
    fprintf(f, "</text>\n<text x=\"10\" y=\"40\" fill=\"#555\">%s", HEAD_WHAT);
    xml_text(f, title ? title : "");
    fprintf(f,
            "</text>\n<text x=\"10\" y=\"56\" fill=\"#555\">%s</text>\n"
            "<text x=\"10\" y=\"72\" fill=\"#555\">%s</text>\n",
            HEAD_LEGEND, HEAD_LEGEND2);
}

/* g, a multiple of 0.25, as "0", "0.25", "0.5", "1.25": every digit it has,
 * none it lacks (%.2g would print 1.25 as 1.2). */
static void tick_label(double g, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.2f", g);
    char *end = buf + strlen(buf);
    while (end > buf && end[-1] == '0')
        *--end = '\0';
    if (end > buf && end[-1] == '.')
        *--end = '\0';
}

/* Grid lines every 0.25 from top to bottom, the ceiling (1.0) darker;
 * labels every 0.25, or every 0.5 or 1 where 0.25 is too narrow for the
 * widest ("1 = ceiling" beside "1.25") with 6 px between them. */
static void write_grid(FILE *f, double left, double top, double bottom, double xmax)
{
    double need =
        (text_width("1 = ceiling", 10, EM_REGULAR) + text_width("0.25", 10, EM_REGULAR)) / 2 + 6;
    int every = PLOT * 0.25 / xmax >= need ? 1 : PLOT * 0.5 / xmax >= need ? 2 : 4;
    for (int i = 0; i * 0.25 <= xmax + 1e-9; i++) {
        double g = i * 0.25;
        double x = left + PLOT * g / xmax;
        char tick[16];
        tick_label(g, tick, sizeof tick);
        bool one = fabs(g - 1.0) < 1e-9;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"%s\"/>\n",
                x, top - 4, x, bottom + 2, one ? "#000" : "#ddd", one ? "1.5" : "1");
        if (i % every)
            continue;
        fprintf(f,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\" "
                "font-size=\"10\">%s%s</text>\n",
                x, bottom + 14, tick, one ? " = ceiling" : "");
    }
}

/* The bar's colour: the verdict of its figure against its target. */
static const char *bar_color(const bench_row *r)
{
    if (r->target <= 0)
        return "#9e9e9e";
    return verdict_fraction(r) >= r->target ? "#2e7d32" : "#c62828";
}

static double bar_x(double left, double v, double xmax)
{
    return left + PLOT * (v > xmax ? xmax : v < 0 ? 0 : v) / xmax;
}

/* One row's label, bar (with the verdict as its tooltip), rounds' whisker,
 * target tick, peer and value at height y. */
static void write_bar(FILE *f, const bench_device *dev, const bench_row *r,
                      const bench_peers *peers, double left, double y, double xmax)
{
    char label[96], value[160];
    bar_label(r, label, sizeof label);
    const bench_peer *p = faster_peer(peers, dev, r);
    value_label(r, p, xmax, value, sizeof value);
    double v = verdict_fraction(r), mid = y + ROW / 2;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 6, y + 14);
    xml_text(f, label);
    fprintf(f, "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
            left, y + 3, bar_x(left, v, xmax) - left, ROW - 6, bar_color(r));
    fprintf(f, "<title>%s %s / %s: %.3f%s</title></rect>\n", r->op, r->dtype, r->ceiling_name, v,
            r->target <= 0   ? ""
            : v >= r->target ? " PASS"
                             : " MISS");
    if (r->rounds)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
                "stroke-width=\"1\"/>\n",
                bar_x(left, r->round_min, xmax), mid, bar_x(left, r->round_max, xmax), mid);
    if (r->target > 0) {
        double tx = bar_x(left, r->target, xmax);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
                "stroke-width=\"2\"/>\n",
                tx, y + 1, tx, y + ROW - 1);
    }
    if (p && isfinite(peer_fraction(r, p))) {
        double px = bar_x(left, peer_fraction(r, p), xmax);
        fprintf(f,
                "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#1565c0\">"
                "<title>%s</title></polygon>\n",
                px, mid - 6, px + 5, mid, px, mid + 6, px - 5, mid, p->who);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\" font-size=\"11\">", left + PLOT + 10,
            y + 14);
    xml_text(f, value);
    fprintf(f, "</text>\n");
}

/* A device's title, grid and bars from height y; the height after them. */
static double write_device(FILE *f, const bench_device *dev, const bench_peers *peers, double left,
                           double y, double xmax)
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
    write_grid(f, left, y, bottom, xmax);
    for (size_t i = 0; i < dev->row_count; i++) {
        if (!charted(&dev->rows[i]))
            continue;
        write_bar(f, dev, &dev->rows[i], peers, left, y, xmax);
        y += ROW;
    }
    return bottom + 30.0;
}

/* ------------------------------------------------------ size sweeps */

/* Series colours, cycled. */
static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                      "#bcbd22", "#17becf", "#393b79", "#ad494a"};
#define PALETTE (sizeof palette / sizeof palette[0])
/* Series dashes, cycled with the colours: 5 is prime to 12, so series k and
 * k + 12 differ in dash, and 60 series in both together. */
static const char *const dashes[] = {"none", "7,3", "2,2", "9,3,2,3", "4,4"};
#define DASHES (sizeof dashes / sizeof dashes[0])

/* Rows of one sweep: those in `unit` with a size (transfers are one size and
 * are left to the bars). */
static bool in_sweep(const bench_row *r, const char *unit)
{
    return r->unit && strcmp(r->unit, unit) == 0 && strcmp(r->dtype, "bytes") != 0 && r->rate > 0 &&
           isfinite(r->rate) && r->n > 0;
}

static size_t sweep_rows(const bench_device *dev, const char *unit)
{
    size_t n = 0;
    for (size_t i = 0; i < dev->row_count; i++)
        n += in_sweep(&dev->rows[i], unit);
    return n;
}

/* Whether row o belongs to the series (op, dtype) of row r in the sweep. */
static bool same_series(const bench_row *o, const bench_row *r, const char *unit)
{
    return in_sweep(o, unit) && strcmp(o->op, r->op) == 0 && strcmp(o->dtype, r->dtype) == 0;
}

/* Whether row i is the first of its series (op, dtype) among the sweep's rows. */
static bool series_first(const bench_device *dev, size_t i, const char *unit)
{
    for (size_t j = 0; j < i; j++)
        if (same_series(&dev->rows[j], &dev->rows[i], unit))
            return false;
    return true;
}

/* A ceiling line: its value and label. */
typedef struct sweep_line {
    double value, y;
    char label[96];
} sweep_line;

#define MAX_LINES 16

/* The sweep's ceiling lines: one per ceiling name (GB/s) or per dtype (TFLOP/s). */
static size_t sweep_lines(const bench_device *dev, const char *unit, bool per_dtype,
                          sweep_line *out)
{
    size_t n = 0;
    for (size_t i = 0; i < dev->row_count; i++) {
        const bench_row *r = &dev->rows[i];
        if (!in_sweep(r, unit) || !(r->ceiling > 0) || !r->ceiling_name)
            continue;
        char label[96];
        if (per_dtype)
            snprintf(label, sizeof label, "%s %s %.4g %s", r->dtype, r->ceiling_name, r->ceiling,
                     unit);
        else
            snprintf(label, sizeof label, "%s %.4g %s", r->ceiling_name, r->ceiling, unit);
        size_t k = 0;
        while (k < n && strcmp(out[k].label, label) != 0)
            k++;
        if (k == n && n < MAX_LINES) {
            out[n].value = r->ceiling;
            snprintf(out[n].label, sizeof out[n].label, "%s", label);
            n++;
        }
    }
    return n;
}

/* "2^20" for a power of two, else the number. */
static void size_label(uint64_t n, char *buf, size_t cap)
{
    if (n && (n & (n - 1)) == 0)
        snprintf(buf, cap, "2^%d", __builtin_ctzll(n));
    else
        snprintf(buf, cap, "%llu", (unsigned long long)n);
}

typedef struct axes {
    double left, top;
    double lx0, lx1, ly0, ly1; /* log10 ranges */
} axes;

static double ax_x(const axes *a, double v)
{
    return a->left + PLOT * (log10(v) - a->lx0) / (a->lx1 - a->lx0);
}

static double ax_y(const axes *a, double v)
{
    return a->top + SWEEP_H * (1.0 - (log10(v) - a->ly0) / (a->ly1 - a->ly0));
}

/* The axes of a sweep at (left, y): log ranges over the sizes, the rates
 * and the ceiling lines, a quarter decade of margin on x. */
static axes sweep_axes(const bench_device *dev, const char *unit, const sweep_line *lines,
                       size_t nl, double left, double y)
{
    double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
    for (size_t i = 0; i < dev->row_count; i++) {
        const bench_row *r = &dev->rows[i];
        if (!in_sweep(r, unit))
            continue;
        xmin = fmin(xmin, (double)r->n);
        xmax = fmax(xmax, (double)r->n);
        ymin = fmin(ymin, r->rate);
        ymax = fmax(ymax, r->rate);
    }
    for (size_t k = 0; k < nl; k++) {
        ymin = fmin(ymin, lines[k].value);
        ymax = fmax(ymax, lines[k].value);
    }
    axes a = {left, y + 30, 0, 0, 0, 0};
    a.lx0 = log10(xmin) - 0.25;
    a.lx1 = log10(xmax) + 0.25;
    a.ly0 = floor(log10(ymin) - 0.1);
    a.ly1 = ceil(log10(ymax) + 0.1);
    return a;
}

/* The sweep's title, frame, y decades and x ticks (one per size measured). */
static void write_sweep_frame(FILE *f, const bench_device *dev, const char *unit, bool per_dtype,
                              const char *what, const axes *a)
{
    double left = a->left, bottom = a->top + SWEEP_H, right = left + PLOT;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">", left,
            a->top - 12);
    xml_text(f, dev->name);
    fprintf(f, ": %s (%s) against size, log-log</text>\n", what, unit);
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#999\"/>\n",
            left, a->top, PLOT, SWEEP_H);
    for (double e = a->ly0; e <= a->ly1 + 1e-9; e += 1.0) {
        double yy = ax_y(a, pow(10.0, e));
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\" "
                "font-size=\"10\">%g</text>\n",
                left, yy, right, yy, left - 4, yy + 3, pow(10.0, e));
    }
    fprintf(f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\" font-size=\"10\">"
            "%s</text>\n",
            left - 4, a->top - 8, unit);
    for (size_t i = 0; i < dev->row_count; i++) {
        const bench_row *r = &dev->rows[i];
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = in_sweep(&dev->rows[j], unit) && dev->rows[j].n == r->n;
        if (!in_sweep(r, unit) || seen)
            continue;
        char lab[32];
        size_label(r->n, lab, sizeof lab);
        double xx = ax_x(a, (double)r->n);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\" "
                "font-size=\"10\">%s</text>\n",
                xx, a->top, xx, bottom, xx, bottom + 14, lab);
    }
    fprintf(f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\" font-size=\"10\">"
            "%s</text>\n",
            left + PLOT / 2, bottom + 30, per_dtype ? "n (n x n x n)" : "elements");
}

/* Whether a label with baseline ly is less than 11 px (a 10 px line) from
 * one of the n placed before it. */
static bool label_clash(const double *placed, size_t n, double ly)
{
    for (size_t j = 0; j < n; j++)
        if (fabs(placed[j] - ly) < 11)
            return true;
    return false;
}

/* A ceiling label's baseline: just above its line, else the nearest free
 * place above it (inside the plot), else below it. */
static double place_label(const double *placed, size_t n, double want, const axes *a)
{
    double ly = want;
    while (label_clash(placed, n, ly) && ly - 11 >= a->top + 10)
        ly -= 11;
    if (!label_clash(placed, n, ly) && ly >= a->top + 10)
        return ly;
    for (ly = want; label_clash(placed, n, ly) || ly < a->top + 10;)
        ly += 11;
    return ly;
}

/* Ceilings: dashed lines, labels inside the plot, never on one another. */
static void write_ceilings(FILE *f, sweep_line *lines, size_t nl, bool per_dtype, const axes *a)
{
    double left = a->left, right = left + PLOT, placed[MAX_LINES];
    for (size_t k = 0; k < nl; k++)
        lines[k].y = ax_y(a, lines[k].value);
    for (size_t k = 0; k < nl; k++) {
        const char *col = per_dtype ? palette[k % PALETTE] : "#000";
        double ly = place_label(placed, k, lines[k].y - 3, a);
        placed[k] = ly;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-dasharray=\"6,4\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\" font-size=\"10\" "
                "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
                left, lines[k].y, right, lines[k].y, col, right - 3, ly, col);
        xml_text(f, lines[k].label);
        fprintf(f, "</text>\n");
    }
}

/* Series: a polyline with a dot per size, the legend on the right. */
static void write_series(FILE *f, const bench_device *dev, const char *unit, const axes *a)
{
    double right = a->left + PLOT;
    size_t series = 0;
    for (size_t i = 0; i < dev->row_count; i++) {
        const bench_row *r = &dev->rows[i];
        if (!in_sweep(r, unit) || !series_first(dev, i, unit))
            continue;
        const char *col = palette[series % PALETTE], *dash = dashes[series % DASHES];
        fprintf(f,
                "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                "stroke-dasharray=\"%s\" points=\"",
                col, dash);
        for (size_t j = i; j < dev->row_count; j++)
            if (same_series(&dev->rows[j], r, unit))
                fprintf(f, "%.1f,%.1f ", ax_x(a, (double)dev->rows[j].n),
                        ax_y(a, dev->rows[j].rate));
        fprintf(f, "\"/>\n");
        for (size_t j = i; j < dev->row_count; j++)
            if (same_series(&dev->rows[j], r, unit))
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                        ax_x(a, (double)dev->rows[j].n), ax_y(a, dev->rows[j].rate), col);
        double ly = a->top + 8 + 13.0 * (double)series;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"1.5\" stroke-dasharray=\"%s\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">",
                right + 8, ly - 3, right + 30, ly - 3, col, dash, right + 34, ly);
        xml_text(f, r->op);
        fprintf(f, " %s</text>\n", r->dtype);
        series++;
    }
}

/* The number of series (op, dtype) in the sweep of `unit`. */
static size_t sweep_series(const bench_device *dev, const char *unit)
{
    size_t n = 0;
    for (size_t i = 0; i < dev->row_count; i++)
        n += in_sweep(&dev->rows[i], unit) && series_first(dev, i, unit);
    return n;
}

/* A sweep's height: its plot, or its legend (13 px a series) where longer. */
static double sweep_height(const bench_device *dev, const char *unit)
{
    return fmax(SWEEP_H, 13.0 * (double)sweep_series(dev, unit) + 8) + SWEEP_PAD;
}

/* One log-log sweep of the rows in `unit`: series, ceiling lines, legend. */
static double write_sweep(FILE *f, const bench_device *dev, const char *unit, bool per_dtype,
                          const char *what, double left, double y)
{
    sweep_line lines[MAX_LINES];
    size_t nl = sweep_lines(dev, unit, per_dtype, lines);
    axes a = sweep_axes(dev, unit, lines, nl, left, y);
    write_sweep_frame(f, dev, unit, per_dtype, what, &a);
    write_series(f, dev, unit, &a);
    write_ceilings(f, lines, nl, per_dtype, &a); /* on top: labels stay readable */
    return y + sweep_height(dev, unit);
}

/* Height of a device's sweeps. */
static double sweeps_height(const bench_device *dev)
{
    double h = 0;
    if (sweep_rows(dev, "GB/s"))
        h += sweep_height(dev, "GB/s");
    if (sweep_rows(dev, "TFLOP/s"))
        h += sweep_height(dev, "TFLOP/s");
    return h;
}

static double write_sweeps(FILE *f, const bench_device *dev, double left, double y)
{
    if (sweep_rows(dev, "GB/s"))
        y = write_sweep(f, dev, "GB/s", false, "memory-bound ops", left, y);
    if (sweep_rows(dev, "TFLOP/s"))
        y = write_sweep(f, dev, "TFLOP/s", true, "GEMM", left, y);
    return y;
}

/* ------------------------------------------------------------- chart */

/* The widest bar label and value column of the chart, in pixels. */
static void bar_text_widths(const bench_device *devs, size_t count, const bench_peers *peers,
                            double xmax, double *label_w, double *value_w)
{
    for (size_t d = 0; d < count; d++) {
        for (size_t i = 0; i < devs[d].row_count; i++) {
            const bench_row *r = &devs[d].rows[i];
            if (!charted(r))
                continue;
            char text[160];
            bar_label(r, text, sizeof text);
            *label_w = fmax(*label_w, text_width(text, 12, EM_REGULAR));
            value_label(r, faster_peer(peers, &devs[d], r), xmax, text, sizeof text);
            *value_w = fmax(*value_w, text_width(text, 11, EM_REGULAR));
        }
    }
}

/* The width the chart's title lines and device titles need. */
static double head_width(const bench_device *devs, size_t count, const char *head,
                         const char *title)
{
    double w = text_width(head, 15, EM_BOLD);
    for (size_t d = 0; d < count; d++) {
        char line[256];
        snprintf(line, sizeof line, "%s  %s", devs[d].name, devs[d].model);
        w = fmax(w, text_width(line, 14, EM_BOLD));
        snprintf(line, sizeof line, "%s: memory-bound ops (TFLOP/s) against size, log-log",
                 devs[d].name);
        w = fmax(w, text_width(line, 13, EM_BOLD));
    }
    char what[512];
    snprintf(what, sizeof what, "%s%s", HEAD_WHAT, title ? title : "");
    w = fmax(w, text_width(what, 12, EM_REGULAR));
    w = fmax(w, text_width(HEAD_LEGEND, 12, EM_REGULAR));
    w = fmax(w, text_width(HEAD_LEGEND2, 12, EM_REGULAR));
    return w + 20;
}

int bench_write_svg(const char *path, const bench_device *devs, size_t count, const char *title,
                    const bench_peers *peers)
{
    size_t rows = 0;
    double xmax = chart_scale(devs, count, peers, &rows);
    /* Margins from the text they hold (see the file comment). */
    double label_w = 104.0, value_w = 0, sweeps = 0;
    bar_text_widths(devs, count, peers, xmax, &label_w, &value_w);
    const double left = label_w + 16;
    for (size_t d = 0; d < count; d++)
        sweeps += sweeps_height(&devs[d]);
    char head[512];
    head_title(devs, count, head, sizeof head);
    const double right = fmax(value_w + 20, LEGEND);
    const double width = fmax(left + PLOT + right, head_width(devs, count, head, title));
    const double height = TOP + (double)count * (HEADER + 30.0) + (double)rows * ROW + sweeps;
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    write_header(f, width, height, head, title);
    double y = TOP;
    for (size_t d = 0; d < count; d++)
        y = write_device(f, &devs[d], peers, left, y, xmax);
    for (size_t d = 0; d < count; d++)
        y = write_sweeps(f, &devs[d], left, y);
    fprintf(f, "</svg>\n");
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}
