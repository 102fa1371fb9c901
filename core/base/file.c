/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/file.c — opening a file that must be a regular file, without blocking
 * and with an optional size cap. Every file the core reads or writes by name
 * (plugins.ini, plugins, .npy files, repro files) goes through
 * accel__open_regular, so that a FIFO, a device such as /dev/zero or
 * /dev/urandom, a socket or a folder given where a file belongs is an error
 * with a message, never a hang or an endless read. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/status.h"

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

accel_status accel__open_regular(const char *path, int flags, uint64_t max_bytes, const char *fn,
                                 int *out_fd)
{
    *out_fd = -1;
    /* O_NONBLOCK: open() of a FIFO without a writer returns at once instead
     * of waiting for one; cleared again below for the reads and writes. */
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) {
        int err = errno;
        accel_status st = ACCEL_ERROR_IO;
        if (err == ENOENT || err == ENOTDIR)
            st = ACCEL_ERROR_NOT_FOUND;
        else if (err == ENOMEM)
            st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        if (err == ELOOP && (flags & O_NOFOLLOW))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is a symbolic link (refused)",
                               fn, path);
        if (err == ENXIO) /* O_WRONLY on a FIFO nobody reads */
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s is a FIFO or device, not a regular file", fn, path);
        if (err == EISDIR)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s is a directory, not a regular file", fn, path);
        return accel__fail(st, "%s: cannot open %s: %s", fn, path, strerror(err));
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int err = errno;
        close(fd);
        return accel__fail(ACCEL_ERROR_IO, "%s: cannot examine %s: %s", fn, path, strerror(err));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is %s, not a regular file", fn,
                           path, kind_of(sb.st_mode));
    }
    if (max_bytes && (uint64_t)sb.st_size > max_bytes) {
        close(fd);
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s is %llu bytes, more than the %llu this file may have", fn, path,
                           (unsigned long long)sb.st_size, (unsigned long long)max_bytes);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int err = errno;
        close(fd);
        return accel__fail(ACCEL_ERROR_IO, "%s: %s: fcntl: %s", fn, path, strerror(err));
    }
    *out_fd = fd;
    return ACCEL_SUCCESS;
}
