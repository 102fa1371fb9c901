/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/graph.h — record the work of a queue once and replay it many times
 * (as CUDA Graphs' stream capture, torch.cuda.graph, CuPy's graph capture):
 * capture, launch, rebinding of buffers, scalars and host pointers without
 * recording again.
 *
 * Included by accel/accel.h; not meant to be included on its own.
 *
 * Capture: between accel_queue_begin_capture(q) and accel_queue_end_capture,
 * ops, user kernel launches (accel/kernel.h; the graph keeps the kernel
 * until it is released, even past accel_kernel_release), transfers
 * (accel_queue_write/read), copies (accel_queue_copy) and event records
 * enqueued on q are validated as usual and recorded instead of run. Buffers created by the
 * capturing thread on q's device during the capture are the graph's temporaries: they belong to the
 * graph and are released with it (accel_buffer_release of one is a no-op). Every other buffer the
 * graph writes is an output the caller reads after a launch. Synchronizing on a capturing queue
 * (accel_queue_finish, the blocking transfers, accel_event_synchronize of an event recorded in the
 * capture) and waiting on an event recorded outside the capture are errors
 * (ACCEL_ERROR_INVALID_ARGUMENT), never a deadlock.
 *
 * Replay: accel_graph_launch enqueues the recorded work on any queue of the
 * graph's device, asynchronously and ordered like one op. A backend with the
 * graph entries (the CPU backend: the whole list as one job of its worker)
 * runs it natively; otherwise, and always while verify mode, the placement
 * report or tracing is on, the core replays it op by op through the same
 * path as eager ops (fallback, verify, trace and report unchanged).
 *
 * Host memory named by recorded transfers must stay valid, and buffers the
 * graph uses must stay alive, for every launch (a released buffer makes the
 * next launch fail with ACCEL_ERROR_INVALID_HANDLE until it is rebound).
 *
 * Thread-safety: graph calls are thread-safe; launches and rebinding of one
 * graph are serialized by the graph (a rebinding applies to later launches;
 * launches already enqueued keep what they were launched with). */
#ifndef ACCEL_GRAPH_H
#define ACCEL_GRAPH_H

#ifdef __cplusplus
extern "C" {
#endif

/* A recorded list of work on one device; the caller owns it
 * (accel_graph_release). */
typedef struct accel_graph accel_graph;

/* What a graph node is (accel_graph_node_info.kind). Append-only. */
typedef enum accel_graph_node_kind {
    ACCEL_GRAPH_NODE_OP = 1,          /* an op of the op table */
    ACCEL_GRAPH_NODE_WRITE = 2,       /* accel_queue_write: host -> buffer */
    ACCEL_GRAPH_NODE_READ = 3,        /* accel_queue_read: buffer -> host */
    ACCEL_GRAPH_NODE_COPY = 4,        /* accel_queue_copy: buffer -> buffer */
    ACCEL_GRAPH_NODE_EVENT_RECORD = 5 /* accel_event_record */
} accel_graph_node_kind;

/** Start recording q: from now on work enqueued on q (by any thread) is
 *  validated and recorded, not run. Work enqueued before keeps running.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE (q), ACCEL_ERROR_INVALID_ARGUMENT (q is
 *  already capturing, or the calling thread is already capturing another
 *  queue), ACCEL_ERROR_OUT_OF_HOST_MEMORY. Thread-safe. */
ACCEL_API accel_status accel_queue_begin_capture(accel_queue *q);

/** Stop recording q and hand back what was recorded as a new graph (the
 *  caller's; *out_graph is NULL on failure). Must be called by the thread
 *  that began the capture. The graph comes back instantiated with the
 *  default options (accel_graph_instantiate: fusion and the backend's graph
 *  are built here, so the compile time falls here, not in a launch). An
 *  empty capture gives a graph of 0 nodes.
 *  When an earlier call during the capture failed to record (out of host
 *  memory), the capture is dropped and that failure is returned. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE (q), ACCEL_ERROR_INVALID_ARGUMENT (q is not
 *  capturing, another thread began it, out_graph NULL),
 *  ACCEL_ERROR_OUT_OF_HOST_MEMORY. Thread-safe. */
ACCEL_API accel_status accel_queue_end_capture(accel_queue *q, accel_graph **out_graph);

/* Graph flags (accel_graph_options.flags). */
#define ACCEL_GRAPH_CORE_REPLAY (1u << 0) /* never the backend's graph entries */
#define ACCEL_GRAPH_NO_FUSION (1u << 1)   /* run every recorded op as recorded */
/* For tests of verify mode only: every fused kernel adds 0.5 to element
 * n/2 of its last output (a planted fault verify must catch and name). */
#define ACCEL_GRAPH_TEST_FAULT (1u << 31)

/* Fusion (on unless ACCEL_GRAPH_NO_FUSION). At instantiate, every maximal
 * run of consecutive op nodes that are elementwise (FILL, COPY, the binary
 * and unary ops, SCALE, AXPBY), of one dtype, f32 or f64 (a dtype change
 * ends the run: no fusion across dtypes, and f16/bf16 ops are never fused),
 * over one element count, whose written ranges are identical to or disjoint
 * from every other range of the run (a partial overlap with a written range
 * ends the run; ranges only read may overlap), of at most 64 ops and 32
 * kernel arguments, becomes ONE elementwise kernel generated from the op
 * table's per-element expressions (accel_op_properties.expr_f32/expr_f64)
 * and built by the kernel compiler of accel/kernel.h (NVRTC on CUDA, the C
 * compiler on the CPU; cached like any kernel). Each range is read once and
 * written once. A temporary that the run writes before reading it and that
 * no node outside the run uses is dead and not written at all (reading it
 * after a launch gives unspecified contents); every other range written is
 * stored. A run whose kernel cannot be built (no compiler) stays unfused.
 * accel_graph_node_info.fused names the kernel a node was fused into
 * ("fused_mul_add": the table names of its ops in order, cut at 63
 * characters); the trace shows each fused launch under that name, and the
 * log (info) lists each kernel with its node range and ops at instantiate
 * ("kernel fused_mul_add: fused nodes 0-1 (accel_mul, accel_add)"); so do
 * verify's messages, and the placement report (accel/verify.h: a row per
 * fused kernel and device with its launches and its nodes and ops).
 * Results may differ from the unfused ops in the last bits (intermediates
 * stay in registers; CUDA contracts a*b+c into one fma); verify mode checks
 * them as below. Rebinding a scalar of a fused op updates the kernel's
 * argument; rebinding a buffer a fused kernel uses plans the graph again in
 * accel_graph_set_buffer itself (kernels of the same text are reused, not
 * rebuilt), never in a launch.
 *
 * Verify mode and fused kernels: a fused kernel's outputs are compared with
 * the unfused op list run on the host from the same inputs, each op rounded
 * to the dtype, within the chain's composed bound: for each op, bound(r) =
 * L + (N + 1) ulp(|r| + L), where L is the first-order propagation of the
 * inputs' bounds through the op (add, sub: ea + eb; mul: |b| ea + |a| eb +
 * ea eb; div: (ea + |a/b| eb) / (|b| - eb); max, min: max(ea, eb); scale,
 * axpby: |alpha| ex (+ |beta| ey); monotone unary ops: the largest move of f
 * over [x - e, x + e]; sin, cos, tanh: e; sigmoid: e/4), N the op's ulps in
 * the op table (AXPBY: of |alpha x| + |beta y|) and the 1 the host's own
 * rounding (Higham, Accuracy and Stability of Numerical Algorithms, §2-3).
 * Elements whose bound is unbounded (a divisor or log argument that may be
 * 0, an infinite result) are not compared. A mismatch names the fused ops. */

/* How to instantiate a graph. */
typedef struct accel_graph_options {
    uint32_t struct_size;
    uint32_t flags; /* ACCEL_GRAPH_* */
    uint64_t reserved[6];
} accel_graph_options;

/** Default options: struct_size set, no flags. */
ACCEL_API void accel_graph_options_init(accel_graph_options *opt);

/** Prepare g for launching with opt (NULL: the defaults): plan it (fusion,
 *  unless ACCEL_GRAPH_NO_FUSION: the fused kernels are built now, so the
 *  compile time falls here, not in a launch), then hand the plan to the
 *  device's backend when it has graph entries and the flags allow it.
 *  accel_queue_end_capture returns the graph instantiated with the defaults;
 *  calling this again re-instantiates it with the new options (also after a
 *  failed rebinding update left it uninstantiated). Launch never
 *  instantiates: all building happens here, at the end of the capture and
 *  in the rebinding calls. A backend that refuses the
 *  list (an op or transfer it cannot record) is not an error: the core
 *  replays instead (accel_graph_backend_replay says which). Errors:
 *  ACCEL_ERROR_INVALID_HANDLE (g, or a buffer g uses was released: g is
 *  left uninstantiated; rebind it with accel_graph_set_buffer and call this
 *  again), ACCEL_ERROR_INVALID_ARGUMENT
 *  (opt->struct_size 0 or unknown flags). Thread-safe. */
ACCEL_API accel_status accel_graph_instantiate(accel_graph *g, const accel_graph_options *opt);

/** Enqueue the graph's work on q, which must be a queue of g's device and not
 *  itself capturing. Asynchronous: a failure inside the replay is sticky on q
 *  and returned by the next synchronizing call with the failing op's name.
 *  A graph with temporaries (accel_graph_temporary_count: buffers made during
 *  its capture, such as a chunked reduction's partials) runs one launch at a
 *  time: a launch on another queue than the one before waits, on the device,
 *  for that launch's end, so two launches never share the temporaries.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE (g, q, or a buffer the graph uses was
 *  released: rebind it with accel_graph_set_buffer), ACCEL_ERROR_DEVICE_MISMATCH
 *  (q on another device), ACCEL_ERROR_INVALID_ARGUMENT (q is capturing, or g
 *  is not instantiated because its last instantiation or rebinding update
 *  failed: call accel_graph_instantiate), and
 *  the statuses of the ops and transfers it enqueues. Thread-safe. */
ACCEL_API accel_status accel_graph_launch(accel_graph *g, accel_queue *q);

/** Replace every use of buffer old_buf in g by new_buf (same device), without
 *  recording again. Every range the graph uses in old_buf is re-checked
 *  against new_buf's size. Temporaries cannot be replaced or be a
 *  replacement. Errors: ACCEL_ERROR_INVALID_HANDLE (g, new_buf; old_buf may
 *  be released already), ACCEL_ERROR_DEVICE_MISMATCH, ACCEL_ERROR_NOT_FOUND
 *  (g does not use old_buf), ACCEL_ERROR_OUT_OF_RANGE (a range does not fit
 *  new_buf; g is unchanged), ACCEL_ERROR_INVALID_ARGUMENT (a temporary; or
 *  a node that uses both buffers would see its range of old_buf overlap its
 *  range of new_buf, an aliasing its recorded call did not have: g is
 *  unchanged). It may also return ACCEL_ERROR_INVALID_HANDLE when another
 *  buffer of a node it updates (or of that node's fused run) was released:
 *  the rebinding is made, and g is planned again by the call that rebinds
 *  that buffer (or by accel_graph_instantiate). Whatever it returns,
 *  accel_graph_launch refuses g while a buffer it uses is released.
 *  Thread-safe. */
ACCEL_API accel_status accel_graph_set_buffer(accel_graph *g, const void *old_buf,
                                              accel_buffer *new_buf);

/** Set scalar `index` of op node `node` (0-based, in recording order) to
 *  value: FILL value (0); SCALE alpha (0); AXPBY alpha, beta (0, 1); GEMM
 *  alpha, beta (0, 1); RANDOM_NORMAL mean, stddev (0, 1; stddev >= 0); a
 *  user kernel launch: argument `index` when it was passed as a scalar,
 *  converted to its parameter's type (an integer parameter takes only an
 *  integral value, |value| <= 2^53, within the type's range: int32, uint8
 *  0..255). Errors: ACCEL_ERROR_INVALID_HANDLE (g), ACCEL_ERROR_OUT_OF_RANGE
 *  (node >= node count, an integer outside its parameter's range),
 *  ACCEL_ERROR_INVALID_ARGUMENT
 *  (not an op node, the op has no scalar `index`, a negative or NaN stddev,
 *  the kernel of an array function of accel/array.h: its scalars are its
 *  arrays' element counts, offsets and strides, checked when recorded),
 *  ACCEL_ERROR_DTYPE_MISMATCH (a non-integral value for an integer
 *  parameter). It may also return ACCEL_ERROR_INVALID_HANDLE when a buffer
 *  of the node (or of its fused run) was released: the value is set, and
 *  g is planned again when that buffer is rebound (accel_graph_set_buffer).
 *  Thread-safe. */
ACCEL_API accel_status accel_graph_set_scalar(accel_graph *g, size_t node, uint32_t index,
                                              double value);

/** Replace the host pointer of every recorded transfer whose host address is
 *  exactly old_ptr (the src of a write, the dst of a read) by new_ptr, which
 *  must hold as many bytes as the largest of those transfers. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE (g; or, with the pointers replaced, a buffer
 *  of an updated transfer released, as accel_graph_set_scalar's),
 *  ACCEL_ERROR_INVALID_ARGUMENT (new_ptr NULL), ACCEL_ERROR_NOT_FOUND (no
 *  transfer uses old_ptr). Thread-safe. */
ACCEL_API accel_status accel_graph_set_host(accel_graph *g, const void *old_ptr, void *new_ptr);

/** Number of recorded nodes of g; 0 for an invalid handle. */
ACCEL_API size_t accel_graph_node_count(const accel_graph *g);

/* One node of a graph, for tests and reports. */
typedef struct accel_graph_node_info {
    uint32_t struct_size;
    uint32_t kind;    /* accel_graph_node_kind */
    uint32_t op;      /* accel_op_code of an OP node (ACCEL_OP_KERNEL: a user kernel), else 0 */
    uint32_t dtype;   /* accel_dtype of an OP node, else 0 */
    const char *name; /* the recorded call's name ("accel_add"); lives with g */
    size_t bytes;     /* transfers and copies: bytes; ops: elements of the output;
                         kernel launches: elements (n, times rows of a reduction) */
    /* The fused kernel this node runs in ("fused_add_mul"), NULL when it
     * runs as recorded or g is not instantiated yet; lives with g's plan. */
    const char *fused;
    uint64_t reserved[3];
} accel_graph_node_info;

/** Describe node `node` of g into *out (out->struct_size must be set).
 *  Errors: ACCEL_ERROR_INVALID_HANDLE (g), ACCEL_ERROR_OUT_OF_RANGE (node),
 *  ACCEL_ERROR_INVALID_ARGUMENT (out NULL, or struct_size below the first
 *  version's, which ended at bytes). At most struct_size bytes are written;
 *  struct_size becomes the size written. Thread-safe. */
ACCEL_API accel_status accel_graph_node_info_get(const accel_graph *g, size_t node,
                                                 accel_graph_node_info *out);

/** Number of temporaries of g (buffers created during its capture). */
ACCEL_API size_t accel_graph_temporary_count(const accel_graph *g);

/** *out_backend = true when the next launch of g runs on its backend's
 *  graph entries (one native graph), false when the core replays it op by op
 *  (no entries, refused, the ACCEL_GRAPH_CORE_REPLAY flag, or verify, report
 *  or trace on). Instantiates g with the defaults if needed. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE (g), ACCEL_ERROR_INVALID_ARGUMENT (NULL
 *  out_backend). Thread-safe. */
ACCEL_API accel_status accel_graph_backend_replay(accel_graph *g, bool *out_backend);

/** Release g after every launch of it has run (as accel_buffer_release:
 *  queued work is waited for), and its temporaries with it. NULL is a no-op.
 *  Thread-safe. */
ACCEL_API void accel_graph_release(accel_graph *g);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_GRAPH_H */
