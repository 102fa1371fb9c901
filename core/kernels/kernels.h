/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernels/kernels.h — what the user-kernel files of the core share:
 * the kernel object and its launches (kernel.c), source generation
 * (kernel_codegen.c) and launch checking (kernel_check.c). The compiled-code
 * cache below them has its own header (kernel_cache.h) and does not see
 * kernel objects. Not installed. */
#ifndef ACCEL_CORE_KERNELS_KERNELS_H
#define ACCEL_CORE_KERNELS_KERNELS_H

#include "accel/kernel.h"

#include "base/handle.h"
#include "base/objects.h"

#define ACCEL__KMAX_PARAMS 32
/* A user kernel launch resolves up to one buffer per parameter in one call,
 * plus its queue and its kernel. */
_Static_assert(ACCEL__CALL_PINS >= ACCEL__KMAX_PARAMS + 2, "a call must pin every kernel argument");
#define ACCEL__KNAME_MAX 64

/* How a raw kernel's scalar parameter is stored (accel_kernel_arg_desc.value). */
typedef enum accel__kstore {
    ACCEL__KS_NONE = 0,
    ACCEL__KS_F32 = 1,
    ACCEL__KS_F64 = 2,
    ACCEL__KS_I32 = 3, /* int, unsigned int */
    ACCEL__KS_I64 = 4, /* long, long long, size_t, ... */
    ACCEL__KS_U8 = 5,
    ACCEL__KS_BITS16 = 6 /* f16, bf16 */
} accel__kstore;

typedef struct accel__kparam {
    char name[ACCEL__KNAME_MAX];
    accel_dtype dtype;   /* ACCEL_DTYPE_INVALID: a raw pointer to any dtype */
    bool output;         /* written (elementwise/reduction outputs, raw non-const pointers) */
    bool pointer;        /* raw kernels: a T * parameter */
    bool is_signed;      /* raw integer scalars */
    accel__kstore store; /* raw scalars */
    char ctype[96];      /* raw: the parameter's type as written, for the twin's cast */
} accel__kparam;

/* One device's compiled code for one scalar mask. */
typedef struct accel__kbuild {
    struct accel__kbuild *next;
    accel_device *dev;
    uint32_t mask;
    accel_be_program *prog; /* NULL when the build failed */
    accel_status status;
    char *message; /* the failure's message */
} accel__kbuild;

/* What a launch checks per parameter, packed (kernel.c fills it from the
 * params when the kernel is made): the launch path reads these few bytes
 * next to kind and nparams instead of the params' records, which lie a
 * cache line or more apart. */
#define ACCEL__KSLOT_ARRAY 1u  /* an array is expected (raw kernels: pointers only) */
#define ACCEL__KSLOT_OUTPUT 2u /* written */
typedef struct accel__kslot {
    uint8_t dtype; /* params[i].dtype */
    uint8_t flags; /* ACCEL__KSLOT_* */
} accel__kslot;

struct accel_kernel {
    accel_kernel *handle;             /* the value callers hold (handle.c) */
    struct accel_kernel *prev, *next; /* the runtime's live kernels (rt->kernels) */
    accel_runtime *rt;
    uint32_t kind; /* ACCEL_KERNEL_* */
    accel__kslot slot[ACCEL__KMAX_PARAMS];
    char name[ACCEL__KNAME_MAX];
    char label[ACCEL__KNAME_MAX + 8]; /* "kernel NAME": messages, trace, report */
    accel__kparam params[ACCEL__KMAX_PARAMS];
    uint32_t nparams, nin;                /* elementwise/reduction: inputs first */
    char *body;                           /* elementwise */
    char *map, *reduce, *identity, *post; /* reduction */
    char *source;                         /* raw: the user's text */
    char *twin_problem;                   /* raw: why the CPU twin cannot run it, or NULL */
    uint32_t tolerance_ulp;
    bool debug; /* raw: every launch a debug launch (accel_kernel_options.debug) */
    /* Made by accel for an array op (accel__kernel_library_create): its
     * scalar arguments are element counts, offsets and strides, checked
     * against the arrays' buffers when the op was called, so a graph may
     * not change them (accel_graph_set_scalar). */
    bool library;
    char *cuda_options;
    pthread_mutex_t lock;
    /* The handle's reference, plus one per recorded launch (a graph node,
     * accel__klaunch_clone) and per pending verify or fallback job: the
     * object is freed at the last. */
    atomic_uint refs;
    accel__kbuild *builds;
    _Atomic(accel__kbuild *) hot; /* the last successful build looked up */
};

/* kernel.c: accel_kernel_raw_create for a kernel of accel's own (the array
 * ops' generated kernels, core/arrays/cache.c): marked library. */
accel_status accel__kernel_library_create(accel_runtime *rt, const char *source, const char *entry,
                                          const accel_kernel_options *opt, accel_kernel **out);

/* kernel_launch.c: accel_kernel_launch_grid of a kernel of accel's own
 * (accel__kernel_library_create) that reads or writes `elements` elements
 * in all: at most ACCEL_LAUNCH_BRIEF_ELEMENTS marks the launch
 * ACCEL_LAUNCH_BRIEF (backend.h), so that the CPU backend may run it on the
 * calling thread. Errors as accel_kernel_launch_grid's. */
accel_status accel__kernel_launch_library(accel_queue *q, accel_kernel *k, const uint32_t grid[3],
                                          const uint32_t block[3], int64_t elements,
                                          size_t num_args, const accel_kernel_arg *args);

/* The launch as the core keeps it; d->kernel points at `be`. */
typedef struct accel__klaunch {
    accel_kernel_launch_desc be;
    accel_kernel *k;
    uint32_t mask;
    accel_kernel_arg_desc args[ACCEL__KMAX_PARAMS];
    /* A graph's fused kernel (core/fuse.h): verify mode checks it against
     * these unfused ops instead of the kernel's CPU twin. NULL otherwise. */
    const struct accel__fchain *chain;
} accel__klaunch;

static inline const accel__klaunch *accel__klaunch_of(const accel_op_desc *d)
{
    return (const accel__klaunch *)(const void *)d->kernel;
}

/* kernel.c: a reference on k for work that outlives the launch call (a
 * recorded launch, a verify or fallback job), and its release (the last
 * one frees the kernel). */
void accel__kernel_retain(accel_kernel *k);
void accel__kernel_unref(accel_kernel *k);

/* kernel.c: a launch that outlives its call, for a graph node: a deep copy
 * of d's launch (arguments, program, scalar mask) holding a reference on the
 * kernel, so accel_kernel_release before the graph's does not free what the
 * node needs. The copy's be field is what a recorded op desc points at
 * (d->kernel = &copy->be). NULL when out of host memory (message set). The
 * programs it names live until the runtime closes. */
accel__klaunch *accel__klaunch_clone(const accel_op_desc *d);
/* Release a copy and its kernel reference. NULL: no-op. */
void accel__klaunch_free(accel__klaunch *L);

/* kernel_codegen.c: the program for one language, malloc'ed, NUL-terminated,
 * and the entry's symbol in entry (ACCEL__KNAME_MAX + 16 bytes). NULL when
 * out of host memory. */
char *accel__kernel_codegen(const accel_kernel *k, uint32_t language, uint32_t mask, char *entry);
/* kernel_codegen.c: the 16-bit float conversions (accel_h2f, accel_f2h,
 * accel_bf2f, accel_f2bf; round to nearest even) that generated elementwise
 * and reduction kernels get, for generators of raw kernels (core/arrays). */
const char *accel__kernel_prelude_16bit(void);
/* kernel_twin.c (the source-text tools): raw sources with comments and string
 * literals blanked to spaces (same length,
 * newlines kept), for scanning. */
void accel__kernel_blank_comments(char *s);
/* The word w at s[i], not inside a longer identifier (prefix: it may go on
 * after w). */
bool accel__kernel_word_at(const char *s, size_t i, const char *w, bool prefix);
/* The identifier that ends at end of b (spaces before end skipped),
 * reaching back no further than lo: [*s, *e), empty where there is none. */
void accel__kernel_name_before(const char *b, size_t lo, size_t end, size_t *s, size_t *e);

/* kernel.c: the language dev's backend compiles (ACCEL_PROGRAM_*): the
 * device kind's usual one (CUDA on a GPU, C elsewhere) unless the backend
 * refuses it and takes the other. */
uint32_t accel__kernel_language(const accel_device *dev);

/* kernel.c: the program of k for dev and mask, building it on first use.
 * Errors are kept per (device, mask) and returned again with their message. */
accel_status accel__kernel_program(accel_kernel *k, accel_device *dev, uint32_t mask,
                                   accel_be_program **out);

/* Element size of a dtype, 0 for unknown (accel_dtype_size). */
static inline size_t accel__kesize(uint32_t dtype)
{
    return accel_dtype_size((accel_dtype)dtype);
}

/* kernel_launch.c: o becomes a scalar argument of dtype dt holding f (the
 * float dtypes; f16 and bf16 travel as float, as the C prelude and the CUDA
 * source read them) or i (the integer dtypes). The caller has checked that
 * the value fits dt. */
void accel__karg_set_scalar(accel_kernel_arg_desc *o, accel_dtype dt, double f, int64_t i);

/* At accel_runtime_close, after the queues drained and the graphs went:
 * drop the caller's reference of every kernel left, then release every
 * program and the cache (kernel.c). */
void accel__kernels_close(accel_runtime *rt);

/* Verify mode's and the fallback's hooks for ACCEL_OP_KERNEL (kernel_check.c),
 * whose arguments have their own dtypes and whose outputs may be several:
 * they stage arguments by the launch descriptor instead of operands.
 * accel_runtime_open installs them as rt->op_hooks[ACCEL_OP_KERNEL]. */
struct accel__op_hooks;
extern const struct accel__op_hooks accel__op_hooks_kernel;

#endif /* ACCEL_CORE_KERNELS_KERNELS_H */
