/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/dlpack.c — DLPack tensors and capsules for the Python package (see
 * accel/dlpack.h): the deleters run in C, at whatever time and on whatever
 * thread the consumer drops the tensor. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accel/dlpack.h"

#include "base/objects.h"
#include "base/status.h"

/* DLPack's structs (dlpack.h, DLPACK_VERSION 0.8), laid out as there. */
typedef struct dl_device {
    int32_t device_type;
    int32_t device_id;
} dl_device;

typedef struct dl_data_type {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} dl_data_type;

typedef struct dl_tensor {
    void *data;
    dl_device device;
    int32_t ndim;
    dl_data_type dtype;
    int64_t *shape;
    int64_t *strides;
    uint64_t byte_offset;
} dl_tensor;

typedef struct dl_managed_tensor {
    dl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct dl_managed_tensor *self);
} dl_managed_tensor;

/* DLPack 1.0: the versioned form ("dltensor_versioned" capsules). */
typedef struct dl_managed_tensor_versioned {
    struct {
        uint32_t major, minor;
    } version;
    void *manager_ctx;
    void (*deleter)(struct dl_managed_tensor_versioned *self);
    uint64_t flags;
    dl_tensor dl_tensor;
} dl_managed_tensor_versioned;

/* The tensor and its shape in one allocation. */
typedef struct owned_tensor {
    dl_managed_tensor m;
    int64_t shape[32];
} owned_tensor;

typedef struct owned_tensor_versioned {
    dl_managed_tensor_versioned m;
    int64_t shape[32];
} owned_tensor_versioned;

/* The Python C API of the running process, looked up on first use. */
typedef int (*gil_ensure_fn)(void);
typedef void (*gil_release_fn)(int);
typedef void (*decref_fn)(void *);
typedef int (*capsule_is_valid_fn)(void *, const char *);
typedef void *(*capsule_get_pointer_fn)(void *, const char *);

static void *py_symbol(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

static void drop_python_ref(void *obj)
{
    gil_ensure_fn ensure = (gil_ensure_fn)(uintptr_t)py_symbol("PyGILState_Ensure");
    gil_release_fn release = (gil_release_fn)(uintptr_t)py_symbol("PyGILState_Release");
    decref_fn decref = (decref_fn)(uintptr_t)py_symbol("Py_DecRef");
    if (!ensure || !release || !decref) {
        accel__log(ACCEL_LOG_WARN, "accel_dlpack: no Python C API in this process; a Python "
                                   "reference of a DLPack tensor is kept");
        return;
    }
    int state = ensure();
    decref(obj);
    release(state);
}

/* An owned tensor (either DLPack struct) freed with its Python reference. */
static void owned_free(void *self, void *manager_ctx)
{
    if (manager_ctx)
        drop_python_ref(manager_ctx);
    free(self);
}

static void owned_deleter(dl_managed_tensor *self)
{
    if (self)
        owned_free(self, self->manager_ctx);
}

static void owned_deleter_versioned(dl_managed_tensor_versioned *self)
{
    if (self)
        owned_free(self, self->manager_ctx);
}

static void fill_tensor(dl_tensor *t, int64_t *shape_store, void *data, int32_t device_type,
                        int32_t device_id, uint8_t code, uint8_t bits, int32_t ndim,
                        const int64_t *shape)
{
    if (ndim > 0)
        memcpy(shape_store, shape, (size_t)ndim * sizeof *shape);
    t->data = data;
    t->device.device_type = device_type;
    t->device.device_id = device_id;
    t->ndim = ndim;
    t->dtype.code = code;
    t->dtype.bits = bits;
    t->dtype.lanes = 1;
    t->shape = shape_store;
    t->strides = NULL;
    t->byte_offset = 0;
}

accel_status accel_dlpack_tensor_create(void *data, int32_t device_type, int32_t device_id,
                                        uint8_t code, uint8_t bits, int32_t ndim,
                                        const int64_t *shape, uint32_t version_major,
                                        void *py_owner, void **out_managed)
{
    static const char fn[] = "accel_dlpack_tensor_create";
    if (!out_managed)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out_managed is NULL", fn);
    *out_managed = NULL;
    if (ndim < 0 || ndim > 32 || (ndim > 0 && !shape))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: ndim %d (0..32, shape given)", fn,
                           (int)ndim);
    if (version_major > 1)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED, "%s: DLPack %u.x (this is 0.8 and 1.0)", fn,
                           (unsigned)version_major);
    if (version_major == 1) {
        owned_tensor_versioned *t = calloc(1, sizeof *t);
        if (!t)
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
        fill_tensor(&t->m.dl_tensor, t->shape, data, device_type, device_id, code, bits, ndim,
                    shape);
        t->m.version.major = 1;
        t->m.version.minor = 0;
        t->m.flags = 0; /* writable, not a copy */
        t->m.manager_ctx = py_owner;
        t->m.deleter = owned_deleter_versioned;
        *out_managed = &t->m;
        return ACCEL_SUCCESS;
    }
    owned_tensor *t = calloc(1, sizeof *t);
    if (!t)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    fill_tensor(&t->m.dl_tensor, t->shape, data, device_type, device_id, code, bits, ndim, shape);
    t->m.manager_ctx = py_owner;
    t->m.deleter = owned_deleter;
    *out_managed = &t->m;
    return ACCEL_SUCCESS;
}

void accel_dlpack_tensor_free(void *managed)
{
    dl_managed_tensor *m = managed;
    if (m && m->deleter)
        m->deleter(m);
}

void accel_dlpack_tensor_versioned_free(void *managed)
{
    dl_managed_tensor_versioned *m = managed;
    if (m && m->deleter)
        m->deleter(m);
}

static void capsule_destroy(void *capsule, const char *name, void (*free_fn)(void *))
{
    capsule_is_valid_fn is_valid = (capsule_is_valid_fn)(uintptr_t)py_symbol("PyCapsule_IsValid");
    capsule_get_pointer_fn get =
        (capsule_get_pointer_fn)(uintptr_t)py_symbol("PyCapsule_GetPointer");
    if (!is_valid || !get || !is_valid(capsule, name))
        return; /* consumed ("used_..."): the consumer owns the tensor */
    free_fn(get(capsule, name));
}

void accel_dlpack_capsule_destructor(void *capsule)
{
    capsule_destroy(capsule, "dltensor", accel_dlpack_tensor_free);
}

void accel_dlpack_capsule_destructor_versioned(void *capsule)
{
    capsule_destroy(capsule, "dltensor_versioned", accel_dlpack_tensor_versioned_free);
}

void accel_dlpack_managed_release(void *managed)
{
    accel_dlpack_tensor_free(managed);
}

void accel_dlpack_managed_versioned_release(void *managed)
{
    accel_dlpack_tensor_versioned_free(managed);
}
