/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/mpi.h — collectives between processes, one accel device per rank
 * (libaccel_mpi; link with -laccel_mpi -laccel and MPI). The core and programs
 * that do not include this header stay free of MPI.
 *
 * A communicator (accel_comm) is made from an MPI communicator and the one
 * accel device this rank uses. Its collectives take ranges of buffers on that
 * device (accel_slice, in elements of the dtype) and enqueue on an accel
 * queue of that device, ordered with everything else on it, as NCCL's take a
 * CUDA stream.
 *
 * Transports (accel_comm_transport says which one a communicator uses):
 * - "mpi": host-accessible buffers (the CPU device) are handed to MPI as they
 *   are, from a host function on the queue (accel_queue_host_fn).
 * - "nccl": buffers of a backend with collective entries (CUDA, when
 *   libnccl.so.2 loads) go through NCCL on the queue's stream; the NCCL
 *   unique id is shared with an MPI broadcast.
 * - "mpi-staged": any other device (CUDA without NCCL): each collective reads
 *   its range into page-locked host memory on the queue, runs MPI in a host
 *   function, and writes the result back. accel_comm_create logs a warning
 *   naming the reason; ACCEL_MPI_NCCL=0 asks for this path on purpose.
 *
 * Threads: when MPI was initialized with MPI_THREAD_MULTIPLE, collectives
 * run on the queue's thread (on the CPU, also the thread waiting in
 * accel_queue_finish, when the queue's worker is idle) and the calls return
 * at once ("queued mode").
 * Otherwise (SINGLE, FUNNELED, SERIALIZED), or with ACCEL_COMM_BLOCKING
 * (lower latency for small messages: no thread hand-off), each call first
 * finishes the queue, then calls MPI on the calling thread and returns when
 * it is done ("blocking mode", accel_comm_is_blocking); the caller must then
 * be allowed to call MPI. The NCCL transport enqueues on the stream in both
 * modes. In both modes every rank must enqueue the collectives of one
 * communicator in the same order (as MPI and NCCL require); with several
 * queues on one communicator that order is the caller's to keep. A
 * communicator is used by one thread at a time (its calls, not its queued
 * work); different communicators may be used concurrently.
 *
 * Errors: MPI runs with MPI_ERRORS_RETURN on the communicator's private
 * duplicate; an MPI or NCCL failure becomes ACCEL_ERROR_COMMUNICATION with
 * the library's own message (MPI_Error_string, ncclGetErrorString), returned
 * by the call (blocking mode) or by the next accel_queue_finish of the queue.
 * A peer that died or never joins cannot be detected by a blocked MPI call,
 * so a watchdog thread watches every collective in flight: one that has not
 * completed after ACCEL_MPI_TIMEOUT seconds (default 600; 0 disables; the
 * options may override) is reported on stderr with the rank and the call,
 * and the job is ended with MPI_Abort(comm, 1). (mpirun also ends the job
 * when a rank exits without MPI_Finalize.) The watchdog sees MPI calls and
 * NCCL's join (ncclCommInitRank), not NCCL collectives, which run on the
 * GPU after the call returned: a lost peer there blocks accel_queue_finish
 * (NCCL's own settings apply, e.g. NCCL_IB_TIMEOUT on InfiniBand). Where
 * MPI lacks MPI_THREAD_MULTIPLE the watchdog's MPI_Abort from its own
 * thread is best effort; should it return, the process exits.
 *
 * Limits: a send is MPI_Send (or ncclSend), which may wait for its receive:
 * order sends and receives across ranks so that each send meets its
 * receive (e.g. even ranks send first), as with blocking MPI. On CUDA, host
 * functions of all queues run on one callback thread, so staged collectives
 * of different queues run one at a time.
 *
 * Check mode (ACCEL_COMM_CHECK or ACCEL_MPI_CHECK=1): before each collective
 * the ranks compare its kind, count, dtype, op and root with one
 * MPI_Allreduce of 10 int64 on a second private communicator, on the
 * calling thread; a disagreement is ACCEL_ERROR_SHAPE_MISMATCH on every
 * rank naming the values, instead of undefined behaviour. Cost: one small
 * allreduce per call (measured by mpi_bench) and each call waits until
 * every rank has reached it. Point-to-point counts are checked by the
 * receiver instead (always).
 *
 * Verify mode (ACCEL_COMM_VERIFY or ACCEL_MPI_VERIFY=1): each allreduce is
 * cross-checked against the same reduction done on rank 0's CPU in double
 * precision over the gathered inputs; every rank checks its own result
 * against that reference. Sum: |r_i - s_i| <= gamma_{n-1} * sum_k |x_k,i|
 * + u * |s_i| for n ranks, gamma_m = m*u / (1 - m*u), u the unit roundoff of
 * the dtype (2^-24 f32, 2^-53 f64) (Higham 2002, "Accuracy and Stability of
 * Numerical Algorithms", 2nd ed., Lemma 3.1 and eq. 4.4: any order of the
 * n-1 additions obeys it; the last term is the rounding of the reference to
 * the dtype). Max and min must match exactly, as must every integer
 * result (the reference's i32, i64 and u8 sums wrap in the dtype's width;
 * an MPI library may differ on overflow: Open MPI 4.1.4's u8 sum saturates
 * at 255, which verify mode then reports). A violation is
 * ACCEL_ERROR_MISMATCH naming the element, the values and the bound. Cost: a
 * gather of every input to rank 0 and a broadcast of the reference; on the
 * NCCL transport the call also becomes synchronous (the input is read back
 * before the collective, the result after it).
 */
#ifndef ACCEL_MPI_H
#define ACCEL_MPI_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct accel_comm accel_comm; /* the caller's; accel_comm_release */

/* accel_comm_options.flags */
#define ACCEL_COMM_CHECK (1u << 0)    /* compare counts across ranks first */
#define ACCEL_COMM_VERIFY (1u << 1)   /* cross-check allreduce results */
#define ACCEL_COMM_NO_NCCL (1u << 2)  /* stage through host memory and MPI */
#define ACCEL_COMM_BLOCKING (1u << 3) /* blocking mode even with THREAD_MULTIPLE */

typedef struct accel_comm_options {
    uint32_t struct_size;
    uint32_t flags;   /* ACCEL_COMM_*, or'ed with those the environment asks for */
    double timeout_s; /* watchdog seconds; 0: $ACCEL_MPI_TIMEOUT, else 600; < 0: none */
} accel_comm_options;

/** Zero *opt and set struct_size. */
ACCEL_API void accel_comm_options_init(accel_comm_options *opt);

/** Make a communicator over the ranks of mpi_comm, this rank using dev.
 *  Collective over mpi_comm: every rank calls it (with its own device).
 *  MPI must be initialized. mpi_comm is duplicated (MPI_Comm_dup), so the
 *  caller's own traffic on it never mixes with the collectives; the caller
 *  keeps ownership of mpi_comm. opt may be NULL (defaults). With a device
 *  whose backend has collective entries (CUDA with NCCL) rank 0 makes an
 *  NCCL unique id, MPI_Bcast shares it, and every rank joins; the ranks agree
 *  on the transport (one rank without NCCL makes all of them stage).
 *  Errors: ACCEL_ERROR_INVALID_HANDLE (dev), ACCEL_ERROR_INVALID_ARGUMENT
 *  (out_comm NULL, MPI not initialized, mpi_comm MPI_COMM_NULL),
 *  ACCEL_ERROR_COMMUNICATION (an MPI or NCCL call failed: its message),
 *  ACCEL_ERROR_CONFIG (ACCEL_MPI_CHECK, ACCEL_MPI_VERIFY or ACCEL_MPI_NCCL
 *  set to a word that is not a boolean: 1/0, true/false, yes/no, on/off in
 *  any case; the message names the variable and its value),
 *  ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_comm_create(MPI_Comm mpi_comm, accel_device *dev,
                                         const accel_comm_options *opt, accel_comm **out_comm);

/** Release the communicator. Collectives already enqueued keep it alive until
 *  they ran; the caller finishes its queues before MPI_Finalize. Collective
 *  over the communicator's ranks in blocking mode (MPI_Comm_free). NULL is a
 *  no-op. */
ACCEL_API void accel_comm_release(accel_comm *comm);

/** This rank's index, 0..size-1, as in MPI_Comm_rank. */
ACCEL_API int accel_comm_rank(const accel_comm *comm);
/** Number of ranks, as MPI_Comm_size. */
ACCEL_API int accel_comm_size(const accel_comm *comm);
/** The device this rank uses. */
ACCEL_API accel_device *accel_comm_device(const accel_comm *comm);
/** "mpi", "nccl" or "mpi-staged" (see the file comment). */
ACCEL_API const char *accel_comm_transport(const accel_comm *comm);
/** True when calls finish the queue and run MPI on the calling thread. */
ACCEL_API bool accel_comm_is_blocking(const accel_comm *comm);

/* The collectives below enqueue on q (on the communicator's device) and take
 * ranges in elements of dtype (f32, f64, i32, i64 or u8; an integer sum
 * that overflows is the transport's: C's wrap-around in NCCL and most MPI
 * builds). op is ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX or ACCEL_OP_REDUCE_MIN
 * (max/min as MPI_MAX/MPI_MIN: NaN and signed zeros follow the transport).
 * Counts may be 0 (nothing moves, the ranks still take part). A send range
 * equal to the receive range is in place; other overlaps are refused.
 * Common errors: ACCEL_ERROR_INVALID_HANDLE (comm, q or a buffer),
 * ACCEL_ERROR_DEVICE_MISMATCH (q or a buffer not on the communicator's
 * device), ACCEL_ERROR_DTYPE_MISMATCH, ACCEL_ERROR_INVALID_ARGUMENT (op,
 * root or peer out of range, partial overlap), ACCEL_ERROR_OUT_OF_RANGE (a
 * range past its buffer), ACCEL_ERROR_SHAPE_MISMATCH (counts that do not fit
 * the collective; across ranks in check mode), ACCEL_ERROR_COMMUNICATION. */

/** recv[i] = op over ranks of send[i]; send.count == recv.count. */
ACCEL_API accel_status accel_comm_allreduce(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                            accel_op_code op, accel_slice send, accel_slice recv);

/** On root: recv[i] = op over ranks of send[i]. Other ranks' recv is not
 *  written (its count must still equal send.count; its buffer may be NULL). */
ACCEL_API accel_status accel_comm_reduce(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                         accel_op_code op, int root, accel_slice send,
                                         accel_slice recv);

/** buf on every rank = buf on root (buf.count equal on every rank). */
ACCEL_API accel_status accel_comm_broadcast(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                            int root, accel_slice buf);

/** recv = the ranks' send ranges one after the other in rank order:
 *  recv.count == size * send.count. */
ACCEL_API accel_status accel_comm_allgather(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                            accel_slice send, accel_slice recv);

/** recv = block `rank` of (op over ranks of send): send.count == size *
 *  recv.count, block r being send elements [r*recv.count, (r+1)*recv.count)
 *  (MPI_Reduce_scatter_block, ncclReduceScatter). */
ACCEL_API accel_status accel_comm_reduce_scatter(accel_comm *comm, accel_queue *q,
                                                 accel_dtype dtype, accel_op_code op,
                                                 accel_slice send, accel_slice recv);

/** Send buf to rank peer (peer != this rank). Messages between two ranks
 *  arrive in the order they were enqueued on one queue. */
ACCEL_API accel_status accel_comm_send(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                       int peer, accel_slice buf);

/** Receive from rank peer into buf; a message of another count is
 *  ACCEL_ERROR_SHAPE_MISMATCH (or ACCEL_ERROR_COMMUNICATION when longer). */
ACCEL_API accel_status accel_comm_recv(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                       int peer, accel_slice buf);

/* What libaccel_mpi was built with and found, for `accel info`. */
typedef struct accel_mpi_info {
    uint32_t struct_size;
    char mpi_library[128]; /* MPI_Get_library_version's first line */
    int mpi_version, mpi_subversion;
} accel_mpi_info;

/** Fill *info (set info->struct_size first). Works before MPI_Init. */
ACCEL_API accel_status accel_mpi_info_get(accel_mpi_info *info);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_MPI_H */
