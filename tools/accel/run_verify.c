/* run_verify.c — the comparison behind `accel run --verify`: a result against
 * the CPU device's result of the same op, element by element, to the README's
 * tolerance for that op ("Accuracy"), reporting the largest error and its
 * tolerance on stderr. */
#include <math.h>
#include <stdio.h>

#include "cli.h"

static double elem(const void *p, accel_dtype dt, size_t i)
{
    return dt == ACCEL_F64 ? ((const double *)p)[i] : ((const float *)p)[i];
}

/* One unit in the last place of |x| in dtype dt. */
static double ulp_of(double x, accel_dtype dt)
{
    x = fabs(x);
    if (dt == ACCEL_F64)
        return nextafter(x, INFINITY) - x;
    return (double)nextafterf((float)x, INFINITY) - (double)(float)x;
}

bool cli_verify_report(const cli_verify *v, const void *got, const void *ref)
{
    double worst_ratio = 0, worst_err = 0, worst_tol = 0;
    size_t worst_i = 0;
    for (size_t i = 0; i < v->count; i++) {
        double g = elem(got, v->dtype, i), r = elem(ref, v->dtype, i);
        if (g == r || (isnan(g) && isnan(r)))
            continue;
        double err = fabs(g - r), tol;
        switch (v->kind) {
        case CLI_TOL_ULPS:
            tol = v->factor * ulp_of(r, v->dtype);
            break;
        case CLI_TOL_SCALED:
            tol = v->factor * v->scale[v->scale_count == 1 ? 0 : i];
            break;
        default:
            tol = 0;
            break;
        }
        /* NaN or Inf on one side only, or any difference where none is allowed. */
        double ratio = isfinite(err) && tol > 0 ? err / tol : INFINITY;
        if (ratio > worst_ratio) {
            worst_ratio = ratio;
            worst_err = err;
            worst_tol = tol;
            worst_i = i;
        }
    }
    bool pass = worst_ratio <= 1.0;
    if (worst_ratio == 0)
        fprintf(stderr, "accel: verify: %zu element%s identical to %s (%s): PASS\n", v->count,
                v->count == 1 ? "" : "s", v->ref_device, v->rule);
    else
        fprintf(stderr,
                "accel: verify: largest error %.3g at element %zu vs tolerance %.3g (%.3g of it; "
                "%s) against %s: %s\n",
                worst_err, worst_i, worst_tol, worst_ratio, v->rule, v->ref_device,
                pass ? "PASS" : "FAIL");
    return pass;
}
