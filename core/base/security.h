/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/security.h — trust checks of plugins.ini, plugin files and folders that hold code
 * the process will run (security.c). Not installed. */
#ifndef ACCEL_CORE_BASE_SECURITY_H
#define ACCEL_CORE_BASE_SECURITY_H

#include <stdbool.h>
#include <stddef.h>

#include "accel/accel.h"

/* After parsing: refuse the config file read from fd (opened as written,
 * resolved to path) when another user could change it or its path
 * (ACCEL_ERROR_CONFIG), unless env_allow_insecure (ACCEL_ALLOW_INSECURE in
 * the environment) says otherwise; file_vouches (the file's own
 * allow_insecure = true) is named in the refusal, as it cannot vouch for
 * itself. The caller (config.c) passes its parsed values, so that this file
 * knows nothing of the config's layout. */
accel_status accel__security_check_config(const char *path, bool env_allow_insecure,
                                          bool file_vouches, int fd, const char *written,
                                          const char *fn);
/* Open the plugin at path for loading. False: *out_fd is the open regular
 * file to load (dlopen through /proc/self/fd), trusted or allowed by
 * allow_insecure (with a warning). True: refused, *out_fd = -1 and the
 * reason in reason (cap bytes): another user could change the file or a
 * folder or link on its path, or it is not a regular file. */
bool accel__security_open_plugin(const char *path, bool allow_insecure, int *out_fd, char *reason,
                                 size_t cap);

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
