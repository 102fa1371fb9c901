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

/* One chunk, as handed to the compute function. */
typedef struct accel_batch_chunk {
    uint32_t struct_size;
    uint32_t slot;       /* which queue and buffer pair runs it, 0..queues-1 */
    uint64_t index;      /* chunk number, 0, 1, ... in input order */
    size_t in_offset;    /* bytes into desc->in where this chunk starts */
    size_t in_bytes;     /* bytes of input in the chunk (a multiple of in_elem_size) */
    size_t elems;        /* in_bytes / in_elem_size */
    accel_buffer *in;    /* device buffer; the chunk's input is at byte 0 */
    accel_buffer *out;   /* device buffer for the chunk's output at byte 0; NULL without output */
    size_t out_offset;   /* bytes into desc->out where the chunk's output goes */
    size_t out_bytes;    /* bytes of output read back after compute (0: none) */
} accel_batch_chunk;

/* The caller's work on one chunk: enqueue it on q (ops, kernels, graphs; no
 * blocking calls), reading chunk->in and writing chunk->out. Return a status;
 * anything but ACCEL_SUCCESS stops the run and is returned by it. */
typedef accel_status (*accel_batch_fn)(accel_queue *q, const accel_batch_chunk *chunk, void *user);

/* What to stream. Output is either proportional to the input (out_elem_size
 * > 0: every input element gives one output element of that size, as for an
 * elementwise op) or a fixed number of bytes per chunk (out_chunk_bytes > 0,
 * as for a reduction's partial results; chunk i's land at out + i *
 * out_chunk_bytes, so size out with accel_batch_plan). Both 0: no output. */
typedef struct accel_batch_desc {
    uint32_t struct_size;
    uint32_t queues;         /* 0: chosen (2 or 3); else 1..4 (more are cut to 4) */
    const void *in;          /* host input: pageable, pinned or registered */
    size_t in_bytes;         /* a multiple of in_elem_size; 0 is a run of no chunks */
    size_t in_elem_size;     /* chunks start at multiples of this (e.g. 4 for f32) */
    void *out;               /* host output, or NULL when there is none */
    size_t out_bytes;        /* capacity of out; checked against what the run writes */
    size_t out_elem_size;    /* proportional output, see above */
    size_t out_chunk_bytes;  /* fixed output per chunk, see above */
    accel_batch_fn compute;  /* required */
    void *user;              /* passed to compute */
    size_t device_bytes;     /* device memory the run may use for its buffers (0: a quarter of
                                the free memory, at most 1 GiB) */
    size_t chunk_bytes;      /* input bytes per chunk (0: chosen from measured rates) */
    uint64_t reserved[4];
} accel_batch_desc;

/* How a run was (or would be) cut, and what it achieved. */
typedef struct accel_batch_stats {
    uint32_t struct_size;
    uint32_t queues;        /* queues (and buffer pairs) used */
    size_t chunk_bytes;     /* input bytes per chunk (the last may be shorter) */
    uint64_t chunks;        /* number of chunks */
    double h2d_gbs;         /* measured host->device rate of this input (1e9 B/s; 0: not measured) */
    double compute_gbs;     /* measured compute rate on input bytes (0: not measured) */
    double ms;              /* wall time of the run (0 from accel_batch_plan) */
    double gbs;             /* (in_bytes + output bytes) / ms */
    uint64_t reserved[4];
} accel_batch_stats;

/** Set d to defaults (struct_size, everything else 0). */
ACCEL_API void accel_batch_desc_init(accel_batch_desc *d);
/** Set s to zeros with its struct_size. */
ACCEL_API void accel_batch_stats_init(accel_batch_stats *s);

/** How accel_batch_run would cut desc on dev, without running the compute:
 *  when chunk_bytes or queues is 0 this times one host->device copy of the
 *  input's first bytes (a few milliseconds) to pick them. Copy the returned
 *  chunk_bytes and queues into desc to make a later run cut the same way
 *  (needed to size out for fixed output per chunk: chunks * out_chunk_bytes).
 *  Errors as accel_batch_run. */
ACCEL_API accel_status accel_batch_plan(accel_device *dev, const accel_batch_desc *desc,
                                        accel_batch_stats *out_stats);

/** Stream desc->in through dev in chunks: for each chunk, on one of several
 *  queues in turn, copy it in, call desc->compute, copy its output back, so
 *  that chunk i's copies overlap chunk i±1's compute. Chunks of one slot are
 *  ordered; the run returns when every chunk's output is in desc->out.
 *  Automatic choice (chunk_bytes or queues 0): as accel_batch_plan, from
 *  the measured copy-in rate of this very input, the gap between two
 *  transfers and the host time of an enqueue, so that the per-chunk gaps and
 *  the pipeline's fill and drain together stay a few percent of the run,
 *  within device_bytes; queues = 2, or 3 when the output is proportional to
 *  the input (its copy-out is a third stage). The compute is assumed not
 *  slower than the copies (streaming work); its measured rate on chunk 0 is
 *  reported in compute_gbs.
 *  out_stats (may be NULL; struct_size honoured) gets the plan and rates.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT (NULL
 *  compute, in NULL with in_bytes > 0, in_elem_size 0 or not dividing
 *  in_bytes, both output modes set, output without out, struct_size too small),
 *  ACCEL_ERROR_OUT_OF_RANGE (out_bytes smaller than the output), the
 *  errors of buffer creation, transfers and of compute (returned as they
 *  are, with accel_last_error() naming the chunk). Not thread-safe on one
 *  desc; runs on different devices may proceed at once. */
ACCEL_API accel_status accel_batch_run(accel_device *dev, const accel_batch_desc *desc,
                                       accel_batch_stats *out_stats);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_BATCH_H */
