/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/security.h — trust checks of plugins.ini and plugin files (security.c). Not installed.
 */
#ifndef ACCEL_CORE_BASE_SECURITY_H
#define ACCEL_CORE_BASE_SECURITY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

/* After parsing: refuse the config file read from fd (opened as written,
 * resolved to cfg->path) when another user could change it or its path
 * (ACCEL_ERROR_CONFIG), unless ACCEL_ALLOW_INSECURE says otherwise. */
accel_status accel__security_check_config(const accel__config *cfg, int fd, const char *written,
                                          const char *fn);
/* Open the plugin at path for loading. False: *out_fd is the open regular
 * file to load (dlopen through /proc/self/fd), trusted or allowed by
 * allow_insecure (with a warning). True: refused, *out_fd = -1 and the
 * reason in reason (cap bytes): another user could change the file or a
 * folder or link on its path, or it is not a regular file. */
bool accel__security_open_plugin(const char *path, bool allow_insecure, int *out_fd, char *reason,
                                 size_t cap);

#endif /* ACCEL_CORE_BASE_SECURITY_H */
