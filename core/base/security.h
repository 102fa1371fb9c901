/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/security.h — trust checks of folders that hold code the process
 * will run (security.c), beside the plugin and config checks declared in
 * base/internal.h. */
#ifndef ACCEL_CORE_BASE_SECURITY_H
#define ACCEL_CORE_BASE_SECURITY_H

#include <stdbool.h>
#include <stddef.h>

/* Open the folder path (absolute) for entries opened relative to it
 * (openat), after the plugin rules: every folder and symbolic link on the
 * path as written and as resolved, then the folder itself by fstat of the
 * descriptor returned, owned by root or this user and writable by no one
 * else (no sticky-bit exception: others could still plant entries). The
 * descriptor names the folder checked even if the path is swapped later.
 * false with *out_fd an O_DIRECTORY descriptor (O_CLOEXEC) when trusted;
 * true with the reason in why (the descriptor closed) otherwise. */
bool accel__security_open_folder(const char *path, int *out_fd, char *why, size_t cap);

#endif /* ACCEL_CORE_BASE_SECURITY_H */
