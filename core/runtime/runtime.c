/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/runtime/runtime.c — opening a runtime (configuration, candidate order,
 * loading every backend, strict and ACCEL_BACKEND rules) and closing it
 * (drain queues, release every object still alive, shut backends down and
 * unload them in reverse load order).
 *
 * Candidate order: ACCEL_BACKEND (if set), then [runtime] order, then the
 * other [backend.*] sections in file order. All of them are loaded; order is
 * a priority (the default device is device 0 of the first that loaded), not
 * a filter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/config.h"
#include "base/handle.h"
#include "base/loader.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "base/trace.h"
#include "check/hooks.h"
#include "check/policy.h"
#include "comm/comm.h"
#include "graphs/capture.h"
#include "graphs/graph_life.h"
#include "kernels/kernel_cache.h"
#include "kernels/kernels.h"
#include "ops/batch.h"
#include "runtime/selftest.h"

static bool has_candidate(const accel_runtime *rt, const char *name)
{
    for (uint32_t i = 0; i < rt->backend_count; i++) {
        if (strcmp(rt->backends[i].name, name) == 0)
            return true;
    }
    return false;
}

static bool add_candidate(accel_runtime *rt, const accel__section *sec, bool in_order)
{
    accel__backend *be = &rt->backends[rt->backend_count];
    memset(be, 0, sizeof *be);
    be->name = strdup(sec->name);
    be->path = strdup(sec->path);
    be->section = sec;
    be->in_order = in_order;
    be->allow_insecure = rt->cfg->allow_insecure;
    be->cache = (accel__plugin_cache){rt, accel__kcache_plugin_get, accel__kcache_plugin_put};
    be->status = ACCEL_ERROR_PLUGIN_LOAD;
    if (!be->name || !be->path) {
        free(be->name);
        free(be->path);
        return false;
    }
    rt->backend_count++;
    return true;
}

static void runtime_free(accel_runtime *rt)
{
    accel__policy_close(rt); /* may print the report, which names devices */
    /* The batching helper's keep of each device (its feeder thread) ends
     * here, before the devices, so that device.c need not know batch.c. */
    for (uint32_t i = 0; i < rt->device_count; i++)
        accel__batch_keep_free(&rt->devices[i]);
    accel__devices_free(rt);
    for (uint32_t i = rt->backend_count; i-- > 0;) {
        accel__loader_close(&rt->backends[i]);
        free(rt->backends[i].name);
        free(rt->backends[i].path);
    }
    free(rt->backends);
    accel__config_free(rt->cfg);
    pthread_rwlock_destroy(&rt->queue_life);
    pthread_mutex_destroy(&rt->lock);
    accel__gate_retire(rt->gate);
    free(rt);
}

/* A runtime for cfg (owned by it from here on) with room for a backend per
 * section; NULL when out of host memory (cfg freed). */
static accel_runtime *runtime_new(accel__config *cfg)
{
    accel_runtime *rt = calloc(1, sizeof *rt);
    if (!rt) {
        accel__config_free(cfg);
        return NULL;
    }
    pthread_mutex_init(&rt->lock, NULL);
    pthread_rwlock_init(&rt->queue_life, NULL);
    rt->cfg = cfg;
    rt->capture = &accel__graph_capture_hooks;
    accel__op_hooks_init(rt);
    rt->op_hooks[ACCEL_OP_KERNEL] = &accel__op_hooks_kernel;
    rt->gate = accel__gate_new();
    rt->backends = calloc(cfg->section_count ? cfg->section_count : 1, sizeof *rt->backends);
    if (!rt->backends || !rt->gate) {
        runtime_free(rt);
        return NULL;
    }
    return rt;
}

/* The candidates in the order the file's header comment gives; false when
 * out of host memory. ACCEL_BACKEND names a section (checked by config.c). */
static bool add_candidates(accel_runtime *rt)
{
    const accel__config *cfg = rt->cfg;
    const char *forced = cfg->backend_first;
    if (forced && !add_candidate(rt, accel__config_section(cfg, forced), true))
        return false;
    for (size_t i = 0; i < cfg->order_count; i++)
        if (!has_candidate(rt, cfg->order[i]) &&
            !add_candidate(rt, accel__config_section(cfg, cfg->order[i]), true))
            return false;
    for (size_t i = 0; i < cfg->section_count; i++)
        if (!has_candidate(rt, cfg->sections[i].name) &&
            !add_candidate(rt, &cfg->sections[i], false))
            return false;
    return true;
}

/* The ACCEL_BACKEND and strict rules over the backends that loaded. */
static accel_status check_loaded(const accel_runtime *rt, const char *fn)
{
    const accel__config *cfg = rt->cfg;
    const char *forced = cfg->backend_first;
    if (forced && !rt->backends[0].loaded)
        return accel__fail(ACCEL_ERROR_PLUGIN_LOAD,
                           "%s: ACCEL_BACKEND=%s could not be loaded (%s): %s", fn, forced,
                           rt->backends[0].path, rt->backends[0].reason);
    for (uint32_t i = 0; cfg->strict && i < rt->backend_count; i++) {
        const accel__backend *be = &rt->backends[i];
        if (be->in_order && !be->loaded)
            return accel__fail(ACCEL_ERROR_PLUGIN_LOAD,
                               "%s: strict = true in %s and backend %s failed (%s): %s", fn,
                               cfg->path, be->name, be->path, be->reason);
    }
    return ACCEL_SUCCESS;
}

/* The error of a runtime without devices: each backend's reason. */
static accel_status no_device(const accel_runtime *rt, const char *fn)
{
    char why[2048];
    size_t n = 0;
    why[0] = '\0';
    for (uint32_t i = 0; i < rt->backend_count && n < sizeof why; i++) {
        int w = snprintf(why + n, sizeof why - n, "%s%s: %s", i ? "; " : "", rt->backends[i].name,
                         rt->backends[i].reason);
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return accel__fail(ACCEL_ERROR_UNAVAILABLE, "%s: no backend loaded from %s (%s)", fn,
                       rt->cfg->path, rt->backend_count ? why : "it names no backend");
}

/* Everything of opening after the configuration: candidates, loading, the
 * rules, devices, the handle, the policies and the trace. On failure the
 * caller frees rt (and its handle when set). */
static accel_status runtime_start(accel_runtime *rt, const char *fn)
{
    if (!add_candidates(rt))
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    for (uint32_t i = 0; i < rt->backend_count; i++)
        accel__loader_open(&rt->backends[i]);
    accel__selftest_all(rt); /* selftest.c: a failing backend counts as not loaded */
    accel_status st = check_loaded(rt, fn);
    if (st == ACCEL_SUCCESS)
        st = accel__devices_build(rt);
    if (st == ACCEL_SUCCESS && rt->device_count == 0)
        st = no_device(rt, fn);
    if (st == ACCEL_SUCCESS &&
        accel__handle_new(ACCEL__T_RUNTIME, rt, rt->gate, &rt->handle) != ACCEL_SUCCESS)
        st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    /* verify, fallback and report keys (verify.c); needs the live handle. */
    if (st == ACCEL_SUCCESS)
        st = accel__policy_open(rt, fn);
    if (st == ACCEL_SUCCESS)
        accel__trace_open(rt);
    return st;
}

accel_status accel_runtime_open(const char *config_path, accel_runtime **out_runtime)
{
    static const char fn[] = "accel_runtime_open";
    if (!out_runtime)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out_runtime is NULL", fn);
    *out_runtime = NULL;

    accel__config *cfg = NULL;
    accel_status st = accel__config_load(config_path, fn, &cfg);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_runtime *rt = runtime_new(cfg);
    if (!rt)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    st = runtime_start(rt, fn);
    if (st != ACCEL_SUCCESS) {
        if (rt->handle)
            accel__handle_free(rt->handle);
        runtime_free(rt);
        return st;
    }
    *out_runtime = rt->handle;
    return ACCEL_SUCCESS;
}

void accel_runtime_close(accel_runtime *rt)
{
    if (!rt)
        return;
    static const char fn[] = "accel_runtime_close";
    ACCEL__CALL(call);
    if (accel__enter(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt) != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_WARN, "%s; nothing was closed", accel_last_error());
        return;
    }
    if (atomic_exchange(&rt->gate->closing, true)) {
        accel__log(ACCEL_LOG_WARN, "%s: runtime #%llu is already being closed by another thread",
                   fn, (unsigned long long)rt->gate->serial);
        return;
    }
    /* As libuv refuses to close a loop with active handles, calls racing
     * with close must not touch freed memory: every handle of the runtime
     * dies now (a call that starts from here on gets
     * ACCEL_ERROR_INVALID_HANDLE), then close waits until the calls already
     * in flight have returned. */
    pthread_mutex_lock(&rt->lock);
    accel__handle_free(rt->handle);
    for (uint32_t i = 0; i < rt->device_count; i++)
        accel__handle_free(rt->devices[i].handle);
    for (accel_queue *q = rt->queues; q; q = q->next)
        accel__handle_free(q->handle);
    for (accel_buffer *b = rt->buffers; b; b = b->next)
        accel__handle_free(b->handle);
    for (accel_event *ev = rt->events; ev; ev = ev->next)
        accel__handle_free(ev->handle);
    accel__graphs_kill_handles(rt);
    accel__comms_kill_handles(rt);
    pthread_mutex_unlock(&rt->lock);
    accel__call_leave(&call);
    accel__gate_close_wait(rt->gate);

    /* No lock from here: no other call can reach the runtime, and
     * destroying a queue may drop the last reference of an event, which
     * takes the lock itself. Queues first: destroying one waits for its work, which may still use
     * buffers and events. Then events (pending cross-backend waits held
     * references, dropped with their queues), buffers and pinned blocks. */
    while (rt->queues) {
        accel_queue *q = rt->queues;
        ACCEL__LIST_REMOVE(rt->queues, q);
        accel__queue_destroy(q);
    }
    accel__graphs_close(rt);  /* before the events and buffers its nodes refer to */
    accel__comms_close(rt);   /* their queues are gone; the backends are still loaded */
    accel__trace_close(rt);   /* every traced op is done now */
    accel__arrays_close(rt);  /* forgets the array kernels; the next line releases them */
    accel__kernels_close(rt); /* user kernels and their programs, before the backends unload */
    while (rt->events) {
        accel_event *ev = rt->events;
        ACCEL__LIST_REMOVE(rt->events, ev);
        accel__event_destroy(ev);
    }
    /* Straight to accel__buffer_destroy: the queues are gone, so there is
     * nothing for accel_buffer_release's wait to wait for. */
    while (rt->buffers) {
        accel_buffer *buf = rt->buffers;
        ACCEL__LIST_REMOVE(rt->buffers, buf);
        accel__buffer_destroy(buf);
    }
    accel__host_regs_free(rt);
    while (rt->host_blocks) {
        accel__host_block *hb = rt->host_blocks;
        ACCEL__LIST_REMOVE(rt->host_blocks, hb);
        accel__host_block_destroy(hb);
    }
    runtime_free(rt);
}

const char *accel_runtime_config_path(const accel_runtime *rt)
{
    ACCEL__ENTER_GETTER("accel_runtime_config_path", rt, ACCEL__T_RUNTIME, "");
    return rt->cfg->path;
}

uint32_t accel_runtime_backend_count(const accel_runtime *rt)
{
    ACCEL__ENTER_GETTER("accel_runtime_backend_count", rt, ACCEL__T_RUNTIME, 0);
    return rt->backend_count;
}

accel_status accel_runtime_backend_info(const accel_runtime *rt, uint32_t index,
                                        accel_backend_info *out_info)
{
    static const char fn[] = "accel_runtime_backend_info";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter_out(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt, out_info, "out_info"));
    if (index >= rt->backend_count)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: index %u but there are %u backend candidates", fn, index,
                           rt->backend_count);
    /* Honour the caller's struct_size both ways: never write past it, and
     * refuse one smaller than the first version of the struct. */
    const size_t first_size = offsetof(accel_backend_info, device_count) + sizeof(uint32_t);
    if (out_info->struct_size < first_size)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out_info->struct_size is %u, smaller than any accel_backend_info "
                           "(%zu bytes; set it to sizeof(accel_backend_info))",
                           fn, out_info->struct_size, first_size);
    const accel__backend *be = &rt->backends[index];
    accel_backend_info info;
    accel__struct_init(&info, sizeof info);
    info.name = be->name;
    info.path = be->path;
    info.description = be->description;
    info.loaded = be->loaded;
    info.status = be->loaded ? ACCEL_SUCCESS : be->status;
    info.reason = be->loaded ? "" : be->reason;
    info.abi_version = be->abi_version;
    info.device_count = be->loaded ? be->device_count : 0;
    size_t caller = out_info->struct_size;
    size_t n = caller < sizeof info ? caller : sizeof info;
    if (caller > n) /* a newer caller's fields that this version lacks */
        memset((char *)out_info + n, 0, caller - n);
    info.struct_size = (uint32_t)n;
    memcpy(out_info, &info, n);
    return ACCEL_SUCCESS;
}
