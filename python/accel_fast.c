/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel_fast.c — the optional CPython extension _accel_fast: the per-op C
 * call of the Python package (accel_binary, accel_unary) without ctypes.
 *
 * Through ctypes, one accel_binary with its three slices by value costs
 * several times the call itself (an argument object and a struct copy per
 * slice, the libffi call: python/bench/overhead.py prints both calls'
 * cost); here the arguments are Python ints read straight into slices. The
 * module does not link libaccel: init() takes the addresses of the entries
 * from the libaccel that ctypes loaded, so both use one library and one
 * runtime. Built against the stable ABI (abi3, CPython >= 3.10: METH_FASTCALL),
 * so one build serves every interpreter; without it the package calls
 * through ctypes.
 * The GIL is released around each call, as ctypes does (an enqueue may wait
 * for room in the queue). */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "accel/accel.h"

typedef accel_status (*binary_fn)(accel_queue *, accel_op_code, accel_dtype, accel_slice,
                                  accel_slice, accel_slice);
typedef accel_status (*unary_fn)(accel_queue *, accel_op_code, accel_dtype, accel_slice,
                                 accel_slice);

static binary_fn binary_entry;
static unary_fn unary_entry;

/* The queue, op, dtype and count of args[0..3] and the buffer and offset of
 * each slice from args[4] on, in pairs: the package has checked that the
 * operands have one shape, so every slice has the count n. Returns 0, or -1
 * with a Python error set. */
static int args_of(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t nslices, const char *fn,
                   accel_queue **q, accel_op_code *op, accel_dtype *dtype, accel_slice *s)
{
    if (nargs != 4 + 2 * nslices) {
        PyErr_Format(PyExc_TypeError, "_accel_fast.%s takes %d arguments", fn,
                     (int)(4 + 2 * nslices));
        return -1;
    }
    *q = (accel_queue *)PyLong_AsVoidPtr(args[0]);
    *op = (accel_op_code)PyLong_AsLong(args[1]);
    *dtype = (accel_dtype)PyLong_AsLong(args[2]);
    size_t n = PyLong_AsSize_t(args[3]);
    for (Py_ssize_t i = 0; i < nslices; i++) {
        s[i].buffer = (accel_buffer *)PyLong_AsVoidPtr(args[4 + 2 * i]);
        s[i].offset = PyLong_AsSize_t(args[5 + 2 * i]);
        s[i].count = n;
    }
    return PyErr_Occurred() ? -1 : 0;
}

/* binary(q, op, dtype, n, a_buf, a_off, b_buf, b_off, out_buf, out_off) ->
 * accel_binary's status as an int (offsets and n in elements). */
static PyObject *fast_binary(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    accel_queue *q;
    accel_op_code op;
    accel_dtype dtype;
    accel_slice s[3];
    if (!binary_entry) {
        PyErr_SetString(PyExc_RuntimeError, "_accel_fast.init was not called");
        return NULL;
    }
    if (args_of(args, nargs, 3, "binary", &q, &op, &dtype, s))
        return NULL;
    PyThreadState *ts = PyEval_SaveThread();
    accel_status st = binary_entry(q, op, dtype, s[0], s[1], s[2]);
    PyEval_RestoreThread(ts);
    return PyLong_FromLong((long)st);
}

/* unary(q, op, dtype, n, x_buf, x_off, out_buf, out_off) -> accel_unary's
 * status as an int. */
static PyObject *fast_unary(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    accel_queue *q;
    accel_op_code op;
    accel_dtype dtype;
    accel_slice s[2];
    if (!unary_entry) {
        PyErr_SetString(PyExc_RuntimeError, "_accel_fast.init was not called");
        return NULL;
    }
    if (args_of(args, nargs, 2, "unary", &q, &op, &dtype, s))
        return NULL;
    PyThreadState *ts = PyEval_SaveThread();
    accel_status st = unary_entry(q, op, dtype, s[0], s[1]);
    PyEval_RestoreThread(ts);
    return PyLong_FromLong((long)st);
}

/* init(binary_address, unary_address): the entries to call (addresses of
 * accel_binary and accel_unary in the loaded libaccel). */
static PyObject *fast_init(PyObject *self, PyObject *args)
{
    (void)self;
    if (PyTuple_Size(args) != 2) {
        PyErr_SetString(PyExc_TypeError, "_accel_fast.init takes 2 arguments");
        return NULL;
    }
    void *b = PyLong_AsVoidPtr(PyTuple_GetItem(args, 0));
    void *u = PyLong_AsVoidPtr(PyTuple_GetItem(args, 1));
    if (PyErr_Occurred())
        return NULL;
    if (!b || !u) {
        PyErr_SetString(PyExc_ValueError, "_accel_fast.init: a NULL entry address");
        return NULL;
    }
    /* Object pointer to function pointer: the addresses come from dlsym. */
    binary_entry = (binary_fn)(uintptr_t)b;
    unary_entry = (unary_fn)(uintptr_t)u;
    Py_RETURN_NONE;
}

static PyMethodDef fast_methods[] = {
    {"init", fast_init, METH_VARARGS, "init(binary_address, unary_address)"},
    {"binary", (PyCFunction)(void (*)(void))fast_binary, METH_FASTCALL,
     "binary(q, op, dtype, n, a_buf, a_off, b_buf, b_off, out_buf, out_off)"},
    {"unary", (PyCFunction)(void (*)(void))fast_unary, METH_FASTCALL,
     "unary(q, op, dtype, n, x_buf, x_off, out_buf, out_off)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fast_module = {
    PyModuleDef_HEAD_INIT,
    "_accel_fast",
    "accel's per-op C calls without ctypes",
    -1,
    fast_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__accel_fast(void);

PyMODINIT_FUNC PyInit__accel_fast(void)
{
    return PyModule_Create(&fast_module);
}
