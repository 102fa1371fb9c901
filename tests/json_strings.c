/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* json_strings — writes byte strings through the shared JSON writer
 * (common/json.c) for tests/cli/json_check.py, which parses the output with
 * Python's json module and compares every string with Python's own
 * bytes.decode("utf-8", "replace") of the same bytes (an independent
 * reference). Fixed cases first (control bytes, quotes, every kind of
 * ill-formed UTF-8), then COUNT random strings from SEED, biased to bytes
 * >= 0x80 so that ill-formed sequences are common.
 *
 * usage: json_strings SEED COUNT > out.json */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static const char *const fixed[] = {
    "plain ascii",
    "\x01\x02\x07\x08\x09\x0a\x0b\x0c\x0d\x1b\x1f \x7f",
    "quote \" backslash \\ slash /",
    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xe2\x80\xa8", /* valid 2, 3, 4 bytes */
    "\x80 stray continuation \xbf",
    "\xc0\xaf overlong slash \xe0\x80\xaf \xf0\x80\x80\xaf",
    "\xc1\xbf \xc2", /* C1 never valid; C2 truncated at the end */
    "\xed\xa0\x80 surrogate \xed\xbf\xbf",
    "\xf4\x90\x80\x80 above U+10FFFF \xf5\x80 \xff\xfe",
    "\xe2\x82 truncated 3 \xf0\x9f\x98 truncated 4 \xf1\x80",
    "/tmp/\xe9t\xe9/trace.json", /* a Latin-1 path */
};

static uint64_t next(uint64_t *s)
{
    uint64_t x = (*s += 0x9e3779b97f4a7c15u);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static void write_case(const char *s, int first)
{
    printf("%s\n {\"hex\": \"", first ? "" : ",");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        printf("%02x", *p);
    printf("\", \"s\": ");
    accel__json_string(stdout, s);
    printf("}");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: json_strings SEED COUNT\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[1], NULL, 10);
    long count = strtol(argv[2], NULL, 10);
    printf("{\"numbers\": [");
    const double nums[] = {1.5, -0.0, NAN, INFINITY, -INFINITY, 1e300};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        printf(i ? ", " : "");
        accel__json_number(stdout, nums[i]);
    }
    printf("],\n\"null_string\": ");
    accel__json_string(stdout, NULL);
    printf(",\n\"cases\": [");
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        write_case(fixed[i], i == 0);
    char buf[64];
    for (long c = 0; c < count; c++) {
        size_t len = next(&seed) % (sizeof buf - 1);
        for (size_t i = 0; i < len; i++) {
            uint64_t r = next(&seed);
            /* Half ASCII (controls included), half 0x80..0xFF; never NUL. */
            unsigned char b = (unsigned char)(r & 1 ? 0x80 | (r >> 8) : 1 + (r >> 8) % 127);
            buf[i] = (char)b;
        }
        buf[len] = '\0';
        write_case(buf, 0);
    }
    printf("\n]}\n");
    return ferror(stdout) ? 1 : 0;
}
