/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/file.h — opening regular files without blocking (file.c). Not installed. */
#ifndef ACCEL_CORE_BASE_FILE_H
#define ACCEL_CORE_BASE_FILE_H

#include <stdint.h>

#include "accel/accel.h"

/* Open path (open(2) flags, e.g. O_RDONLY or O_WRONLY | O_CREAT | O_TRUNC,
 * O_NOFOLLOW where a symbolic link must be refused; O_CREAT creates with mode
 * 0666 & ~umask) and make sure it is a regular file, without blocking: it is
 * opened with O_NONBLOCK | O_CLOEXEC | O_NOCTTY, examined with fstat, and
 * O_NONBLOCK is cleared again before *out_fd is handed back. max_bytes > 0
 * also refuses a file larger than that (a file may still grow while it is
 * read: readers cap what they read too). Errors, with "fn: path ..." as the
 * message and *out_fd = -1: ACCEL_ERROR_NOT_FOUND (no such file),
 * ACCEL_ERROR_INVALID_ARGUMENT (a directory, FIFO, device or socket, a
 * symbolic link under O_NOFOLLOW, too large), ACCEL_ERROR_IO (any other
 * open or fstat failure). */
accel_status accel__open_regular(const char *path, int flags, uint64_t max_bytes, const char *fn,
                                 int *out_fd);

#endif /* ACCEL_CORE_BASE_FILE_H */
