/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* transpose.c — out = x^T for a row-major rows x cols matrix with leading
 * dimensions (op->m = rows, op->n = cols, op->lda of x, op->ldc of out).
 *
 * A pure data move, done on unsigned integers of the element's width (2, 4 or
 * 8 bytes) so that every bit pattern, NaN payloads included, is kept.
 * Cache-blocked: the matrix is cut into TILE x TILE tiles, so the rows of x a
 * tile reads and the rows of out it writes (TILE cache lines each) stay in L1
 * while the tile is done, whichever of the two is strided. Consecutive tiles
 * are grouped into parallel blocks of about ACCEL_CPU_EW_BLOCK elements, run
 * over the OpenMP team; small matrices stay on the calling thread. */
#include <stdint.h>

#include "cpu.h"

#define TILE 32

/* One tile: rows [r0, r1) and columns [c0, c1) of x. Walks out's rows (x's
 * columns) in the outer loop so the stores are sequential. */
#define DEFINE_TILE(NAME, T)                                                                       \
    static void NAME(const T *restrict x, size_t ldx, T *restrict out, size_t ldo, size_t r0,      \
                     size_t r1, size_t c0, size_t c1)                                              \
    {                                                                                              \
        for (size_t j = c0; j < c1; ++j) {                                                         \
            const T *src = x + j;                                                                  \
            T *dst = out + j * ldo;                                                                \
            for (size_t i = r0; i < r1; ++i)                                                       \
                dst[i] = src[i * ldx];                                                             \
        }                                                                                          \
    }
DEFINE_TILE(tile_u16, uint16_t)
DEFINE_TILE(tile_u32, uint32_t)
DEFINE_TILE(tile_u64, uint64_t)
#undef DEFINE_TILE

/* Tiles [first, last) in row-major order of the tile grid (tiles_c per row). */
static void run_tiles(const accel_cpu_op *op, size_t esize, size_t tiles_c, size_t first,
                      size_t last)
{
    const size_t rows = op->m, cols = op->n, ldx = op->lda, ldo = op->ldc;
    for (size_t t = first; t < last; ++t) {
        const size_t r0 = t / tiles_c * TILE, c0 = t % tiles_c * TILE;
        const size_t r1 = r0 + TILE < rows ? r0 + TILE : rows;
        const size_t c1 = c0 + TILE < cols ? c0 + TILE : cols;
        switch (esize) {
        case 2:
            tile_u16(op->ptr[0], ldx, op->ptr[1], ldo, r0, r1, c0, c1);
            break;
        case 4:
            tile_u32(op->ptr[0], ldx, op->ptr[1], ldo, r0, r1, c0, c1);
            break;
        default:
            tile_u64(op->ptr[0], ldx, op->ptr[1], ldo, r0, r1, c0, c1);
            break;
        }
    }
}

void accel_cpu__transpose(const accel_cpu_op *op, int threads)
{
    const size_t rows = op->m, cols = op->n;
    if (rows == 0 || cols == 0)
        return;
    const int nt = threads;
    const size_t esize = accel_backend_dtype_size(op->dtype);
    /* rows * cols fits in size_t (the core checked x's extent), so the tile
     * count does too. */
    const size_t tiles_c = (cols + TILE - 1) / TILE;
    const size_t tiles = (rows + TILE - 1) / TILE * tiles_c;
    /* Thin matrices have small tiles: count the elements a tile holds. */
    const size_t tile_elems = (rows < TILE ? rows : TILE) * (cols < TILE ? cols : TILE);
    const size_t per_block = tile_elems < ACCEL_CPU_EW_BLOCK ? ACCEL_CPU_EW_BLOCK / tile_elems : 1;
    const size_t nb = (tiles + per_block - 1) / per_block;
    ACCEL_CPU_FOR_BLOCKS(b, nb, {
        const size_t first = b * per_block;
        const size_t last = tiles - first > per_block ? first + per_block : tiles;
        run_tiles(op, esize, tiles_c, first, last);
    });
}
