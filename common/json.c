/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* json.c — JSON strings and numbers that stay valid for any input (json.h). */
#include "json.h"

#include <math.h>
#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at s, or, when it is ill-formed,
 * the negated length of its maximal subpart (at least 1 byte), so that the
 * caller replaces exactly that many bytes with one U+FFFD. The bounds of the
 * second byte follow Unicode 15 table 3-7 (well-formed UTF-8 byte sequences). */
static int utf8_sequence(const unsigned char *s)
{
    unsigned char c = s[0];
    int len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80; /* no overlong forms */
        hi = c == 0xED ? 0x9F : 0xBF; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        lo = c == 0xF0 ? 0x90 : 0x80; /* no overlong forms */
        hi = c == 0xF4 ? 0x8F : 0xBF; /* nothing above U+10FFFF */
    } else {
        return -1; /* a continuation byte, C0, C1 or F5..FF */
    }
    for (int i = 1; i < len; i++) {
        unsigned char b = s[i]; /* a NUL ends the string here: b is then out of range */
        if (b < lo || b > hi)
            return -i;
        lo = 0x80, hi = 0xBF;
    }
    return len;
}

static void write_control(FILE *f, unsigned char c)
{
    static const char short_forms[] = "btn\0fr"; /* \b \t \n, -, \f \r for 8..13 */
    if (c >= 8 && c <= 13 && short_forms[c - 8])
        fprintf(f, "\\%c", short_forms[c - 8]);
    else
        fprintf(f, "\\u%04x", c);
}

void accel__json_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    fputc('"', f);
    while (*s) {
        int n = utf8_sequence(s);
        if (n < 0) {
            fputs("\\ufffd", f);
            s += -n;
        } else if (*s == '"' || *s == '\\') {
            fputc('\\', f);
            fputc(*s++, f);
        } else if (*s < 0x20) {
            write_control(f, *s++);
        } else {
            fwrite(s, 1, (size_t)n, f);
            s += n;
        }
    }
    fputc('"', f);
}

void accel__json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}
