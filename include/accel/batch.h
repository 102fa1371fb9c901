/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/batch.h — streaming host data larger than device memory through a
 * device in chunks, with the host->device copies, the caller's compute and the
 * device->host copies of different chunks overlapped over several queues (the
 * tutorial's "batches" and "streams" together), and page-locking memory the
 * caller already holds (as cudaHostRegister).
 *
 * Included by accel/accel.h; not meant to be included on its own. Units:
 * bytes for every size and offset here, host memory is the caller's. */
#ifndef ACCEL_BATCH_H
#define ACCEL_BATCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ registered memory */

/** Page-lock `bytes` of host memory at ptr that the caller allocated (malloc,
 *  mmap, a NumPy array), so that transfers between it and dev's backend run
 *  at the pinned rate (cudaHostRegister on CUDA; plain memory on a backend
 *  without page-locking, where the call only records the range). Any
 *  alignment and size; bytes = 0 records nothing and succeeds. The memory
 *  stays the caller's: it must outlive the registration, and is unregistered
 *  by accel_host_unregister or, at the latest, by accel_runtime_close.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE (dev), ACCEL_ERROR_INVALID_ARGUMENT (ptr
 *  NULL with bytes > 0, ptr + bytes overflows, or the range overlaps one
 *  already registered), ACCEL_ERROR_DEVICE (the system refused to lock it:
 *  the message gives the driver's reason, e.g. the locked-memory limit),
 *  ACCEL_ERROR_OUT_OF_HOST_MEMORY. Thread-safe. */
ACCEL_API accel_status accel_host_register(accel_device *dev, void *ptr, size_t bytes);

/** Undo accel_host_register(dev, ptr, ...): ptr must be the start of a
 *  registered range (of any device of the runtime). Waits for nothing: the
 *  caller must make sure no queued transfer still reads or writes the range
 *  (a finish or an event). Errors: ACCEL_ERROR_INVALID_HANDLE (dev),
 *  ACCEL_ERROR_NOT_FOUND (ptr does not start a registered range),
 *  ACCEL_ERROR_DEVICE (the driver refused). Thread-safe. */
ACCEL_API accel_status accel_host_unregister(accel_device *dev, void *ptr);

/* ------------------------------------------------------------ batch runs */

#define ACCEL_BATCH_MAX_ARRAYS 4

/* One host array of a batch run. Inputs and proportional outputs hold
 * desc->n elements of elem_size bytes; chunk c covers elements [c.first,
 * c.first + c.elems). A fixed output (chunk_bytes > 0, for a reduction's
 * partial results) gets chunk_bytes per chunk at host + index * chunk_bytes:
 * size it with accel_batch_plan. */
typedef struct accel_batch_array {
    void *host;         /* host memory: pageable, pinned or registered; inputs are only read */
    size_t bytes;       /* capacity of host, checked against what the run reads or writes */
    size_t elem_size;   /* bytes per element (inputs, proportional outputs) */
    size_t chunk_bytes; /* outputs only: fixed bytes per chunk instead of elem_size */
} accel_batch_array;

/* One chunk, as handed to the compute function. Device buffers hold the
 * chunk's part of each array at byte 0. */
typedef struct accel_batch_chunk {
    uint32_t struct_size;
    uint32_t slot;                             /* queue and buffers used, 0..queues-1 */
    uint64_t index;                            /* chunk number, 0, 1, ... */
    size_t first;                              /* first element of the chunk */
    size_t elems;                              /* elements in the chunk */
    accel_buffer *in[ACCEL_BATCH_MAX_ARRAYS];  /* input i's elements [first, first + elems) */
    accel_buffer *out[ACCEL_BATCH_MAX_ARRAYS]; /* room for output i's part of the chunk */
} accel_batch_chunk;

/* The caller's work on one chunk: enqueue it on q (ops, kernels, graphs; no
 * blocking calls), reading chunk->in[] and writing chunk->out[]. Anything
 * but ACCEL_SUCCESS stops the run and is returned by it. */
typedef accel_status (*accel_batch_fn)(accel_queue *q, const accel_batch_chunk *chunk, void *user);

/* What to stream: n elements of in_count input arrays through compute into
 * out_count output arrays. */
typedef struct accel_batch_desc {
    uint32_t struct_size;
    uint32_t queues;              /* 0: chosen (2 or 3); else 1..4 (more: 4) */
    size_t n;                     /* elements; 0 is a run of no chunks */
    uint32_t in_count, out_count; /* 1..4 inputs, 0..4 outputs */
    accel_batch_array in[ACCEL_BATCH_MAX_ARRAYS];
    accel_batch_array out[ACCEL_BATCH_MAX_ARRAYS];
    accel_batch_fn compute; /* required */
    void *user;             /* passed to compute */
    size_t device_bytes;    /* device memory for the run's buffers (0: a quarter of the free
                               memory, at most 1 GiB) */
    size_t chunk_elems;     /* elements per chunk (0: chosen from measured rates) */
    uint64_t reserved[4];
} accel_batch_desc;

/* How a run was (or would be) cut, and what it achieved. */
typedef struct accel_batch_stats {
    uint32_t struct_size;
    uint32_t queues;    /* queues (and buffer sets) used */
    size_t chunk_elems; /* elements per chunk (the last may be shorter) */
    uint64_t chunks;    /* number of chunks */
    double h2d_gbs;     /* measured copy-in rate of input 0 (1e9 B/s; 0: not measured) */
    double compute_gbs; /* chunk 0's input bytes over its compute time (0: not measured) */
    double ms;          /* wall time of the chunks (probe, queues, buffers, staging excluded) */
    double gbs;         /* bytes copied in and out / ms */
    /* Where the whole call's time went, wall ms (0: the phase did not run).
     * A run reuses the queues, buffers and staging of the device's previous
     * run where they fit, so a warm call's setup and warm-up are short. */
    double probe_ms;    /* timing copies for the automatic cut */
    double setup_ms;    /* queues, events and device buffers made or taken over */
    double warm_ms;     /* the first transfer of each queue (a backend's staging, copy threads) */
    double teardown_ms; /* results handed back, queues and buffers kept or released */
    double call_ms;     /* the whole call, entry to return */
    uint64_t reserved[4];
} accel_batch_stats;

/** Set d to defaults (struct_size, everything else 0). */
ACCEL_API void accel_batch_desc_init(accel_batch_desc *d);
/** Set s to zeros with its struct_size. */
ACCEL_API void accel_batch_stats_init(accel_batch_stats *s);

/** How accel_batch_run would cut desc on dev, without running the compute.
 *  When chunk_elems or queues is 0 this times copies of input 0's first
 *  bytes (a few milliseconds) to pick them, once per device and kind of
 *  memory (page-locked by accel or not): later plans and runs on the same
 *  kind reuse that measurement (probe_ms 0). Copy the returned chunk_elems
 *  and queues into desc to make a later run cut the same way (needed to size
 *  a fixed output: chunks * chunk_bytes). Output host pointers may still be
 *  NULL here. Errors as accel_batch_run. */
ACCEL_API accel_status accel_batch_plan(accel_device *dev, const accel_batch_desc *desc,
                                        accel_batch_stats *out_stats);

/** Stream desc's arrays through dev in chunks: for each chunk, on one of
 *  several queues in turn, copy its part of every input in, call
 *  desc->compute, copy its part of every output back, so that one chunk's
 *  copies overlap another's compute (and, on devices with a copy engine each
 *  way, copies in and out overlap). Chunks of one slot run in order; the run
 *  returns when every output is in host memory. desc->compute is called on
 *  the caller's thread, in chunk order; with several queues the copies in
 *  are enqueued by a thread of the run's own, at most queues - 1 chunks
 *  ahead (from pageable memory a copy-in is a host copy, which then no
 *  longer waits for the caller's enqueues).
 *  Automatic cut (chunk_elems or queues 0), as accel_batch_plan: from the
 *  measured copy-in rate of this very input (pageable and pinned memory are
 *  measured as what they are), the gap between two transfers and the host
 *  time of an enqueue, chunks are cut so that the per-chunk gaps and the
 *  pipeline's fill and drain together stay a few percent of the run, within
 *  device_bytes; queues = 2, or 3 with a proportional output (its copy-out is
 *  a third stage). The compute is assumed not slower than the copies
 *  (streaming work); its measured rate on chunk 0 is in compute_gbs.
 *  out_stats (may be NULL; struct_size honoured) gets the cut, rates and
 *  where the call's time went. A run leaves its queues (with the backend's
 *  page-locked staging on them), events, copy-in thread and page-locked
 *  room for fixed outputs on dev for the next run there, as CuPy's pools
 *  keep memory: a later call skips that setup (tens of milliseconds on
 *  CUDA from pageable memory). They are released at accel_runtime_close,
 *  or at once after a failed run. Input memory that accel page-locked
 *  (accel_host_register, accel_host_alloc) is copied in from the caller's
 *  thread; any other input by the run's own thread, as a host copy.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT (NULL
 *  compute, in_count 0 or above 4, out_count above 4, a NULL host pointer,
 *  elem_size 0, an output with both or neither of elem_size and chunk_bytes,
 *  struct_size too small), ACCEL_ERROR_OUT_OF_RANGE (an array's bytes too
 *  small for n elements or for the chunks), ACCEL_ERROR_OUT_OF_DEVICE_MEMORY
 *  (device_bytes too small for one element per queue), the errors of buffer
 *  creation and transfers, and the compute's own status, with
 *  accel_last_error() naming the chunk. Runs on different devices may
 *  proceed at once; one desc must not be run twice at once. */
ACCEL_API accel_status accel_batch_run(accel_device *dev, const accel_batch_desc *desc,
                                       accel_batch_stats *out_stats);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_BATCH_H */
