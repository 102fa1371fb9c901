/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/npy.h — reading and writing NumPy .npy files, so that arrays can travel
 * between accel and NumPy (the `accel run` command, tests that use NumPy as the
 * reference).
 *
 * Format: "A Simple File Format for NumPy Arrays" (NEP 1, numpy.lib.format):
 * the magic "\x93NUMPY", a version byte pair, a little-endian header length
 * (2 bytes in 1.0, 4 bytes in 2.0 and 3.0), a Python-literal header dict with
 * exactly the keys 'descr', 'fortran_order' and 'shape', then the raw data.
 *
 * Supported: versions 1.0, 2.0 and 3.0 (read), C order, little-endian
 * (or one-byte '|') dtypes of the Array API and float16: '|b1' (ACCEL_BOOL),
 * '|i1' '<i2' '<i4' '<i8' (ACCEL_I8..I64), '|u1' '<u2' '<u4' '<u8'
 * (ACCEL_U8..U64), '<f2' '<f4' '<f8' (ACCEL_F16, F32, F64), '<c8' '<c16'
 * (ACCEL_C64, C128; '=' native order reads as '<'); 0 to ACCEL_NPY_MAX_DIMS
 * dimensions (0-d arrays hold one element). Anything else — big-endian,
 * object or structured dtypes, bfloat16 (no NumPy dtype), Fortran order — is
 * refused with a message naming the file and what it found. Hosts must be
 * little-endian (else ACCEL_ERROR_UNSUPPORTED).
 */
#ifndef ACCEL_NPY_H
#define ACCEL_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACCEL_NPY_MAX_DIMS 8

/* An array read from a .npy file. data is the caller's: accel_npy_free. */
typedef struct accel_npy_array {
    accel_dtype dtype;                /* any but ACCEL_BF16 (no NumPy dtype) */
    uint32_t ndim;                    /* 0..ACCEL_NPY_MAX_DIMS */
    size_t shape[ACCEL_NPY_MAX_DIMS]; /* elements per dimension; unused ones 0 */
    size_t count;                     /* elements: the product of shape (1 when ndim is 0) */
    void *data; /* count elements, row-major (C order); never NULL after a successful load */
} accel_npy_array;

/** Read the .npy file at path into *out (zeroed first, also on failure).
 *  The header is parsed strictly: exactly the three keys, a shape tuple of
 *  non-negative integers whose product (in bytes) does not overflow, and a
 *  file holding exactly the bytes the header promises.
 *  Errors (accel_last_error names the file and the cause):
 *  ACCEL_ERROR_INVALID_ARGUMENT (path or out NULL), ACCEL_ERROR_NOT_FOUND
 *  (no such file), ACCEL_ERROR_IO (unreadable, not a .npy file, malformed
 *  header, truncated data or trailing bytes), ACCEL_ERROR_UNSUPPORTED (a valid
 *  file with a dtype, byte order, Fortran order, version or rank accel does
 *  not take), ACCEL_ERROR_OUT_OF_HOST_MEMORY.
 *  Thread-safe (no shared state). */
ACCEL_API accel_status accel_npy_load(const char *path, accel_npy_array *out);

/** As accel_npy_load, from the `size` bytes of a whole .npy file in memory
 *  (bytes may be NULL when size is 0); data is copied into out->data. `name`
 *  labels error messages (NULL: "<memory>"). Handy for tests and fuzzing. */
ACCEL_API accel_status accel_npy_load_memory(const void *bytes, size_t size, const char *name,
                                             accel_npy_array *out);

/** Write an array of `ndim` dimensions `shape` (row-major, product of shape
 *  elements of dtype at data) to path as a format 1.0 .npy file that
 *  numpy.load reads. The file is written to a temporary file in the same
 *  folder and renamed over path, so a failed save never leaves a partial or
 *  corrupted file at path, and path may be one of the files the data was
 *  loaded from. shape may be NULL when ndim is 0; data may be NULL when the
 *  array has 0 elements.
 *  What is at path:
 *  - nothing: a new file, mode 0666 & ~umask (as fopen creates it);
 *  - a regular file: replaced, keeping its mode (and its owner and group
 *    where the caller may set them); refused when the caller may not write
 *    it (a read-only file; np.save raises PermissionError);
 *  - a symbolic link: followed; the file it points to is replaced (the
 *    temporary file goes in that file's folder) and the link stays a link.
 *    A dangling link is refused;
 *  - anything else (folder, device node such as /dev/null, FIFO, socket):
 *    refused, nothing is created or changed.
 *  Hard links: like sed -i and rsync, the rename gives path a new inode, so
 *  other hard links to the old file keep the old contents.
 *  The folder of the file must be writable (for the temporary file), even
 *  when the file itself is.
 *  Errors: ACCEL_ERROR_INVALID_ARGUMENT (path NULL, ndim > ACCEL_NPY_MAX_DIMS,
 *  shape or data NULL where needed, element count overflowing size_t),
 *  ACCEL_ERROR_UNSUPPORTED (dtype bf16), ACCEL_ERROR_IO
 *  (path is refused as above, or the file could not be created, written or
 *  renamed: the reason in accel_last_error), ACCEL_ERROR_OUT_OF_HOST_MEMORY.
 *  Thread-safe. */
ACCEL_API accel_status accel_npy_save(const char *path, accel_dtype dtype, uint32_t ndim,
                                      const size_t *shape, const void *data);

/** Free a->data and zero *a. NULL, or an array never loaded but zeroed, is a
 *  no-op. */
ACCEL_API void accel_npy_free(accel_npy_array *a);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NPY_H */
