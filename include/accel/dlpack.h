/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/dlpack.h — DLPack (https://dmlc.github.io/dlpack/) helpers for
 * language bindings: a DLManagedTensor over an accel buffer's memory whose
 * deleter drops a Python reference, the "dltensor" capsule destructor, and
 * the release callback that hands a consumed tensor back to its producer.
 * They live in C because a capsule destructor or a deleter may run on any
 * thread at any time (interpreter shutdown included), where a ctypes callback
 * is not safe. The Python C API is looked up at run time in the process
 * (dlsym), so libaccel does not link against Python; outside a Python
 * process the Python parts do nothing. The struct layouts are DLPack's
 * (DLManagedTensor of dlpack.h, ABI version 0.x "dltensor" capsules). */
#ifndef ACCEL_DLPACK_H
#define ACCEL_DLPACK_H

#include "accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* DLPack's device types and the float type code used here. */
#define ACCEL_DLPACK_CPU 1
#define ACCEL_DLPACK_CUDA 2
#define ACCEL_DLPACK_CUDA_HOST 3
#define ACCEL_DLPACK_FLOAT 2

/** Make a DLPack managed tensor (*out_managed) describing C-order data:
 *  `ndim` dimensions of `shape` (copied), elements of type (code, bits, 1
 *  lane) at data (byte_offset 0, strides NULL) on (device_type, device_id).
 *  version_major 0: a DLManagedTensor (for "dltensor" capsules); 1: a
 *  DLManagedTensorVersioned of DLPack 1.0, flags 0 (writable; for
 *  "dltensor_versioned" capsules). Its manager_ctx is py_owner, a Python
 *  object reference that the caller has taken (Py_IncRef); the tensor's
 *  deleter drops it (Py_DecRef, with the GIL taken through
 *  PyGILState_Ensure) and frees the tensor. Errors:
 *  ACCEL_ERROR_INVALID_ARGUMENT (out NULL, ndim < 0 or > 32, shape NULL with
 *  ndim > 0), ACCEL_ERROR_UNSUPPORTED (version_major > 1),
 *  ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_dlpack_tensor_create(void *data, int32_t device_type,
                                                  int32_t device_id, uint8_t code, uint8_t bits,
                                                  int32_t ndim, const int64_t *shape,
                                                  uint32_t version_major, void *py_owner,
                                                  void **out_managed);

/** Run a DLManagedTensor's deleter (when it has one); NULL is a no-op. */
ACCEL_API void accel_dlpack_tensor_free(void *managed);
/** The same for a DLManagedTensorVersioned. */
ACCEL_API void accel_dlpack_tensor_versioned_free(void *managed);

/** The PyCapsule destructors of "dltensor" and "dltensor_versioned"
 *  capsules: when the capsule was not consumed (its name is unchanged), the
 *  tensor's deleter runs; a consumer renames it "used_dltensor" (or
 *  "used_dltensor_versioned") and owns the tensor. Called by Python with the
 *  GIL held. */
ACCEL_API void accel_dlpack_capsule_destructor(void *capsule);
ACCEL_API void accel_dlpack_capsule_destructor_versioned(void *capsule);

/** accel_release_fn for accel_buffer_wrap over a consumed DLManagedTensor
 *  (or, _versioned, DLManagedTensorVersioned): runs its deleter, giving the
 *  memory back to the producer. */
ACCEL_API void accel_dlpack_managed_release(void *managed);
ACCEL_API void accel_dlpack_managed_versioned_release(void *managed);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_DLPACK_H */
