/* core/handle.c — the registry of live handles. Every runtime, device,
 * buffer, queue, event and pinned host block is registered here with a type
 * tag while it is alive, so a NULL, released or wrong-type handle is caught
 * before anything dereferences it. One process-wide open-addressing hash set
 * (linear probing, backward-shift deletion) behind a mutex: a lookup is a
 * lock, a hash and usually one probe. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct slot {
    uintptr_t key; /* 0: empty */
    uint32_t type;
    void *value;
} slot;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static slot *reg_slots;
static size_t reg_cap; /* power of two, or 0 */
static size_t reg_count;

static size_t hash_ptr(uintptr_t k)
{
    /* MurmurHash3's 64-bit finalizer: allocation addresses share low and high
     * bits, so mix them all. */
    uint64_t h = (uint64_t)k;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return (size_t)h;
}

static size_t find_slot(uintptr_t key)
{
    size_t mask = reg_cap - 1;
    size_t i = hash_ptr(key) & mask;
    while (reg_slots[i].key != 0 && reg_slots[i].key != key)
        i = (i + 1) & mask;
    return i;
}

static bool grow(void)
{
    size_t new_cap = reg_cap ? reg_cap * 2 : 64;
    slot *old = reg_slots;
    size_t old_cap = reg_cap;
    slot *fresh = calloc(new_cap, sizeof *fresh);
    if (!fresh)
        return false;
    reg_slots = fresh;
    reg_cap = new_cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].key)
            reg_slots[find_slot(old[i].key)] = old[i];
    }
    free(old);
    return true;
}

accel_status accel__handle_add(const void *p, accel__type type, void *value)
{
    uintptr_t key = (uintptr_t)p;
    if (!key)
        return ACCEL_ERROR_INTERNAL;
    accel_status st = ACCEL_SUCCESS;
    pthread_mutex_lock(&reg_lock);
    /* Keep the load at or below one half so probes stay short. */
    if ((reg_count + 1) * 2 > reg_cap && !grow()) {
        st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    } else {
        size_t i = find_slot(key);
        if (!reg_slots[i].key)
            reg_count++;
        reg_slots[i].key = key;
        reg_slots[i].type = (uint32_t)type;
        reg_slots[i].value = value;
    }
    pthread_mutex_unlock(&reg_lock);
    return st;
}

void accel__handle_remove(const void *p)
{
    uintptr_t key = (uintptr_t)p;
    if (!key)
        return;
    pthread_mutex_lock(&reg_lock);
    if (reg_cap) {
        size_t mask = reg_cap - 1;
        size_t i = find_slot(key);
        if (reg_slots[i].key) {
            /* Backward-shift deletion: move later members of the probe run
             * into the hole unless their home lies cyclically in (i, j]. */
            size_t j = i;
            for (;;) {
                j = (j + 1) & mask;
                if (!reg_slots[j].key)
                    break;
                size_t home = hash_ptr(reg_slots[j].key) & mask;
                bool stays = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
                if (!stays) {
                    reg_slots[i] = reg_slots[j];
                    i = j;
                }
            }
            reg_slots[i].key = 0;
            reg_slots[i].type = 0;
            reg_slots[i].value = NULL;
            if (--reg_count == 0) {
                free(reg_slots);
                reg_slots = NULL;
                reg_cap = 0;
            }
        }
    }
    pthread_mutex_unlock(&reg_lock);
}

accel__type accel__handle_type(const void *p, void **out_value)
{
    uintptr_t key = (uintptr_t)p;
    accel__type type = ACCEL__T_NONE;
    void *value = NULL;
    if (key) {
        pthread_mutex_lock(&reg_lock);
        if (reg_cap) {
            size_t i = find_slot(key);
            if (reg_slots[i].key) {
                type = (accel__type)reg_slots[i].type;
                value = reg_slots[i].value;
            }
        }
        pthread_mutex_unlock(&reg_lock);
    }
    if (out_value)
        *out_value = value;
    return type;
}

void accel__handle_types(size_t n, const void *const *ptrs, accel__type *out_types)
{
    pthread_mutex_lock(&reg_lock);
    for (size_t j = 0; j < n; j++) {
        accel__type type = ACCEL__T_NONE;
        uintptr_t key = (uintptr_t)ptrs[j];
        if (key && reg_cap) {
            size_t i = find_slot(key);
            if (reg_slots[i].key)
                type = (accel__type)reg_slots[i].type;
        }
        out_types[j] = type;
    }
    pthread_mutex_unlock(&reg_lock);
}

const char *accel__type_name(accel__type type)
{
    switch (type) {
    case ACCEL__T_RUNTIME:
        return "runtime";
    case ACCEL__T_DEVICE:
        return "device";
    case ACCEL__T_BUFFER:
        return "buffer";
    case ACCEL__T_QUEUE:
        return "queue";
    case ACCEL__T_EVENT:
        return "event";
    case ACCEL__T_HOST_MEMORY:
        return "pinned host memory block";
    case ACCEL__T_KERNEL:
        return "kernel";
    case ACCEL__T_NONE:
        break;
    }
    return "unknown";
}

accel_status accel__handle_check(const void *p, accel__type type, const char *fn, const char *arg)
{
    if (!p)
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE, "%s: %s is NULL", fn, arg);
    accel__type actual = accel__handle_type(p, NULL);
    if (actual == type)
        return ACCEL_SUCCESS;
    if (actual == ACCEL__T_NONE)
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE,
                           "%s: %s (%p) is not a live %s (already released or closed, or "
                           "never created)",
                           fn, arg, (void *)p, accel__type_name(type));
    return accel__fail(ACCEL_ERROR_INVALID_HANDLE, "%s: %s is a %s handle, not a %s", fn, arg,
                       accel__type_name(actual), accel__type_name(type));
}
