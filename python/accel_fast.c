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
 * runtime. Built against the stable ABI (abi3, CPython >= 3.8), so one build
 * serves every interpreter; without it the package calls through ctypes.
 * The GIL is released around each call, as ctypes does (an enqueue may wait
 * for room in the queue). */
#define Py_LIMITED_API 0x03080000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "accel/accel.h"

typedef accel_status (*binary_fn)(accel_queue *, accel_op_code, accel_dtype, accel_slice,
                                  accel_slice, accel_slice);
typedef accel_status (*unary_fn)(accel_queue *, accel_op_code, accel_dtype, accel_slice,
                                 accel_slice);

static binary_fn binary_entry;
static unary_fn unary_entry;

/* args[first], args[first + 1], args[first + 2]: buffer handle, offset and
 * count (elements) of one slice. Returns 0, or -1 with a Python error set. */
static int slice_of(PyObject *args, Py_ssize_t first, accel_slice *out)
{
    out->buffer = (accel_buffer *)PyLong_AsVoidPtr(PyTuple_GetItem(args, first));
    out->offset = PyLong_AsSize_t(PyTuple_GetItem(args, first + 1));
    out->count = PyLong_AsSize_t(PyTuple_GetItem(args, first + 2));
    return PyErr_Occurred() ? -1 : 0;
}

/* The queue, op and dtype of args[0..2]. Returns 0, or -1 with an error set. */
static int head_of(PyObject *args, Py_ssize_t nargs, const char *fn, accel_queue **q,
                   accel_op_code *op, accel_dtype *dtype)
{
    if (PyTuple_Size(args) != nargs) {
        PyErr_Format(PyExc_TypeError, "_accel_fast.%s takes %d arguments", fn, (int)nargs);
        return -1;
    }
    *q = (accel_queue *)PyLong_AsVoidPtr(PyTuple_GetItem(args, 0));
    *op = (accel_op_code)PyLong_AsLong(PyTuple_GetItem(args, 1));
    *dtype = (accel_dtype)PyLong_AsLong(PyTuple_GetItem(args, 2));
    return PyErr_Occurred() ? -1 : 0;
}

/* binary(q, op, dtype, a_buf, a_off, a_n, b_buf, b_off, b_n, out_buf,
 * out_off, out_n) -> accel_binary's status as an int. */
static PyObject *fast_binary(PyObject *self, PyObject *args)
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
    if (head_of(args, 12, "binary", &q, &op, &dtype) || slice_of(args, 3, &s[0]) ||
        slice_of(args, 6, &s[1]) || slice_of(args, 9, &s[2]))
        return NULL;
    PyThreadState *ts = PyEval_SaveThread();
    accel_status st = binary_entry(q, op, dtype, s[0], s[1], s[2]);
    PyEval_RestoreThread(ts);
    return PyLong_FromLong((long)st);
}

/* unary(q, op, dtype, x_buf, x_off, x_n, out_buf, out_off, out_n) ->
 * accel_unary's status as an int. */
static PyObject *fast_unary(PyObject *self, PyObject *args)
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
    if (head_of(args, 9, "unary", &q, &op, &dtype) || slice_of(args, 3, &s[0]) ||
        slice_of(args, 6, &s[1]))
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
    {"binary", fast_binary, METH_VARARGS,
     "binary(q, op, dtype, a_buf, a_off, a_n, b_buf, b_off, b_n, out_buf, out_off, out_n)"},
    {"unary", fast_unary, METH_VARARGS,
     "unary(q, op, dtype, x_buf, x_off, x_n, out_buf, "
     "out_off, out_n)"},
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
