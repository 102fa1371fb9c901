/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/collective.h — what libaccel offers libraries built on it
 * (libaccel_mpi): collectives run by a backend itself (NCCL in the CUDA
 * plugin) on a queue. No MPI here: the ranks' ids are exchanged by the
 * caller. (accel_error_set and accel_log_write, which such libraries also use,
 * are in accel.h with the status and log calls.) */
#ifndef ACCEL_COLLECTIVE_H
#define ACCEL_COLLECTIVE_H

#include "accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct accel_device_comm accel_device_comm; /* the caller's; accel_device_comm_release */

/* ------------------------------------------- collectives of a backend */

/* Bytes of a device communicator's unique id (NCCL's ncclUniqueId). */
#define ACCEL_DEVICE_COMM_ID_BYTES 128

/* One collective on ranges of buffers of the communicator's device, in
 * elements of dtype (accel/mpi.h states each kind's counts). */
typedef struct accel_collective_desc {
    uint32_t struct_size;
    accel_collective_kind kind;
    accel_dtype dtype;      /* f32, f64 */
    accel_op_code op;       /* ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX, ACCEL_OP_REDUCE_MIN */
    const char *name;       /* public function for messages ("accel_comm_allreduce") */
    int root;               /* root of reduce/broadcast, peer of send/recv */
    accel_slice send, recv; /* broadcast: both the same; reduce off the root: recv empty */
} accel_collective_desc;

/** Zero *d and set struct_size. */
ACCEL_API void accel_collective_desc_init(accel_collective_desc *d);

/** ACCEL_SUCCESS when dev's backend runs collectives itself and its library
 *  loaded (CUDA with libnccl.so.2); else ACCEL_ERROR_UNSUPPORTED (no such
 *  entries) or ACCEL_ERROR_UNAVAILABLE (library missing), with the reason
 *  in accel_last_error(). Thread-safe. */
ACCEL_API accel_status accel_device_comm_supported(accel_device *dev);

/** A new unique id (id_bytes >= ACCEL_DEVICE_COMM_ID_BYTES) for one group of
 *  ranks, made on one rank and sent to the others by the caller (NCCL's
 *  ncclGetUniqueId). Errors: as accel_device_comm_supported,
 *  ACCEL_ERROR_INVALID_ARGUMENT (out_id NULL or too small),
 *  ACCEL_ERROR_COMMUNICATION (the library failed: its message). */
ACCEL_API accel_status accel_device_comm_id(accel_device *dev, void *out_id, size_t id_bytes);

/** Join rank `rank` of nranks (0 <= rank < nranks) on dev with the id every
 *  rank got (ncclCommInitRank). Collective: blocks until every rank joined.
 *  Errors: as accel_device_comm_id, ACCEL_ERROR_INVALID_HANDLE. */
ACCEL_API accel_status accel_device_comm_create(accel_device *dev, const void *id, size_t id_bytes,
                                                int nranks, int rank, accel_device_comm **out_comm);

/** Leave and free (ncclCommDestroy, after the work queued on it ran). NULL
 *  is a no-op; a released communicator, or one of a closed runtime, is
 *  refused with a warning (communicators are handles, as buffers are).
 *  accel_runtime_close destroys the communicators still alive. */
ACCEL_API void accel_device_comm_release(accel_device_comm *comm);

/** Enqueue d on q (on the communicator's device; the ranges' buffers too).
 *  The caller (libaccel_mpi) has checked counts, ranges, root and dtype;
 *  the core checks handles and devices again. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_DEVICE_MISMATCH,
 *  ACCEL_ERROR_INVALID_ARGUMENT (d NULL or struct_size too small),
 *  ACCEL_ERROR_COMMUNICATION (the library's message). */
ACCEL_API accel_status accel_device_comm_enqueue(accel_device_comm *comm, accel_queue *q,
                                                 const accel_collective_desc *d);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_COLLECTIVE_H */
