/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/io/npy_preamble.h — the .npy preamble writer shared with the repro files (npy.c). Not
 * installed. */
#ifndef ACCEL_CORE_IO_NPY_PREAMBLE_H
#define ACCEL_CORE_IO_NPY_PREAMBLE_H

#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"

/* Bytes of the largest .npy preamble accel__npy_preamble writes. */
#define ACCEL__NPY_PREAMBLE_MAX 512
/* The preamble of a format 1.0 .npy file (magic, version, header length and
 * the header dict, padded so that the data starts at a multiple of 64
 * bytes, as numpy.lib.format writes it) for an array of dtype (f32, f64 or
 * f16) and ndim <= ACCEL_NPY_MAX_DIMS dimensions `shape`, into out. Returns
 * its length in bytes, 0 for another dtype or too many dimensions. The
 * shape is not checked (accel_npy_save checks it first). */
size_t accel__npy_preamble(accel_dtype dtype, uint32_t ndim, const size_t *shape,
                           unsigned char out[ACCEL__NPY_PREAMBLE_MAX]);

#endif /* ACCEL_CORE_IO_NPY_PREAMBLE_H */
