/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/table.c — the elementwise functions as data: one row per
 * function (arity, result rule, tolerance, the per-element expression per
 * kind of the compute dtype), and the helper functions the expressions call.
 * codegen.c turns a row into a kernel for any dtypes and dimensions; nothing
 * else knows a function's math. Integer expressions wrap through accel_U
 * (unsigned arithmetic has no overflow in C), so no input is undefined
 * behaviour; the float helpers follow NumPy's npymath (npy_divmod,
 * npy_logaddexp, npy_logaddexp2) so results agree with NumPy bit for bit
 * where the libm calls do. */
#include <pthread.h>

#include "arrays/arrays_internal.h"

/* Every public value has a row and a name; ASTYPE's expression is the
 * conversion on store. */
#define ACCEL_X_ARRAY_CHECK(E, V, NAME, ARITY)                                                     \
    _Static_assert((V) > 0 && (V) < ACCEL_ARRAY_FN_LIMIT_, "array fn " #E " out of range");
ACCEL_ARRAY_FN_LIST(ACCEL_X_ARRAY_CHECK)
#undef ACCEL_X_ARRAY_CHECK

#define WRAP(op) "(accel_T)((accel_U)a " op " (accel_U)b)"
#define PROM ACCEL_ARRAY_RESULT_PROMOTED
#define BOOL ACCEL_ARRAY_RESULT_BOOL
/* A float and complex function of one argument, 4 ulp for floats (the
 * CUDA Math API's and glibc's bounds are within 2 ulp each of the exact
 * value); complex: complex.c's accel_c<f>, within TC ulps of the larger
 * part (a few libm calls in a row, the error amplified near the branch
 * points by at most the condition of the formulas there). */
#define FLOAT1(E, f, TC)                                                                           \
    [ACCEL_ARRAY_##E] = {                                                                          \
        #f, 1, PROM, 4, 0, {NULL, NULL, NULL, "accel_F(" #f ")(a)", "accel_F(accel_c" #f ")(a)"},  \
        TC},
/* A complex expression of complex.c's helper H on the inputs. */
#define CX1(H) "accel_F(accel_c" H ")(a)"
#define CX2(H) "accel_F(accel_c" H ")(a, b)"
/* Rounding: integers are their own value (the standard). */
#define ROUND1(E, name, f)                                                                         \
    [ACCEL_ARRAY_##E] = {name, 1, PROM, 0, 0, {NULL, "a", "a", "accel_F(" f ")(a)"}},
#define CMP(E, name, op)                                                                           \
    [ACCEL_ARRAY_##                                                                                \
        E] = {name, 2, BOOL, 0, 0, {"a " op " b", "a " op " b", "a " op " b", "a " op " b"}},
/* equal and not_equal also compare complex values (both parts). */
#define CMPC(E, name, op, cx)                                                                      \
    [ACCEL_ARRAY_##                                                                                \
        E] = {name, 2, BOOL, 0, 0, {"a " op " b", "a " op " b", "a " op " b", "a " op " b", cx}},
#define BITS(E, name, op)                                                                          \
    [ACCEL_ARRAY_##                                                                                \
        E] = {name,                                                                                \
              2,                                                                                   \
              PROM,                                                                                \
              0,                                                                                   \
              0,                                                                                   \
              {"(accel_T)(a " op " b)", "(accel_T)(a " op " b)", "(accel_T)(a " op " b)", NULL}},
/* clip as NumPy's minimum(maximum(a, lo), hi): hi wins when lo > hi. */
#define CLIPI "(a < b ? b : a) > c ? c : (a < b ? b : a)"
#define LOGIC(E, name, ex) [ACCEL_ARRAY_##E] = {name, 2, BOOL, 0, 0, {ex, ex, ex, ex}},
/* |x| of a signed integer x as unsigned long long (exact: -INT_MIN too). */
#define IABS(x) "(unsigned long long)(accel_U)(" x " < 0 ? 0u - (accel_U)" x " : (accel_U)" x ")"

const accel__arow accel__array_table[ACCEL_ARRAY_FN_LIMIT_] = {
    /* bool: add is or, multiply is and (NumPy's and CuPy's bool results) */
    /* complex multiply: normwise within sqrt(2) gamma_2 (Higham, Accuracy
     * and Stability of Numerical Algorithms, 2nd ed., Lemma 3.5), i.e. 4
     * ulps of the larger part; Smith's divide within a few more. */
    [ACCEL_ARRAY_ADD] =
        {"add", 2, PROM, 0, 0, {"a | b", WRAP("+"), WRAP("+"), "a + b", CX2("add")}},
    [ACCEL_ARRAY_SUBTRACT] =
        {"subtract", 2, PROM, 0, 0, {NULL, WRAP("-"), WRAP("-"), "a - b", CX2("sub")}},
    [ACCEL_ARRAY_MULTIPLY] =
        {"multiply", 2, PROM, 0, 0, {"a & b", WRAP("*"), WRAP("*"), "a * b", CX2("mul")}, 4},
    [ACCEL_ARRAY_DIVIDE] = {"divide", 2, PROM, 0, 0, {NULL, NULL, NULL, "a / b", CX2("div")}, 8},
    [ACCEL_ARRAY_FLOOR_DIVIDE] = {"floor_divide",
                                  2,
                                  PROM,
                                  0,
                                  0,
                                  {NULL,
                                   "b == 0 ? (accel_T)0 : b == -1 ? (accel_T)(0u - (accel_U)a) : "
                                   "(accel_T)(a / b - ((a % b != 0) & ((a % b < 0) != (b < 0))))",
                                   "b == 0 ? (accel_T)0 : (accel_T)(a / b)",
                                   "accel_F(accel_floordiv)(a, b)"}},
    [ACCEL_ARRAY_REMAINDER] = {"remainder",
                               2,
                               PROM,
                               0,
                               0,
                               {NULL,
                                "b == 0 || b == -1 ? (accel_T)0 : (accel_T)(a % b + "
                                "((a % b != 0) & ((a % b < 0) != (b < 0))) * b)",
                                "b == 0 ? (accel_T)0 : (accel_T)(a % b)",
                                "accel_F(accel_remainder)(a, b)"}},
    /* complex pow: exp(w), w = b log a, turns log's rounding into a
     * relative error of about 3|w| ulps between two libms (docs/arrays.md) */
    [ACCEL_ARRAY_POW] = {"pow",
                         2,
                         PROM,
                         4,
                         0,
                         {NULL, "(accel_T)accel_ipow((long long)a, (long long)b)",
                          "(accel_T)accel_upow((unsigned long long)a, (unsigned long long)b)",
                          "accel_F(pow)(a, b)", CX2("pow")},
                         128},
    [ACCEL_ARRAY_NEGATIVE] = {"negative",
                              1,
                              PROM,
                              0,
                              0,
                              {NULL, "(accel_T)(0u - (accel_U)a)", "(accel_T)(0u - (accel_U)a)",
                               "-a", CX1("neg")}},
    [ACCEL_ARRAY_POSITIVE] = {"positive", 1, PROM, 0, 0, {NULL, "a", "a", "a", "a"}},
    /* abs of a complex is its real dtype: hypot, 1 ulp in glibc and CUDA's 2. */
    [ACCEL_ARRAY_ABS] = {"abs",
                         1,
                         ACCEL_ARRAY_RESULT_REAL,
                         0,
                         0,
                         {NULL, "a < 0 ? (accel_T)(0u - (accel_U)a) : a", "a", "accel_F(fabs)(a)",
                          CX1("abs")},
                         2},
    [ACCEL_ARRAY_SQUARE] = {"square",
                            1,
                            PROM,
                            0,
                            0,
                            {NULL, "(accel_T)((accel_U)a * (accel_U)a)",
                             "(accel_T)((accel_U)a * (accel_U)a)", "a * a",
                             "accel_F(accel_cmul)(a, a)"},
                            4},
    [ACCEL_ARRAY_SIGN] = {"sign",
                          1,
                          PROM,
                          0,
                          0,
                          {NULL, "(accel_T)((a > 0) - (a < 0))", "(accel_T)(a > 0)",
                           "accel_F(accel_sign)(a)", CX1("sign")},
                          4},
    [ACCEL_ARRAY_MAXIMUM] = {"maximum",
                             2,
                             PROM,
                             0,
                             0,
                             {NULL, "a > b ? a : b", "a > b ? a : b", "accel_F(accel_max)(a, b)"}},
    [ACCEL_ARRAY_MINIMUM] = {"minimum",
                             2,
                             PROM,
                             0,
                             0,
                             {NULL, "a < b ? a : b", "a < b ? a : b", "accel_F(accel_min)(a, b)"}},
    [ACCEL_ARRAY_COPYSIGN] =
        {"copysign", 2, PROM, 0, 0, {NULL, NULL, NULL, "accel_F(copysign)(a, b)"}},
    [ACCEL_ARRAY_HYPOT] = {"hypot", 2, PROM, 4, 0, {NULL, NULL, NULL, "accel_F(hypot)(a, b)"}},
    [ACCEL_ARRAY_LOGADDEXP] =
        {"logaddexp", 2, PROM, 4, 0, {NULL, NULL, NULL, "accel_F(accel_logaddexp)(a, b)"}},
    [ACCEL_ARRAY_NEXTAFTER] =
        {"nextafter", 2, PROM, 0, ACCEL__AF_NOHALF, {NULL, NULL, NULL, "accel_F(nextafter)(a, b)"}},
    [ACCEL_ARRAY_ATAN2] = {"atan2", 2, PROM, 4, 0, {NULL, NULL, NULL, "accel_F(atan2)(a, b)"}},
    /* NumPy's fmod: C's remainder, the sign of a (integers: 0 for b == 0,
     * and for b == -1, where INT_MIN % -1 would be undefined). Exact. */
    [ACCEL_ARRAY_FMOD] = {"fmod",
                          2,
                          PROM,
                          0,
                          0,
                          {NULL, "b == 0 || b == -1 ? (accel_T)0 : (accel_T)(a % b)",
                           "b == 0 ? (accel_T)0 : (accel_T)(a % b)", "accel_F(fmod)(a, b)"}},
    /* gcd and lcm of the magnitudes (Euclid's algorithm), NumPy's: lcm is
     * |a| / gcd * |b| wrapped to the dtype, 0 when either is 0. */
    [ACCEL_ARRAY_GCD] = {"gcd",
                         2,
                         PROM,
                         0,
                         0,
                         {NULL, "(accel_T)accel_gcdu(" IABS("a") ", " IABS("b") ")",
                          "(accel_T)accel_gcdu(a, b)", NULL}},
    [ACCEL_ARRAY_LCM] = {"lcm",
                         2,
                         PROM,
                         0,
                         0,
                         {NULL, "(accel_T)accel_lcmu(" IABS("a") ", " IABS("b") ")",
                          "(accel_T)accel_lcmu(a, b)", NULL}},
    /* NumPy's heaviside(x, h0): 0 below 0, h0 at 0, 1 above, NaN for NaN. */
    [ACCEL_ARRAY_HEAVISIDE] =
        {"heaviside", 2, PROM, 0, 0, {NULL, NULL, NULL, "accel_F(accel_heaviside)(a, b)"}},
    [ACCEL_ARRAY_LOGADDEXP2] =
        {"logaddexp2", 2, PROM, 4, 0, {NULL, NULL, NULL, "accel_F(accel_logaddexp2)(a, b)"}},
    /* cbrt: within 1 ulp in glibc and CUDA's Math API. */
    [ACCEL_ARRAY_CBRT] = {"cbrt", 1, PROM, 4, 0, {NULL, NULL, NULL, "accel_F(cbrt)(a)"}},
    CMPC(EQUAL, "equal", "==", CX2("eq")) CMPC(NOT_EQUAL, "not_equal", "!=", "!" CX2("eq"))
        CMP(LESS, "less", "<") CMP(LESS_EQUAL, "less_equal", "<=") CMP(GREATER, "greater", ">")
            CMP(GREATER_EQUAL, "greater_equal", ">=") LOGIC(LOGICAL_AND, "logical_and",
                                                            "(a != 0) && (b != 0)")
                LOGIC(LOGICAL_OR, "logical_or", "(a != 0) || (b != 0)") LOGIC(
                    LOGICAL_XOR, "logical_xor", "(a != 0) != (b != 0)")[ACCEL_ARRAY_LOGICAL_NOT] =
                    {"logical_not", 1, BOOL, 0, 0, {"a == 0", "a == 0", "a == 0", "a == 0"}},
    BITS(BITWISE_AND, "bitwise_and", "&") BITS(BITWISE_OR, "bitwise_or", "|")
        BITS(BITWISE_XOR, "bitwise_xor", "^")[ACCEL_ARRAY_BITWISE_INVERT] =
            {"bitwise_invert", 1, PROM, 0, 0, {"(accel_T)!a", "(accel_T)~a", "(accel_T)~a", NULL}},
    [ACCEL_ARRAY_BITWISE_LEFT_SHIFT] =
        {"bitwise_left_shift",
         2,
         PROM,
         0,
         0,
         {NULL,
          "b < 0 || b >= accel_BITS ? (accel_T)0 : "
          "(accel_T)((accel_U)a << b)",
          "b >= accel_BITS ? (accel_T)0 : (accel_T)((accel_U)a << b)", NULL}},
    [ACCEL_ARRAY_BITWISE_RIGHT_SHIFT] = {"bitwise_right_shift",
                                         2,
                                         PROM,
                                         0,
                                         0,
                                         {NULL,
                                          "b < 0 || b >= accel_BITS ? (accel_T)(a < 0 ? -1 : 0) : "
                                          "(accel_T)(a >> b)",
                                          "b >= accel_BITS ? (accel_T)0 : (accel_T)(a >> b)",
                                          NULL}},
    ROUND1(FLOOR, "floor", "floor") ROUND1(CEIL, "ceil", "ceil")
        ROUND1(TRUNC, "trunc", "trunc")[ACCEL_ARRAY_ROUND] =
            {"round", 1, PROM, 0, 0, {NULL, "a", "a", "accel_F(rint)(a)", CX1("rint")}},
    FLOAT1(EXP, exp, 8) FLOAT1(EXPM1, expm1, 8) FLOAT1(LOG, log, 8) FLOAT1(LOG1P, log1p, 8) FLOAT1(
        LOG2, log2, 8) FLOAT1(LOG10, log10, 8) FLOAT1(SIN, sin, 16) FLOAT1(COS, cos, 16)
        FLOAT1(TAN, tan, 16) FLOAT1(ASIN, asin, 16) FLOAT1(ACOS, acos, 16) FLOAT1(ATAN, atan, 16)
            FLOAT1(SINH, sinh, 16) FLOAT1(COSH, cosh, 16) FLOAT1(TANH, tanh, 16) FLOAT1(
                ASINH, asinh, 16) FLOAT1(ACOSH, acosh, 16) FLOAT1(ATANH, atanh, 16)
                /* sqrt is correctly rounded (IEEE 754) everywhere. */
                [ACCEL_ARRAY_SQRT] =
                    {"sqrt", 1, PROM, 0, 0, {NULL, NULL, NULL, "accel_F(sqrt)(a)", CX1("sqrt")}, 4},
    [ACCEL_ARRAY_ISNAN] = {"isnan", 1, BOOL, 0, 0, {"0", "0", "0", "a != a", CX1("isnan")}},
    [ACCEL_ARRAY_ISINF] =
        {"isinf", 1, BOOL, 0, 0, {"0", "0", "0", "a == a && a - a != a - a", CX1("isinf")}},
    [ACCEL_ARRAY_ISFINITE] =
        {"isfinite", 1, BOOL, 0, 0, {"1", "1", "1", "a - a == a - a", CX1("isfinite")}},
    [ACCEL_ARRAY_CLIP] = {"clip",
                          3,
                          PROM,
                          0,
                          0,
                          {NULL, CLIPI, CLIPI, "accel_F(accel_min)(accel_F(accel_max)(a, b), c)"}},
    /* where: a is the condition (bool), b and c the promoted values. */
    [ACCEL_ARRAY_WHERE] =
        {"where", 3, PROM, 0, 0, {"a ? b : c", "a ? b : c", "a ? b : c", "a ? b : c", "a ? b : c"}},
    /* astype: elementwise.c refuses complex to a real dtype (the standard). */
    [ACCEL_ARRAY_ASTYPE] = {"astype", 1, ACCEL_ARRAY_RESULT_OUT, 0, 0, {"a", "a", "a", "a", "a"}},
    /* conj: the identity on real numbers (the Array API takes any numeric). */
    [ACCEL_ARRAY_CONJ] = {"conj", 1, PROM, 0, 0, {"a", "a", "a", "a", CX1("conj")}},
};

int accel__array_column(accel_dtype ct)
{
    switch (accel_dtype_kind_of(ct)) {
    case ACCEL_DTYPE_KIND_BOOL:
        return ACCEL__AK_BOOL;
    case ACCEL_DTYPE_KIND_INT:
        return ACCEL__AK_INT;
    case ACCEL_DTYPE_KIND_UINT:
        return ACCEL__AK_UINT;
    case ACCEL_DTYPE_KIND_COMPLEX:
        return ACCEL__AK_COMPLEX;
    case ACCEL_DTYPE_KIND_FLOAT:
    case ACCEL_DTYPE_KIND_INVALID:
        break;
    }
    return ACCEL__AK_FLOAT;
}

const accel__arow *accel__array_row(accel_array_fn fn)
{
    if ((unsigned)fn >= ACCEL_ARRAY_FN_LIMIT_ || !accel__array_table[fn].name)
        return NULL;
    return &accel__array_table[fn];
}

static accel_array_fn_properties props[ACCEL_ARRAY_FN_LIMIT_];
static pthread_once_t props_once = PTHREAD_ONCE_INIT;

static void props_fill(void)
{
    static const accel_dtype_kind kind_of[ACCEL__AK_COUNT] = {
        ACCEL_DTYPE_KIND_BOOL, ACCEL_DTYPE_KIND_INT, ACCEL_DTYPE_KIND_UINT, ACCEL_DTYPE_KIND_FLOAT,
        ACCEL_DTYPE_KIND_COMPLEX};
    for (unsigned fn = 0; fn < ACCEL_ARRAY_FN_LIMIT_; fn++) {
        const accel__arow *r = &accel__array_table[fn];
        if (!r->name)
            continue;
        accel_array_fn_properties v = {
            sizeof v, (accel_array_fn)fn, r->name,    r->arity,
            0,        r->result,          r->tol_ulp, r->tol_cplx ? r->tol_cplx : 1u,
            {0}};
        for (int k = 0; k < ACCEL__AK_COUNT; k++)
            if (r->e[k])
                v.kinds |= 1u << kind_of[k];
        props[fn] = v;
    }
}

const accel_array_fn_properties *accel_array_fn_info(accel_array_fn fn)
{
    if (!accel__array_row(fn))
        return NULL;
    pthread_once(&props_once, props_fill);
    return &props[fn];
}

/* The float helpers, once per float type (S: the libm suffix). NumPy's
 * npy_divmod (floor_divide, remainder), npy_logaddexp, npy_logaddexp2
 * (log2(1 + x) as LOG2E log1p(x)) and heaviside, and IEEE
 * 754-2019 maximum/minimum (NaN wins, -0 < +0) as the op table's MAX/MIN.
 * The C twin includes no header, so the libm functions beyond the kernel
 * prelude's are declared here. */
const char accel__array_helpers[] =
    "#ifndef __CUDACC__\n"
    "double asinh(double); double acosh(double); double atanh(double);\n"
    "double copysign(double, double); double nextafter(double, double); double rint(double);\n"
    "float asinhf(float); float acoshf(float); float atanhf(float);\n"
    "float copysignf(float, float); float nextafterf(float, float); float rintf(float);\n"
    "#endif\n"
    "#define ACCEL_AH(T, S) \\\n"
    "ACCEL_FN int accel_signbit##S(T a) { return copysign##S((T)1, a) < 0; } \\\n"
    "ACCEL_FN T accel_sign##S(T a) { return a != a ? a : a > 0 ? (T)1 : a < 0 ? (T)-1 : (T)0; } "
    "\\\n"
    "ACCEL_FN T accel_max##S(T a, T b) { return a != a ? a : b != b ? b : a > b ? a : b > a ? b "
    ": accel_signbit##S(a) ? b : a; } \\\n"
    "ACCEL_FN T accel_min##S(T a, T b) { return a != a ? a : b != b ? b : a < b ? a : b < a ? b "
    ": accel_signbit##S(a) ? a : b; } \\\n"
    "ACCEL_FN T accel_floordiv##S(T a, T b) { \\\n"
    "  if (b == 0) return a / b; \\\n"
    "  T m = fmod##S(a, b), d = (a - m) / b; \\\n"
    "  if (m != 0 && ((b < 0) != (m < 0))) d -= (T)1; \\\n"
    "  if (d == 0) return copysign##S((T)0, a / b); \\\n"
    "  T f = floor##S(d); if (d - f > (T)0.5) f += (T)1; return f; } \\\n"
    "ACCEL_FN T accel_remainder##S(T a, T b) { \\\n"
    "  T m = fmod##S(a, b); if (b == 0) return m; \\\n"
    "  if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = copysign##S((T)0, b); \\\n"
    "  return m; } \\\n"
    "ACCEL_FN T accel_logaddexp##S(T a, T b) { \\\n"
    "  if (a == b) return a + (T)0.693147180559945309417232121458176568; \\\n"
    "  T d = a - b; \\\n"
    "  if (d > 0) return a + log1p##S(exp##S(-d)); \\\n"
    "  if (d <= 0) return b + log1p##S(exp##S(d)); \\\n"
    "  return d; } \\\n"
    "ACCEL_FN T accel_logaddexp2##S(T a, T b) { \\\n"
    "  const T l2e = (T)1.442695040888963407359924681001892137; \\\n"
    "  if (a == b) return a + (T)1; \\\n"
    "  T d = a - b; \\\n"
    "  if (d > 0) return a + l2e * log1p##S(exp2##S(-d)); \\\n"
    "  if (d <= 0) return b + l2e * log1p##S(exp2##S(d)); \\\n"
    "  return d; } \\\n"
    "ACCEL_FN T accel_heaviside##S(T a, T b) { \\\n"
    "  return a != a ? a : a < 0 ? (T)0 : a > 0 ? (T)1 : b; }\n"
    "ACCEL_AH(float, f)\n"
    "ACCEL_AH(double, )\n"
    /* uint64 <-> float without the compiler's runtime helpers (tcc's
     * objects cannot call libgcc's __floatundisf): halve with a sticky bit,
     * convert as signed, double; exact rounding since 63 > 53 bits. */
    "ACCEL_FN float accel_u64_f(unsigned long long u) {\n"
    "  return (u >> 63) ? 2.0f * (float)(long long)((u >> 1) | (u & 1u)) : (float)(long long)u;\n"
    "}\n"
    "ACCEL_FN double accel_u64_d(unsigned long long u) {\n"
    "  return (u >> 63) ? 2.0 * (double)(long long)((u >> 1) | (u & 1u)) : (double)(long long)u;\n"
    "}\n"
    "ACCEL_FN unsigned long long accel_d_u64(double v) {\n"
    "  return v >= 9223372036854775808.0\n"
    "             ? (unsigned long long)(long long)(v - 9223372036854775808.0) + "
    "9223372036854775808ull\n"
    "             : (unsigned long long)(long long)v;\n"
    "}\n"
    "ACCEL_FN long long accel_ipow(long long a, long long b) {\n"
    "  if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;\n"
    "  unsigned long long r = 1, x = (unsigned long long)a, e = (unsigned long long)b;\n"
    "  while (e) { if (e & 1u) r *= x; x *= x; e >>= 1; }\n"
    "  return (long long)r;\n"
    "}\n"
    "ACCEL_FN unsigned long long accel_gcdu(unsigned long long a, unsigned long long b) {\n"
    "  while (b) { unsigned long long t = a % b; a = b; b = t; }\n"
    "  return a;\n"
    "}\n"
    "ACCEL_FN unsigned long long accel_lcmu(unsigned long long a, unsigned long long b) {\n"
    "  return a == 0 || b == 0 ? 0 : a / accel_gcdu(a, b) * b;\n"
    "}\n"
    "ACCEL_FN unsigned long long accel_upow(unsigned long long x, unsigned long long e) {\n"
    "  unsigned long long r = 1;\n"
    "  while (e) { if (e & 1u) r *= x; x *= x; e >>= 1; }\n"
    "  return r;\n"
    "}\n";
