/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/retire.h — the first half of every release (handle.c): the
 * object's handle dies, then the release waits for the calls of other
 * threads that resolved it before it died (the hazard pins of handle.c),
 * so that what the release frees is used by no call. Buffers, queues,
 * events, kernels, graphs and device communicators are released this way:
 * a call that starts after the release gets ACCEL_ERROR_INVALID_HANDLE, one
 * under way finishes (or fails) first. */
#ifndef ACCEL_CORE_BASE_RETIRE_H
#define ACCEL_CORE_BASE_RETIRE_H

#include <stdbool.h>

/* One public call in flight (handle.h); named here, not included, so that
 * handle.c, which defines the function below, includes this header from
 * above. */
typedef struct accel__call accel__call;

/* Kill handle (the release call c's own object, resolved by c) and wait
 * until no call of another thread holds it. false, with the reason as
 * accel_last_error() and one warning logged, when the object must not be
 * freed: another thread released it at the same time, or a call of this
 * thread that uses it is still under way (a release from a callback inside
 * it would wait for itself). `what` names the argument ("q"). */
bool accel__handle_retire(accel__call *c, const char *fn, const char *what, const void *handle);

#endif /* ACCEL_CORE_BASE_RETIRE_H */
