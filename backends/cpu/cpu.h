/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cpu.h — declarations shared by the CPU backend's files: the plugin context,
 * buffers, the resolved op record that queues carry, and the entry points of
 * each file. Everything here is internal to libaccel_cpu.so (hidden). */
#ifndef ACCEL_CPU_H
#define ACCEL_CPU_H

#include <fenv.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/backend.h"
#include "common/dtype.h"

/* Elements per parallel block of elementwise ops and random fills. */
#define ACCEL_CPU_EW_BLOCK 16384
/* Elements per reduction block. Fixed (not derived from the thread count) so
 * that sums do not depend on how many threads ran them. */
#define ACCEL_CPU_REDUCE_BLOCK 8192
/* Room for an error message kept on a queue until the next synchronizing call. */
#define ACCEL_CPU_MSG_SIZE 256

/* Runs the statement(s) for each size_t B_ in [0, NB): over a team of `nt`
 * threads (a variable of that name must be in scope) when there is more than
 * one block and thread, else inline, since entering an OpenMP region costs
 * about a microsecond. Blocks are fixed by the caller, never by the team size. */
// clang-format off
#define ACCEL_CPU_FOR_BLOCKS(B_, NB, ...)                                       \
    do {                                                                        \
        const size_t for_nb_ = (NB);                                            \
        if (for_nb_ <= 1 || nt <= 1) {                                         \
            for (size_t B_ = 0; B_ < for_nb_; ++B_) {                           \
                __VA_ARGS__;                                                    \
            }                                                                   \
            break;                                                              \
        }                                                                       \
        _Pragma("omp parallel for num_threads(nt) schedule(static)")           \
        for (size_t B_ = 0; B_ < for_nb_; ++B_) {                               \
            __VA_ARGS__;                                                        \
        }                                                                       \
    } while (0)
// clang-format on

/* A freed buffer's mapping kept for the next buffer of its size (maps.c). */
typedef struct accel_cpu_map {
    void *map;
    size_t map_bytes, body;
} accel_cpu_map;
enum { ACCEL_CPU_MAPS_KEPT = 8 };

typedef struct accel_cpu_ctx {
    const accel_host_services *host;
    pthread_mutex_t map_lock; /* guards maps and kept_bytes */
    accel_cpu_map maps[ACCEL_CPU_MAPS_KEPT];
    uint32_t nmaps;
    size_t kept_bytes;
    int threads; /* OpenMP team size of ops; also OpenBLAS's thread count */
    char device_name[128];
    char blas_version[32]; /* "OpenBLAS 0.3.21" */
    char blas_variant[32]; /* folder of the bound library, "openblas-pthread" */
    /* program_identity's last answer and what it was made from (kernel.c
     * identity_memo); ident_inputs is malloc'd, NULL until the first. */
    pthread_mutex_t ident_lock;
    char *ident_inputs;
    char ident_real[4096]; /* the compiler's resolved path */
    char ident_cc[4096];   /* where `cc` resolved then ("" none) */
    long long ident_size, ident_mtime, ident_mode, ident_uid;
    char ident[1024];
} accel_cpu_ctx;

struct accel_be_buffer {
    void *data; /* 64-byte aligned; valid (non-NULL) also for 0 bytes */
    size_t bytes;
    int wrapped; /* data is someone else's (buffer_wrap): never freed here */
    /* Large buffers: the whole mapping, guard regions included (backend.c);
     * NULL for the heap. */
    void *map;
    size_t map_bytes;
};

/* One op with operand addresses resolved, copied into a queue by value so the
 * caller's accel_op_desc may be freed as soon as op_execute returns. */
typedef struct accel_cpu_op {
    uint32_t op;    /* accel_op_code */
    uint32_t dtype; /* accel_dtype */
    void *ptr[4];   /* operand addresses (buffer data + offset) */
    size_t count[4];
    double scalars[4];
    uint64_t seed, rng_offset;
    uint32_t trans_a, trans_b;
    uint32_t flags; /* ACCEL_OP_FLAG_* */
    size_t m, n, k, lda, ldb, ldc;
    size_t batch_count, stride_a, stride_b, stride_c;
    char name[48]; /* the public function's name, for messages */
} accel_cpu_op;

/* blas.c: the OpenBLAS the plugin bound itself (dlopen + dlsym), once per
 * process; ok == 0 and error say why not. Calls go through these pointers
 * only, never through the process's global symbols. */
typedef struct accel_cpu_blas {
    int ok;
    void *handle;
    void (*sgemm)(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a,
                  int lda, const float *b, int ldb, float beta, float *c, int ldc);
    void (*dgemm)(int order, int ta, int tb, int m, int n, int k, double alpha, const double *a,
                  int lda, const double *b, int ldb, double beta, double *c, int ldc);
    char *(*get_config)(void);
    void (*set_num_threads)(int n);
    int (*get_num_threads)(void);
    char path[512];   /* the file the functions come from (dladdr, realpath) */
    char config[128]; /* openblas_get_config() */
    char version[32]; /* "OpenBLAS 0.3.21" */
    char error[512];
} accel_cpu_blas;
/* The alignment of every buffer's data, in bytes. */
#define ACCEL_CPU_ALIGN 64
/* Buffers from this size on live in mappings of their own (maps.c). */
#define ACCEL_CPU_GUARDED_BYTES ((size_t)256 << 10)

/* maps.c: a buffer of bytes (>= ACCEL_CPU_GUARDED_BYTES) in a mapping of its
 * own between guard regions, a kept one reused where one of its size was
 * freed; the data's address, the mapping in *map and *map_bytes, or NULL
 * (the caller then uses the heap). */
void *accel_cpu__map_alloc(accel_cpu_ctx *ctx, size_t bytes, void **map, size_t *map_bytes);
/* Gives a buffer's mapping back: kept for reuse, or unmapped. */
void accel_cpu__map_free(accel_cpu_ctx *ctx, void *map, size_t map_bytes, size_t bytes);
/* Unmaps every kept mapping (at shutdown). */
void accel_cpu__maps_drop(accel_cpu_ctx *ctx);

const accel_cpu_blas *accel_cpu__blas(void);
/* CBLAS constants (cblas.h): the values are fixed by the CBLAS standard. */
#define ACCEL_CPU_CBLAS_ROW_MAJOR 101
#define ACCEL_CPU_CBLAS_NO_TRANS 111
#define ACCEL_CPU_CBLAS_TRANS 112
/* Before a GEMM: ACCEL_ERROR_OUT_OF_HOST_MEMORY with a message (starting
 * with name) when the process is under an address-space, data or commit
 * limit and cannot map OpenBLAS's work space now. */
int32_t accel_cpu__blas_headroom(const char *name, char *msg, size_t msg_size);
/* Set the calling thread's floating-point environment to the IEEE default:
 * round to nearest, FTZ and DAZ off (queue workers and their OpenMP teams). */
void accel_cpu__fp_env_default(void);

/* The caller's FP environment around work run on its own thread (an
 * inline op): accel_cpu__fp_enter sets the IEEE default the kernels assume
 * and accel_cpu__fp_leave puts the caller's back, flags included. Where it
 * is the default already (x86-64: MXCSR 0x1f80 but for its sticky flags,
 * x87 control word 0x037f, no x87 flag raised), enter changes nothing and
 * leave restores MXCSR and clears the x87 flags: three cheap instructions
 * where fegetenv, fesetenv(FE_DFL_ENV) and fesetenv took about 10% of a
 * 1024-element add(out=) from Python (perf, 2026-12-06). */
typedef struct accel_cpu_fp_saved {
    fenv_t env;
    unsigned csr;
    int quick;
} accel_cpu_fp_saved;
void accel_cpu__fp_enter(accel_cpu_fp_saved *s);
void accel_cpu__fp_leave(const accel_cpu_fp_saved *s);

/* Each runs one op on the calling thread (the queue's worker) with an OpenMP
 * team of `threads`, and returns an accel_status; on failure it writes a
 * message that starts with op->name into msg. */
int32_t accel_cpu__op_run(const accel_cpu_op *op, int threads, char *msg, size_t msg_size);
void accel_cpu__elementwise(const accel_cpu_op *op, int threads);
int32_t accel_cpu__reduce(const accel_cpu_op *op, int threads, char *msg, size_t msg_size);
int32_t accel_cpu__gemm(const accel_cpu_op *op, int threads, char *msg, size_t msg_size);
void accel_cpu__random(const accel_cpu_op *op, int threads);
void accel_cpu__transpose(const accel_cpu_op *op, int threads);
/* sort.cc: ACCEL_OP_SORT and ACCEL_OP_ARGSORT by an LSD radix sort on
 * order-preserving unsigned keys. */
int32_t accel_cpu__sort(const accel_cpu_op *op, int threads, char *msg, size_t msg_size);
/* linalg.c: the ACCEL_OP_KIND_LINALG ops through OpenBLAS's LAPACK. */
int32_t accel_cpu__linalg(const accel_cpu_op *op, int threads, char *msg, size_t msg_size);
/* fft.cc: ACCEL_OP_FFT, ACCEL_OP_RFFT and ACCEL_OP_IRFFT through kissfft's
 * C++ template (kissfft.hh) in float or double. */
int32_t accel_cpu__fft(const accel_cpu_op *op, int threads, char *msg, size_t msg_size);
/* scan.c: ACCEL_OP_CUMSUM, floats summed in double, integers wrapping. */
int32_t accel_cpu__scan(const accel_cpu_op *op, int threads, char *msg, size_t msg_size);

/* kernel.c: user kernels (program entries; launches of ACCEL_OP_KERNEL). */
int32_t accel_cpu__program_identity(void *ctx, uint32_t device, uint32_t language, char *out,
                                    size_t size);
int32_t accel_cpu__program_build(void *ctx, uint32_t device, const accel_program_desc *d,
                                 accel_be_program **out, const void **out_binary,
                                 size_t *out_binary_size);
void accel_cpu__program_release(void *ctx, accel_be_program *p);
int32_t accel_cpu__kernel_enqueue(accel_cpu_ctx *ctx, accel_be_queue *q, const accel_op_desc *d);
/* A launch resolved ahead of its queue (graph nodes): the job, run any
 * number of times with exec, copied with clone, freed with free. exec
 * returns the launch's status (a failure's message in msg). */
int32_t accel_cpu__kernel_prepare(accel_cpu_ctx *ctx, const accel_op_desc *d, void **out_job);
int32_t accel_cpu__kernel_exec(const void *job, int threads, char *msg, size_t msg_size);
void *accel_cpu__kernel_clone(const void *job);
void accel_cpu__kernel_free(void *job);

/* ops.c: the op_supported and op_execute entries. */
int32_t accel_cpu__op_supported(void *ctx, uint32_t device, const accel_op_desc *desc);
int32_t accel_cpu__op_execute(void *ctx, accel_be_queue *q, const accel_op_desc *desc);
/* The checks of op_execute and desc resolved to addresses into *out, not
 * enqueued (graph.c builds its node list with it); *out is written before
 * the size limits are checked, so it holds nothing usable on a failure. */
int32_t accel_cpu__op_resolve(void *ctx, const accel_op_desc *desc, accel_cpu_op *out);

/* graph.c: the graph entries. A launch is one work task of the queue's
 * worker (queue.c) that runs the node list over a snapshot it holds. */
int32_t accel_cpu__graph_instantiate(void *ctx, uint32_t device, const accel_graph_node_desc *nodes,
                                     size_t n, accel_be_graph **out);
int32_t accel_cpu__graph_launch(void *ctx, accel_be_queue *q, accel_be_graph *graph);
int32_t accel_cpu__graph_update(void *ctx, accel_be_graph *graph, size_t index,
                                const accel_graph_node_desc *node);
void accel_cpu__graph_destroy(void *ctx, accel_be_graph *graph);

/* queue.c: queues, transfers, host functions and events. */
int32_t accel_cpu__queue_create(void *ctx, uint32_t device, accel_be_queue **out);
void accel_cpu__queue_destroy(void *ctx, accel_be_queue *q);
int32_t accel_cpu__queue_finish(void *ctx, accel_be_queue *q);
int32_t accel_cpu__queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst,
                               size_t dst_offset, const void *src, size_t bytes);
int32_t accel_cpu__queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                              void *dst, size_t bytes);
int32_t accel_cpu__queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                              accel_be_buffer *dst, size_t dst_offset, size_t bytes);
int32_t accel_cpu__queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user);
/* Work the worker runs without knowing what it is: an op, a kernel launch
 * or a graph launch, each with the functions its room gives (ops.c,
 * kernel.c, graph.c), so the queue calls none of them by name. run returns
 * a status with its message in msg; discard (may be NULL) frees what a
 * skipped task holds (after an earlier failure). */
typedef struct accel_cpu_work {
    int32_t (*run)(struct accel_cpu_work *w, int threads, char *msg, size_t msg_size);
    void (*discard)(struct accel_cpu_work *w);
    union {
        accel_cpu_op op; /* ops */
        void *ptr;       /* a graph launch's node list; a kernel launch too large for kjob */
        /* a user kernel launch held in place (kernel.c) */
        uint64_t kjob[sizeof(accel_cpu_op) / sizeof(uint64_t)];
        struct {
            void *dst;
            const void *src;
            size_t bytes;
        } copy; /* a small transfer run on the caller's thread (queue.c) */
    } u;
} accel_cpu_work;
/* queue.c: append w (copied) to q. */
int32_t accel_cpu__queue_enqueue_work(accel_be_queue *q, const accel_cpu_work *w);
/* queue.c: run w now on the calling thread if q is idle (1), else 0. */
int accel_cpu__queue_run_inline(accel_be_queue *q, accel_cpu_work *w);
int32_t accel_cpu__event_create(void *ctx, uint32_t device, accel_be_event **out);
void accel_cpu__event_destroy(void *ctx, accel_be_event *ev);
int32_t accel_cpu__event_record(void *ctx, accel_be_event *ev, accel_be_queue *q);
int32_t accel_cpu__queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev);
int32_t accel_cpu__event_synchronize(void *ctx, accel_be_event *ev);
int32_t accel_cpu__event_query(void *ctx, accel_be_event *ev, int *out_done);
int32_t accel_cpu__event_elapsed_ms(void *ctx, accel_be_event *start, accel_be_event *end,
                                    double *out_ms);

#endif /* ACCEL_CPU_H */
