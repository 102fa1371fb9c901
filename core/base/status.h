/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/status.h — the calling thread's last error and the log (status.c). Not installed. */
#ifndef ACCEL_CORE_BASE_STATUS_H
#define ACCEL_CORE_BASE_STATUS_H

#include <stdarg.h>

#include "accel/accel.h"
#include "try.h" /* ACCEL__TRY */

#if defined(__GNUC__)
#define ACCEL__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ACCEL__PRINTF(f, a)
#endif

/* Set the calling thread's accel_last_error() message. Messages begin with
 * the public function's name ("accel_add: ..."). */
void accel__set_error(const char *fmt, ...) ACCEL__PRINTF(1, 2);
void accel__set_errorv(const char *fmt, va_list ap) ACCEL__PRINTF(1, 0);
/* accel__set_error, then return status: `return accel__fail(ST, "...")`. */
accel_status accel__fail(accel_status status, const char *fmt, ...) ACCEL__PRINTF(2, 3);
void accel__clear_error(void);
/* Like accel__fail, then append ": " and the message a plugin has just set
 * (or the status's sentence when it set none). A plugin message that already
 * begins with the same "name:" as fmt's result is not repeated. */
accel_status accel__fail_relay(accel_status status, const char *fmt, ...) ACCEL__PRINTF(2, 3);

/* status (returned) with the thread's message renamed to the public
 * function fn: the "accel_<name>: " heads of the calls fn made inside are
 * dropped ("accel_queue_finish: accel_linalg_batched: the matrix is
 * singular" from accel_array_linalg_solve reads "accel_array_linalg_solve:
 * the matrix is singular"). ACCEL_SUCCESS passes through untouched. */
accel_status accel__fail_as(accel_status status, const char *fn);

int accel__log_level(void);
void accel__log(int level, const char *fmt, ...) ACCEL__PRINTF(2, 3);
/* prefix (may be NULL) goes before the message, "cpu: ...". */
void accel__logv(int level, const char *prefix, const char *fmt, va_list ap) ACCEL__PRINTF(3, 0);

#endif /* ACCEL_CORE_BASE_STATUS_H */
