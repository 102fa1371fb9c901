/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/complex.c — the complex helper functions of the array
 * kernels (complex64 and complex128 compute), emitted by codegen.c only
 * into kernels that compute on or store a complex dtype, so real kernels'
 * source is unchanged. Written once as a macro over the float type, in the
 * C subset NVRTC, the CPU twin (tcc, cc) and OpenCL C (backends/opencl)
 * all compile: a complex value is a struct of two floats or doubles (the
 * layout of the interleaved elements), passed and returned by value.
 *
 * The algorithms, each from its source (no library code copied):
 *  - special values: C11 Annex G (G.6) and the Array API 2023.12 special
 *    cases, which list the same values but for two (tanh, expm1 below,
 *    where accel gives the Array API's); the sign of a zero or infinity
 *    the standards leave unspecified is whatever the formula gives;
 *  - divide: Smith's algorithm (R. L. Smith, "Algorithm 116: Complex
 *    division", CACM 5(8), 1962), as NumPy's complex divide, with NumPy's
 *    answer for a zero divisor (each part divided by zero);
 *  - multiply: the textbook (ac - bd) + (ad + bc)i (NumPy's; no Annex G
 *    recovery of infinities from NaN);
 *  - acos and asinh: W. Kahan, "Branch cuts for complex elementary
 *    functions, or much ado about nothing's sign bit" (1987): acos and asin
 *    from csqrt(1 - z) and csqrt(1 + z), accurate near the branch points;
 *    asinh(z) is -i times Kahan's asin(iz) for finite z below BIG and
 *    log(2|z|) + i arg z above; acosh(z) is +-i acos(z), the sign that
 *    makes its real part >= 0 (Annex G's relation); above BIG acos is
 *    atan2(|y|, x) - i sign(y) log(2|z|) (no product of two roots);
 *  - atanh: 0.25 log1p(4|x| / ((1 - |x|)^2 + y^2)) + 0.5i atan2(2|y|,
 *    (1 - |x|)(1 + |x|) - y^2) (Kahan's paper), x / |z|^2 + i pi/2 above BIG;
 *  - tanh: Kahan's tan(y) form (same paper), saturated above TB; at x =
 *    +-inf the imaginary part is a zero of y's sign (the Array API's "1 +
 *    0j" for y > 0, where Annex G has 0 sin(2y));
 *  - expm1(+-0 + 0i) is +0 + 0i (the Array API's value);
 *  - sqrt: the half-angle form with |z| by hypot, scaled by 1/4 above BIG
 *    and by UP (its root RUP back) below TINY, so subnormal parts keep
 *    their digits (the unscaled form gave 0 + inf i for 5e-324i);
 *  - log: log(hypot) and, for 0.7 < |z| < 1.4, 0.5 log1p((a-1)(a+1) + b^2)
 *    (a the larger part), so log|z| keeps its digits near the unit circle;
 *    a subnormal |z| scaled up by UP, one past the type's max halved;
 *  - exp, sinh, cosh: e^(x/2) twice above LMAX (no overflow of e^x alone);
 *  - expm1: expm1(x) cos y - 2 sin^2(y/2) + i e^x sin y;
 *  - log1p: 0.5 log1p(x (2 + x) + y^2) + i atan2(y, 1 + x) below 1/2;
 *  - sin, tan, asin, atan: -i f(iz), cos: cosh(iz), of the hyperbolic
 *    ones (Annex G.5's definitions, so their special values follow);
 *  - pow: exp(b log a), and 1 for b = 0 (the Array API's rule and NumPy's);
 *    complex64 computes it in complex128 and rounds once;
 *  - sign: z / |z|, 0 for 0, NaN + NaN i for a NaN part (the Array API);
 *    with one infinite part that part's sign and a zero (NumPy's), with two
 *    NaN + NaN i (NumPy's); tiny parts scaled up by UP, huge ones by 1/4
 *    first (|z| of 3e38 + 3e38i overflows float).
 * Parameters: LMAX (e^LMAX is finite), BIG (BIG^2 is finite), TB (tanh is
 * 1 in the type above it), TINY (below it a part is scaled by UP = 2^60
 * (float) or 2^600 (double) before a square or a hypot; RUP = 1/sqrt(UP)). The C twin includes no
 * header, so infinity is the constant expression ACCEL_CINF. */
#include "arrays/arrays_internal.h"

/* In parts below the 4095 characters of a string literal C99 promises. */
static const char part0[] =
    "typedef struct accel_cxf { float re, im; } accel_cxf;\n"
    "typedef struct accel_cx { double re, im; } accel_cx;\n"
    "#define ACCEL_CINF (1e300 * 1e300)\n"
    "#define ACCEL_CH(T, S, C, LMAX, BIG, TB, TINY, UP, RUP) \\\n"
    "ACCEL_FN C accel_cmk##S(T re, T im) { C z; z.re = re; z.im = im; return z; } \\\n"
    "ACCEL_FN int accel_cinf##S(T v) { return v == v && v - v != v - v; } \\\n"
    "ACCEL_FN int accel_cfin##S(T v) { return v - v == v - v; } \\\n"
    "ACCEL_FN C accel_cadd##S(C a, C b) { return accel_cmk##S(a.re + b.re, a.im + b.im); } \\\n"
    "ACCEL_FN C accel_csub##S(C a, C b) { return accel_cmk##S(a.re - b.re, a.im - b.im); } \\\n"
    "ACCEL_FN C accel_cmul##S(C a, C b) { \\\n"
    "  return accel_cmk##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); } \\\n"
    "ACCEL_FN C accel_cneg##S(C a) { return accel_cmk##S(-a.re, -a.im); } \\\n"
    "ACCEL_FN C accel_cconj##S(C a) { return accel_cmk##S(a.re, -a.im); } \\\n"
    "ACCEL_FN C accel_crint##S(C a) { return accel_cmk##S(rint##S(a.re), rint##S(a.im)); } \\\n"
    "ACCEL_FN int accel_ceq##S(C a, C b) { return a.re == b.re && a.im == b.im; } \\\n"
    "ACCEL_FN int accel_cisnan##S(C a) { return a.re != a.re || a.im != a.im; } \\\n"
    "ACCEL_FN int accel_cisinf##S(C a) { return accel_cinf##S(a.re) || accel_cinf##S(a.im); } \\\n"
    "ACCEL_FN int accel_cisfinite##S(C a) { return accel_cfin##S(a.re) && accel_cfin##S(a.im); } "
    "\\\n"
    "ACCEL_FN C accel_cdiv##S(C a, C b) { \\\n"
    "  T ar = fabs##S(b.re), ai = fabs##S(b.im), r, s; \\\n"
    "  if (ar >= ai) { \\\n"
    "    if (ar == 0 && ai == 0) return accel_cmk##S(a.re / ar, a.im / ai); \\\n"
    "    r = b.im / b.re; s = (T)1 / (b.re + b.im * r); \\\n"
    "    return accel_cmk##S((a.re + a.im * r) * s, (a.im - a.re * r) * s); } \\\n"
    "  r = b.re / b.im; s = (T)1 / (b.im + b.re * r); \\\n"
    "  return accel_cmk##S((a.re * r + a.im) * s, (a.im * r - a.re) * s); } \\\n"
    "ACCEL_FN T accel_cabs##S(C a) { \\\n"
    "  return accel_cinf##S(a.re) || accel_cinf##S(a.im) ? (T)ACCEL_CINF : hypot##S(a.re, a.im); } "
    "\\\n"
    "ACCEL_FN C accel_csign##S(C a) { \\\n"
    "  if (a.re != a.re || a.im != a.im) return accel_cmk##S(a.re + a.im, a.re + a.im); \\\n"
    "  if (accel_cinf##S(a.re) || accel_cinf##S(a.im)) { \\\n"
    "    if (accel_cinf##S(a.re) && accel_cinf##S(a.im)) return accel_cmk##S(a.re - a.re, a.re - "
    "a.re); \\\n"
    "    return accel_cmk##S(copysign##S(accel_cinf##S(a.re) ? (T)1 : (T)0, a.re), \\\n"
    "                        copysign##S(accel_cinf##S(a.im) ? (T)1 : (T)0, a.im)); } \\\n"
    "  if (a.re == 0 && a.im == 0) return accel_cmk##S((T)0, (T)0); \\\n"
    "  if (fabs##S(a.re) < (T)TINY && fabs##S(a.im) < (T)TINY) { a.re *= (T)UP; a.im *= (T)UP; } "
    "\\\n"
    "  else if (fabs##S(a.re) > (T)BIG || fabs##S(a.im) > (T)BIG) { a.re *= (T)0.25; a.im *= "
    "(T)0.25; } \\\n"
    "  T m = accel_cabs##S(a); return accel_cmk##S(a.re / m, a.im / m); } \\\n"
    "ACCEL_FN C accel_cexp##S(C z) { \\\n"
    "  T x = z.re, y = z.im, e; \\\n"
    "  if (y == 0) return accel_cmk##S(exp##S(x), y); \\\n"
    "  if (accel_cinf##S(x) && !accel_cfin##S(y)) \\\n"
    "    return x < 0 ? accel_cmk##S((T)0, copysign##S((T)0, y)) : accel_cmk##S(x, y - y); \\\n"
    "  if (x > (T)LMAX) { e = exp##S(x * (T)0.5); \\\n"
    "    return accel_cmk##S(e * cos##S(y) * e, e * sin##S(y) * e); } \\\n"
    "  e = exp##S(x); return accel_cmk##S(e * cos##S(y), e * sin##S(y)); } \\\n"
    "ACCEL_FN C accel_cexpm1##S(C z) { \\\n"
    "  T x = z.re, y = z.im, h; C e; \\\n"
    "  if (y == 0) return accel_cmk##S(x == 0 ? (T)0 : expm1##S(x), y); \\\n"
    "  if (x == x && x < 0 && accel_cinf##S(x)) \\\n"
    "    return accel_cmk##S((T)-1, accel_cfin##S(y) ? (T)0 * sin##S(y) : copysign##S((T)0, y)); "
    "\\\n"
    "  if (x != x || !accel_cfin##S(y) || x > (T)1) { \\\n"
    "    e = accel_cexp##S(z); return accel_cmk##S(e.re - (T)1, e.im); } \\\n"
    "  h = sin##S(y * (T)0.5); \\\n"
    "  return accel_cmk##S(expm1##S(x) * cos##S(y) - (T)2 * h * h, exp##S(x) * sin##S(y)); } \\\n";
static const char part1[] =
    "ACCEL_FN C accel_clog##S(C z) { \\\n"
    "  T ax = fabs##S(z.re), ay = fabs##S(z.im), m = accel_cabs##S(z), re; \\\n"
    "  if (ax < ay) { re = ax; ax = ay; ay = re; } \\\n"
    "  if (m > (T)0.7 && m < (T)1.4) \\\n"
    "    re = (T)0.5 * log1p##S((ax - (T)1) * (ax + (T)1) + ay * ay); \\\n"
    "  else if (m > 0 && m < (T)TINY) /* subnormal |z|: scaled up first */ \\\n"
    "    re = log##S(hypot##S(ax * (T)UP, ay * (T)UP)) - log##S((T)UP); \\\n"
    "  else if (accel_cinf##S(m) && accel_cfin##S(ax)) /* |z| past the type's max */ \\\n"
    "    re = log##S(hypot##S(ax * (T)0.5, ay * (T)0.5)) + (T)0.693147180559945309417232121458; "
    "\\\n"
    "  else re = log##S(m); \\\n"
    "  return accel_cmk##S(re, atan2##S(z.im, z.re)); } \\\n"
    "ACCEL_FN C accel_clog1p##S(C z) { \\\n"
    "  T x = z.re, y = z.im; \\\n"
    "  if (fabs##S(x) < (T)0.5 && fabs##S(y) < (T)0.5) \\\n"
    "    return accel_cmk##S((T)0.5 * log1p##S(x * ((T)2 + x) + y * y), atan2##S(y, (T)1 + x)); "
    "\\\n"
    "  return accel_clog##S(accel_cmk##S((T)1 + x, y)); } \\\n"
    "ACCEL_FN C accel_clog2##S(C z) { \\\n"
    "  C l = accel_clog##S(z); const T k = (T)1.44269504088896340735992468100189214; \\\n"
    "  return accel_cmk##S(l.re * k, l.im * k); } \\\n"
    "ACCEL_FN C accel_clog10##S(C z) { \\\n"
    "  C l = accel_clog##S(z); const T k = (T)0.434294481903251827651128918916605082; \\\n"
    "  return accel_cmk##S(l.re * k, l.im * k); } \\\n"
    "ACCEL_FN C accel_csqrt##S(C z) { \\\n"
    "  T x = z.re, y = z.im, ax, ay, s = (T)1, t, u; \\\n"
    "  if (accel_cinf##S(y)) return accel_cmk##S((T)ACCEL_CINF, y); \\\n"
    "  if (x != x) return accel_cmk##S(x, x + y); \\\n"
    "  if (accel_cinf##S(x)) return x > 0 ? accel_cmk##S(x, y != y ? y : copysign##S((T)0, y)) \\\n"
    "                                      : accel_cmk##S(y != y ? y : (T)0, copysign##S(-x, y)); "
    "\\\n"
    "  if (y != y) return accel_cmk##S(y, y); \\\n"
    "  if (x == 0 && y == 0) return accel_cmk##S((T)0, y); \\\n"
    "  ax = fabs##S(x); ay = fabs##S(y); \\\n"
    "  if (ax > (T)BIG || ay > (T)BIG) { ax *= (T)0.25; ay *= (T)0.25; s = (T)2; } \\\n"
    "  else if (ax < (T)TINY && ay < (T)TINY) { ax *= (T)UP; ay *= (T)UP; s = (T)RUP; } \\\n"
    "  t = sqrt##S((T)0.5 * ax + (T)0.5 * hypot##S(ax, ay)); u = ay / ((T)2 * t); \\\n"
    "  return x >= 0 ? accel_cmk##S(s * t, copysign##S(s * u, y)) \\\n"
    "                : accel_cmk##S(s * u, copysign##S(s * t, y)); } \\\n"
    "ACCEL_FN C accel_csinh##S(C z) { \\\n"
    "  T x = z.re, y = z.im, e; \\\n"
    "  if (y == 0) return accel_cmk##S(sinh##S(x), y); \\\n"
    "  if (!accel_cfin##S(y) && (x == 0 || accel_cinf##S(x))) return accel_cmk##S(x, y - y); \\\n"
    "  if (fabs##S(x) > (T)LMAX) { e = exp##S(fabs##S(x) * (T)0.5); \\\n"
    "    return accel_cmk##S(copysign##S((T)1, x) * ((T)0.5 * e * cos##S(y) * e), (T)0.5 * e * "
    "sin##S(y) * e); } \\\n"
    "  return accel_cmk##S(sinh##S(x) * cos##S(y), cosh##S(x) * sin##S(y)); } \\\n"
    "ACCEL_FN C accel_ccosh##S(C z) { \\\n"
    "  T x = z.re, y = z.im, e; \\\n"
    "  if (y == 0) \\\n"
    "    return accel_cmk##S(cosh##S(x), accel_signbit##S(x) != accel_signbit##S(y) ? -(T)0 : "
    "(T)0); \\\n"
    "  if (!accel_cfin##S(y) && x == 0) return accel_cmk##S(y - y, (T)0); \\\n"
    "  if (!accel_cfin##S(y) && accel_cinf##S(x)) return accel_cmk##S(x * x, y - y); \\\n"
    "  if (fabs##S(x) > (T)LMAX) { e = exp##S(fabs##S(x) * (T)0.5); \\\n"
    "    return accel_cmk##S((T)0.5 * e * cos##S(y) * e, copysign##S((T)1, x) * ((T)0.5 * e * "
    "sin##S(y) * e)); } \\\n"
    "  return accel_cmk##S(cosh##S(x) * cos##S(y), sinh##S(x) * sin##S(y)); } \\\n"
    "ACCEL_FN C accel_ctanh##S(C z) { \\\n"
    "  T x = z.re, y = z.im, t, b, s, r, d; \\\n"
    "  if (x != x) return accel_cmk##S(x, y == 0 ? y : x); \\\n";
static const char part2[] =
    "  if (accel_cinf##S(x)) return accel_cmk##S(copysign##S((T)1, x), \\\n"
    "      copysign##S((T)0, y)); \\\n"
    "  if (!accel_cfin##S(y)) return accel_cmk##S(x == 0 ? x : y - y, y - y); \\\n"
    "  if (x == 0) return accel_cmk##S(x, tan##S(y)); \\\n"
    "  if (fabs##S(x) > (T)TB) return accel_cmk##S(copysign##S((T)1, x), \\\n"
    "      (T)4 * sin##S(y) * cos##S(y) * exp##S((T)-2 * fabs##S(x))); \\\n"
    "  t = tan##S(y); b = (T)1 + t * t; s = sinh##S(x); r = sqrt##S((T)1 + s * s); \\\n"
    "  d = (T)1 + b * s * s; \\\n"
    "  return accel_cmk##S(b * r * s / d, t / d); } \\\n"
    "ACCEL_FN C accel_csin##S(C z) { \\\n"
    "  C w = accel_csinh##S(accel_cmk##S(-z.im, z.re)); return accel_cmk##S(w.im, -w.re); } \\\n"
    "ACCEL_FN C accel_ccos##S(C z) { return accel_ccosh##S(accel_cmk##S(-z.im, z.re)); } \\\n"
    "ACCEL_FN C accel_ctan##S(C z) { \\\n"
    "  C w = accel_ctanh##S(accel_cmk##S(-z.im, z.re)); return accel_cmk##S(w.im, -w.re); } \\\n"
    "ACCEL_FN C accel_casinh##S(C z) { \\\n"
    "  T x = z.re, y = z.im, ax = fabs##S(x), ay = fabs##S(y); C w, s1, s2; \\\n"
    "  if ((x != x || y != y) && !accel_cinf##S(x) && !accel_cinf##S(y)) \\\n"
    "    return accel_cmk##S(x + y, y == 0 ? y : x + y); \\\n"
    "  if (ax > (T)BIG || ay > (T)BIG) { \\\n"
    "    w = accel_clog##S(accel_cmk##S(ax, ay)); w.re += "
    "(T)0.693147180559945309417232121458176568; \\\n"
    "    return accel_cmk##S(copysign##S(w.re, x == x ? x : (T)1), copysign##S(w.im, y)); } \\\n"
    "  s1 = accel_csqrt##S(accel_cmk##S((T)1 + y, -x)); s2 = accel_csqrt##S(accel_cmk##S((T)1 - y, "
    "x)); \\\n"
    "  return accel_cmk##S(asinh##S(s1.re * s2.im - s1.im * s2.re), \\\n"
    "                      atan2##S(y, s1.re * s2.re - s1.im * s2.im)); } \\\n"
    "ACCEL_FN C accel_casin##S(C z) { \\\n"
    "  C w = accel_casinh##S(accel_cmk##S(-z.im, z.re)); return accel_cmk##S(w.im, -w.re); } \\\n"
    "ACCEL_FN C accel_cacos##S(C z) { \\\n"
    "  T x = z.re, y = z.im, pi = (T)3.14159265358979323846264338327950288, re; C s1, s2; \\\n"
    "  if (y != y) return accel_cmk##S(x == 0 ? pi * (T)0.5 : y, accel_cinf##S(x) ? -fabs##S(x) : "
    "y); \\\n"
    "  if (x != x) return accel_cmk##S(x, accel_cinf##S(y) ? -y : x); \\\n"
    "  if (accel_cinf##S(x) || accel_cinf##S(y)) { \\\n"
    "    re = !accel_cinf##S(x) ? pi * (T)0.5 : accel_cinf##S(y) ? (x < 0 ? pi * (T)0.75 : pi * "
    "(T)0.25) \\\n"
    "       : x < 0 ? pi : (T)0; \\\n"
    "    return accel_cmk##S(re, accel_signbit##S(y) ? (T)ACCEL_CINF : -(T)ACCEL_CINF); } \\\n"
    "  if (fabs##S(x) > (T)BIG || fabs##S(y) > (T)BIG) { /* log(2|z|), as asinh above BIG */ \\\n"
    "    s1 = accel_clog##S(accel_cmk##S(fabs##S(x), fabs##S(y))); \\\n"
    "    return accel_cmk##S(atan2##S(fabs##S(y), x), \\\n"
    "                        -copysign##S(s1.re + (T)0.693147180559945309417232121458, y)); } \\\n"
    "  s1 = accel_csqrt##S(accel_cmk##S((T)1 - x, -y)); s2 = accel_csqrt##S(accel_cmk##S((T)1 + x, "
    "y)); \\\n"
    "  return accel_cmk##S((T)2 * atan2##S(s1.re, s2.re), asinh##S(s2.re * s1.im - s2.im * "
    "s1.re)); } \\\n"
    "ACCEL_FN C accel_cacosh##S(C z) { \\\n"
    "  C w = accel_cacos##S(z); \\\n"
    "  if (w.im != w.im) return accel_cmk##S(w.im, w.re); \\\n"
    "  return accel_signbit##S(w.im) ? accel_cmk##S(-w.im, w.re) : accel_cmk##S(w.im, -w.re); } "
    "\\\n"
    "ACCEL_FN C accel_catanh##S(C z) { \\\n"
    "  T x = z.re, y = z.im, ax = fabs##S(x), ay = fabs##S(y), re, im, m; \\\n"
    "  const T hp = (T)1.57079632679489661923132169163975144; \\\n"
    "  if (x != x) return accel_cmk##S(accel_cinf##S(y) ? (T)0 : x, accel_cinf##S(y) ? "
    "copysign##S(hp, y) : x); \\\n"
    "  if (y != y) return accel_cmk##S(accel_cinf##S(x) ? copysign##S((T)0, x) : x == 0 ? x : y, "
    "y); \\\n";
static const char part3[] =
    "  if (ax > (T)BIG || ay > (T)BIG) { \\\n"
    "    m = hypot##S(ax, ay); re = accel_cinf##S(ax) || accel_cinf##S(ay) ? (T)0 : ax / m / m; im "
    "= hp; \\\n"
    "  } else { \\\n"
    "    m = (T)1 - ax; re = m * m + ay * ay; \\\n"
    "    re = re < (T)1e-20 ? (T)0.5 * (log##S(hypot##S((T)1 + ax, ay)) - log##S(hypot##S(m, ay))) "
    "\\\n"
    "                   : (T)0.25 * log1p##S((T)4 * ax / re); \\\n"
    "    im = (T)0.5 * atan2##S((T)2 * ay, m * ((T)1 + ax) - ay * ay); } \\\n"
    "  return accel_cmk##S(copysign##S(re, x), copysign##S(im, y)); } \\\n"
    "ACCEL_FN C accel_catan##S(C z) { \\\n"
    "  C w = accel_catanh##S(accel_cmk##S(-z.im, z.re)); return accel_cmk##S(w.im, -w.re); } \\\n"
    "ACCEL_FN C accel_cpowx##S(C a, C b) { \\\n"
    "  if (b.re == 0 && b.im == 0) return accel_cmk##S((T)1, (T)0); \\\n"
    "  return accel_cexp##S(accel_cmul##S(b, accel_clog##S(a))); }\n"
    "ACCEL_CH(float, f, accel_cxf, 88.0f, 1e18f, 9.0f, 1e-30f, 1152921504606846976.0f, "
    "9.31322574615478515625e-10f)\n"
    "ACCEL_CH(double, , accel_cx, 709.0, 1e150, 22.0, 1e-290, 4.149515568880992958512407863e180, "
    "4.909093465297726553095771954e-91)\n"
    /* complex64 pow through complex128: exp(b log a) carries log's error
     * times |b log a| into the result, tens of float ulps for |b log a| of
     * tens; in double that is far below one float ulp after rounding. */
    "ACCEL_FN accel_cx accel_cpow(accel_cx a, accel_cx b) { return accel_cpowx(a, b); }\n"
    "ACCEL_FN accel_cxf accel_cpowf(accel_cxf a, accel_cxf b) {\n"
    "  accel_cx w = accel_cpowx(accel_cmk((double)a.re, (double)a.im), "
    "accel_cmk((double)b.re, (double)b.im));\n"
    "  return accel_cmkf((float)w.re, (float)w.im); }\n";

const char *const accel__array_complex_helpers[] = {part0, part1, part2, part3, NULL};
