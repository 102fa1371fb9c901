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
 * for room in the queue). Integer and complex operands of the ops whose
 * result keeps their dtype go to the C array layer's accel_array_binary and
 * accel_array_unary instead (init_array_fns). */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <structmember.h>

#include "accel/accel.h"
#include "accel/array.h"

typedef accel_status (*binary_fn)(accel_queue *, accel_op_code, accel_dtype, accel_slice,
                                  accel_slice, accel_slice);
typedef accel_status (*unary_fn)(accel_queue *, accel_op_code, accel_dtype, accel_slice,
                                 accel_slice);

static binary_fn binary_entry;
static unary_fn unary_entry;

/* The C array layer's elementwise entries (accel_array_binary and
 * accel_array_unary), which take every dtype, and per op code of the op
 * table (below OP_CODES) the array function that computes the op and the
 * dtypes (bit d: dtype code d) whose operands give a result of their own
 * dtype under the package's rules: set by init_array_fns from _ufunc.py,
 * which derives them from _namespace.py's promotion. The built-in entries
 * above keep float32 and float64. */
typedef accel_status (*array_binary_fn)(accel_queue *, accel_array_fn, const accel_array *,
                                        const accel_array *, const accel_array *);
typedef accel_status (*array_unary_fn)(accel_queue *, accel_array_fn, const accel_array *,
                                       const accel_array *);
enum { OP_CODES = 128 }; /* OP_CODE_LIMIT */
static array_binary_fn array_binary_entry;
static array_unary_fn array_unary_entry;
static long array_fn_of[OP_CODES];
static unsigned long array_dtypes_of[OP_CODES];

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

/* ------------------------------------------------ a new result from C
 *
 * z = x + y allocates its result: in Python that is the per-op path's
 * bytecode (the checks, the pool's free list, a new Array and its slots),
 * as long as the C call itself. new_result() does the common case here:
 * two C-contiguous Arrays (or one, for a unary op) of one shape, dtype and
 * device on the device's null stream, the device's free list holding a
 * block of their size whose slice is already the whole block, every block
 * last used on that stream; into() does the same for an op given out=.
 * Anything else returns None and the package's Python path (_ufunc.py
 * _binary_op, _unary_op) decides, so nothing here is the only place a rule
 * lives: each is a first branch of that path done in C.
 *
 * Array's and _Block's fields are Python __slots__; their offsets come from
 * the types' member tables (PyType_GetSlot(Py_tp_members), the stable ABI)
 * when init_arrays() is called, and each is read as the member descriptor
 * reads it. */
enum {
    A_BLOCK,
    A_BASE,
    A_SHAPE,
    A_DTYPE,
    A_CODE,
    A_OFFSET,
    A_SIZE,
    A_NB,
    A_SLICE,
    A_ST,
    A_RO,
    A_DEVICE,
    A_CVC,
    A_COUNT
};
static const char *const array_fields[A_COUNT] = {"_block",  "_base",  "_shape", "_dtype", "_code",
                                                  "_offset", "_size",  "_nb",    "_slice", "_st",
                                                  "_ro",     "device", "_cvc"};
enum { B_HANDLE, B_STREAM, B_SLICE, B_SLICE_N, B_SERIAL, B_HOME, B_POOL, B_COUNT };
static const char *const block_fields[B_COUNT] = {"handle", "stream", "slice", "slice_n",
                                                  "serial", "home",   "pool"};

static PyObject *array_type, *block_type, *current_set, *serials;
static PyObject *str_null, *str_free, *str_handle, *str_fast, *zero;
static Py_ssize_t array_off[A_COUNT], block_off[B_COUNT];

static PyObject **field(PyObject *o, Py_ssize_t off)
{
    return (PyObject **)((char *)o + off);
}

/* Store v (a new reference is taken) into a slot, dropping the old value. */
static void set_field(PyObject *o, Py_ssize_t off, PyObject *v)
{
    PyObject **f = field(o, off), *old = *f;
    Py_INCREF(v);
    *f = v;
    Py_XDECREF(old);
}

/* The offsets of names[0..n) in type t's member table; -1 if one is not a
 * plain object slot of it. */
static int find_offsets(PyObject *t, const char *const *names, Py_ssize_t *off, int n)
{
    PyMemberDef *m = (PyMemberDef *)PyType_GetSlot((PyTypeObject *)t, Py_tp_members);
    for (int i = 0; i < n; i++) {
        off[i] = -1;
        for (PyMemberDef *d = m; d && d->name; d++)
            if (strcmp(d->name, names[i]) == 0 && d->type == T_OBJECT_EX)
                off[i] = d->offset;
        if (off[i] < 0) {
            PyErr_Format(PyExc_TypeError, "_accel_fast.init_arrays: no slot %s", names[i]);
            return -1;
        }
    }
    return 0;
}

/* init_arrays(Array, _Block, current_set, serials): the types whose slots
 * new_result() and into() read, the package's flag list of open ``with Stream()``
 * blocks and its block serial counter. */
static PyObject *fast_init_arrays(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *a, *b, *cur, *ser;
    if (!PyArg_ParseTuple(args, "OOOO", &a, &b, &cur, &ser))
        return NULL;
    if (!PyType_Check(a) || !PyType_Check(b) || !PyList_Check(cur) || !PyIter_Check(ser)) {
        PyErr_SetString(PyExc_TypeError, "_accel_fast.init_arrays(Array, _Block, list, counter)");
        return NULL;
    }
    if (find_offsets(a, array_fields, array_off, A_COUNT) ||
        find_offsets(b, block_fields, block_off, B_COUNT))
        return NULL;
    if (!str_null) {
        str_null = PyUnicode_InternFromString("_null");
        str_free = PyUnicode_InternFromString("_free");
        str_handle = PyUnicode_InternFromString("_handle");
        str_fast = PyUnicode_InternFromString("_fast");
        zero = PyLong_FromLong(0);
        if (!str_null || !str_free || !str_handle || !str_fast || !zero)
            return NULL;
    }
    PyObject *old[4] = {array_type, block_type, current_set, serials};
    array_type = Py_NewRef(a), block_type = Py_NewRef(b);
    current_set = Py_NewRef(cur), serials = Py_NewRef(ser);
    for (int i = 0; i < 4; i++)
        Py_XDECREF(old[i]);
    Py_RETURN_NONE;
}

#define AF(o, i) (*field((o), array_off[i]))
#define BF(o, i) (*field((o), block_off[i]))

/* Whether o is an Array with a live block of its own type, C-contiguous
 * (no _st), every field new_result and into read set. */
static int plain_array(PyObject *o)
{
    if ((PyObject *)Py_TYPE(o) != array_type)
        return 0;
    static const int need[] = {A_SHAPE, A_DTYPE, A_CODE, A_OFFSET, A_SIZE, A_NB, A_DEVICE};
    for (size_t i = 0; i < sizeof need / sizeof *need; i++)
        if (!AF(o, need[i]))
            return 0;
    PyObject *b = AF(o, A_BLOCK);
    return b && (PyObject *)Py_TYPE(b) == block_type && AF(o, A_ST) == Py_None;
}

/* A buffer handle or element count of a Python int; 0 (and no error set)
 * for anything else. */
static void *as_ptr(PyObject *v)
{
    void *p = v && PyLong_Check(v) ? PyLong_AsVoidPtr(v) : NULL;
    if (!p)
        PyErr_Clear();
    return p;
}
static int as_size(PyObject *v, size_t *out)
{
    *out = v && PyLong_Check(v) ? PyLong_AsSize_t(v) : (size_t)-1;
    if (*out == (size_t)-1) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

/* The device's null stream and its queue handle (new reference, and the
 * handle), where no ``with Stream()`` is open in the process and the device
 * has made its null stream; NULL (no error set) otherwise. */
static PyObject *null_stream(PyObject *dev, accel_queue **q)
{
    PyObject *flag = PyList_GetItem(current_set, 0);
    if (!flag || PyObject_IsTrue(flag) != 0) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *s = PyObject_GetAttr(dev, str_null);
    PyObject *h = s && s != Py_None ? PyObject_GetAttr(s, str_handle) : NULL;
    *q = (accel_queue *)as_ptr(h);
    Py_XDECREF(h);
    if (!*q) {
        PyErr_Clear();
        Py_XDECREF(s);
        return NULL;
    }
    return s;
}

/* The device's free list of blocks of nb bytes where it holds one whose
 * last use was on stream s and whose slice covers n elements (borrowed;
 * NULL, no error set, otherwise). */
static PyObject *free_list(PyObject *dev, PyObject *nb, PyObject *s, PyObject *n)
{
    PyObject *free = PyObject_GetAttr(dev, str_free);
    PyObject *lst = free && PyDict_Check(free) ? PyDict_GetItem(free, nb) : NULL;
    Py_XDECREF(free); /* the device keeps the dict, the dict the list */
    PyErr_Clear();
    if (!lst || !PyList_Check(lst) || PyList_Size(lst) < 1)
        return NULL;
    PyObject *bo = PyList_GetItem(lst, PyList_Size(lst) - 1);
    if (!bo || (PyObject *)Py_TYPE(bo) != block_type || BF(bo, B_STREAM) != s || !BF(bo, B_SLICE) ||
        !BF(bo, B_SLICE_N) || PyObject_RichCompareBool(BF(bo, B_SLICE_N), n, Py_EQ) != 1) {
        PyErr_Clear();
        return NULL;
    }
    return lst;
}

/* A new Array over block bo with a's shape, dtype, code and device (all of
 * a's other fields as the Python path sets them for a result). */
static PyObject *result_array(PyObject *a, PyObject *bo)
{
    allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)array_type, Py_tp_alloc);
    PyObject *out = alloc((PyTypeObject *)array_type, 0);
    if (!out)
        return NULL;
    set_field(out, array_off[A_RO], Py_False);
    set_field(out, array_off[A_CVC], Py_None);
    set_field(out, array_off[A_BLOCK], bo);
    set_field(out, array_off[A_BASE], Py_None);
    static const int same[] = {A_SHAPE, A_DTYPE, A_CODE, A_SIZE, A_NB, A_DEVICE};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        set_field(out, array_off[same[i]], AF(a, same[i]));
    set_field(out, array_off[A_OFFSET], zero);
    set_field(out, array_off[A_SLICE], BF(bo, B_SLICE));
    set_field(out, array_off[A_ST], Py_None);
    return out;
}

/* Whether Arrays a and o have one dtype, device and shape (the fields as
 * the Python path compares them: dtype and device by identity). */
static int same_kind(PyObject *a, PyObject *o)
{
    PyObject *sa = AF(a, A_SHAPE), *so = AF(o, A_SHAPE);
    if (AF(o, A_DTYPE) != AF(a, A_DTYPE) || AF(o, A_DEVICE) != AF(a, A_DEVICE))
        return 0;
    int eq = so == sa || PyObject_RichCompareBool(so, sa, Py_EQ) == 1;
    PyErr_Clear();
    return eq;
}

/* Slice *sl of Array arr over its block blk (its handle and offset), where
 * blk was last used on stream s; 0 (no error set) where it was not, or a
 * field is unreadable. The count is the caller's. */
static int slice_of(PyObject *arr, PyObject *blk, PyObject *s, accel_slice *sl)
{
    return BF(blk, B_STREAM) == s && as_size(AF(arr, A_OFFSET), &sl->offset) == 0 &&
           (sl->buffer = as_ptr(BF(blk, B_HANDLE))) != NULL;
}

/* Whether op code's array function takes dtype code dt with a result of
 * dt (init_array_fns). */
static int array_dtype(long code, long dt)
{
    return array_binary_entry && code >= 0 && code < OP_CODES && dt > 0 &&
           dt < ACCEL_DTYPE_COUNT_ && array_fn_of[code] && ((array_dtypes_of[code] >> dt) & 1ul);
}

/* The common case's checks of operands a and b (b NULL: unary; blocks ba
 * and bb) of op code: float32/float64 (the built-in ops), or a dtype that
 * the op's array function keeps (array_dtype), of one kind, every block last used on the
 * device's null stream. Returns that stream (new reference) with the queue,
 * the dtype code and slices sl[0..1] set (sl[2]'s count too), or NULL (no
 * error set) where the case is not the common one. */
static PyObject *operands(long code, PyObject *a, PyObject *b, PyObject *ba, PyObject *bb,
                          accel_queue **q, long *dt, accel_slice *sl)
{
    *dt = PyLong_AsLong(AF(a, A_CODE));
    if (*dt < 0 || (*dt > 2 && !array_dtype(code, *dt)) || (b && !same_kind(a, b))) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *s = null_stream(AF(a, A_DEVICE), q);
    size_t count;
    if (!s)
        return NULL;
    if (as_size(AF(a, A_SIZE), &count) || !slice_of(a, ba, s, &sl[0]) ||
        (b && !slice_of(b, bb, s, &sl[1]))) {
        Py_DECREF(s);
        return NULL;
    }
    sl[0].count = sl[1].count = sl[2].count = count;
    return s;
}

/* Slice s of dtype code dt as a 1-D accel_array (what accel_array_init
 * makes: the views' checks are the array function's). */
static void array_view(accel_array *v, long dt, const accel_slice *s)
{
    static const uint64_t size_of[ACCEL_DTYPE_COUNT_] = {
#define ACCEL_X_DTYPE_SIZE(E, V, NAME, SIZE, KIND) [V] = SIZE,
        ACCEL_DTYPE_LIST(ACCEL_X_DTYPE_SIZE)
#undef ACCEL_X_DTYPE_SIZE
    };
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->dtype = (accel_dtype)dt;
    v->buffer = s->buffer;
    v->offset = (uint64_t)s->offset * size_of[dt];
    v->ndim = 1;
    v->shape[0] = (int64_t)s->count;
    v->strides[0] = 1;
}

/* The op on the slices, the GIL released (status): the built-in op for
 * float32/float64, else the op's array function. */
static accel_status launch(int binary, accel_queue *q, long code, long dt, const accel_slice *sl)
{
    accel_status st;
    if (dt > 2) {
        accel_array v[3];
        for (int i = 0; i < 3; i++)
            array_view(&v[i], dt, &sl[i]);
        accel_array_fn fn = (accel_array_fn)array_fn_of[code];
        PyThreadState *ts = PyEval_SaveThread();
        st = binary ? array_binary_entry(q, fn, &v[0], &v[1], &v[2])
                    : array_unary_entry(q, fn, &v[0], &v[2]);
        PyEval_RestoreThread(ts);
        return st;
    }
    PyThreadState *ts = PyEval_SaveThread();
    st = binary ? binary_entry(q, (accel_op_code)code, (accel_dtype)dt, sl[0], sl[1], sl[2])
                : unary_entry(q, (accel_op_code)code, (accel_dtype)dt, sl[0], sl[2]);
    PyEval_RestoreThread(ts);
    return st;
}

/* The op code of args[0] of an entry taking lo..hi arguments (-1 for
 * anything but an int: the entry then returns None); -2 with a Python
 * error set for a wrong count or a module not set up. */
static long entry_op(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t lo, Py_ssize_t hi,
                     const char *fn)
{
    if (nargs < lo || nargs > hi) {
        PyErr_Format(PyExc_TypeError, "_accel_fast.%s takes %d or %d arguments", fn, (int)lo,
                     (int)hi);
        return -2;
    }
    if (!array_type || !binary_entry) {
        PyErr_SetString(PyExc_RuntimeError, "_accel_fast.init_arrays was not called");
        return -2;
    }
    long code = PyLong_Check(args[0]) ? PyLong_AsLong(args[0]) : -1;
    if (code < 0) {
        PyErr_Clear();
        return -1;
    }
    return code;
}

/* new_result(op, a[, b]): accel_binary of Arrays a and b (accel_unary of
 * a when b is NULL) into a new Array, which it returns; the op's nonzero
 * status as an int; or None where the case is not the common one (above),
 * nothing done. held_result does it, the operands' blocks held. */
static PyObject *held_result(long code, PyObject *a, PyObject *b, PyObject *ba, PyObject *bb)
{
    accel_queue *q;
    long dt;
    accel_slice sl[3] = {{0}};
    PyObject *s = operands(code, a, b, ba, bb, &q, &dt, sl);
    if (!s)
        Py_RETURN_NONE;
    PyObject *lst = free_list(AF(a, A_DEVICE), AF(a, A_NB), s, AF(a, A_SIZE));
    Py_DECREF(s); /* the device keeps it */
    PyObject *bo = lst ? PyList_GetItem(lst, PyList_Size(lst) - 1) : NULL;
    if (!bo || !(sl[2].buffer = as_ptr(BF(bo, B_HANDLE))))
        Py_RETURN_NONE;
    /* The common case: take the block off the list (with a new serial, as
     * the Python path does for accel.fuse) and make the result. */
    PyObject *serial = PyIter_Next(serials);
    if (!serial) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "_accel_fast: the block serials ran out");
        return NULL;
    }
    Py_INCREF(bo);
    if (PyList_SetSlice(lst, PyList_Size(lst) - 1, PyList_Size(lst), NULL) < 0) {
        Py_DECREF(bo), Py_DECREF(serial);
        return NULL;
    }
    set_field(bo, block_off[B_SERIAL], serial);
    Py_DECREF(serial);
    PyObject *out = result_array(a, bo);
    Py_DECREF(bo); /* out holds it; if out is NULL, bo goes as garbage does */
    if (!out)
        return NULL;
    accel_status st = launch(b != NULL, q, code, dt, sl);
    if (st) {
        Py_DECREF(out); /* its block goes back to the list (Array.__del__) */
        return PyLong_FromLong((long)st);
    }
    return out;
}

static PyObject *new_result(long code, PyObject *a, PyObject *b)
{
    if (code < 0 || !plain_array(a) || (b && !plain_array(b))) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    /* The operands' blocks are held from here to the end, as the Python
     * path's locals hold them: allocating the result may collect garbage,
     * whose finalizers (or another thread meanwhile) may release an
     * operand; its block then goes only after the op, here. */
    PyObject *ba = Py_NewRef(AF(a, A_BLOCK)), *bb = b ? Py_NewRef(AF(b, A_BLOCK)) : NULL;
    PyObject *r = held_result(code, a, b, ba, bb);
    Py_DECREF(ba);
    Py_XDECREF(bb);
    return r;
}

static PyObject *fast_new_result(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    long code = entry_op(args, nargs, 2, 3, "new_result");
    return code == -2 ? NULL : new_result(code, args[1], nargs == 3 ? args[2] : NULL);
}

/* Whether the n-element ranges at element offsets x and y of one block
 * overlap without being the same range (what the C call refuses: the
 * Python path's _partly). */
static int partly(size_t x, size_t y, size_t n)
{
    return x != y && x < y + n && y < x + n;
}

/* into(op, a, out) and into(op, a, b, out): accel_unary of Array a, or
 * accel_binary of Arrays a and b, into Array out: the out= branch of the
 * Python path (_ufunc.py _unary_op, _binary_op: keep the three in step) in
 * C, where out is writable, of a's kind, on the null stream and not partly
 * over an operand. Returns out, the op's nonzero status as an int, or None
 * (nothing done) where the case is not the common one. held_into does it,
 * every block held (another thread may release an array meanwhile). */
static PyObject *held_into(long code, PyObject *a, PyObject *b, PyObject *o, PyObject *ba,
                           PyObject *bb, PyObject *bo)
{
    accel_queue *q;
    long dt;
    accel_slice sl[3] = {{0}};
    PyObject *s = operands(code, a, b, ba, bb, &q, &dt, sl);
    if (!s)
        Py_RETURN_NONE;
    int ok = slice_of(o, bo, s, &sl[2]) &&
             !(bo == ba && partly(sl[2].offset, sl[0].offset, sl[0].count)) &&
             !(bb && bo == bb && partly(sl[2].offset, sl[1].offset, sl[0].count));
    Py_DECREF(s); /* the device keeps it */
    if (!ok)
        Py_RETURN_NONE;
    accel_status st = launch(b != NULL, q, code, dt, sl);
    if (st)
        return PyLong_FromLong((long)st);
    return Py_NewRef(o);
}

static PyObject *fast_into(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    long code = entry_op(args, nargs, 3, 4, "into");
    if (code == -2)
        return NULL;
    PyObject *a = args[1], *b = nargs == 4 ? args[2] : NULL, *o = args[nargs - 1];
    if (code < 0 || !plain_array(a) || (b && !plain_array(b)) || !plain_array(o) ||
        AF(o, A_RO) != Py_False || !same_kind(a, o)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *ba = Py_NewRef(AF(a, A_BLOCK)), *bb = b ? Py_NewRef(AF(b, A_BLOCK)) : NULL;
    PyObject *bo = Py_NewRef(AF(o, A_BLOCK));
    PyObject *r = held_into(code, a, b, o, ba, bb, bo);
    Py_DECREF(ba);
    Py_XDECREF(bb);
    Py_DECREF(bo);
    return r;
}

/* ------------------------------------------------ Array's operators in C
 *
 * x + y reaches Array.__add__; as a Python function that is one more frame
 * before new_result. operator(k, op, n, fallback) makes method descriptor k
 * of Array (PyDescr_NewMethod, the stable ABI) that, called with n other
 * operands (1: binary, 0: unary), tries new_result(op, self[, other]), and
 * calls fallback(self, *args), the package's function, for everything else
 * (another count, a failed status included: the package raises it). */
enum { OPERATORS = 6 };
static long operator_op[OPERATORS];
static int operator_arity[OPERATORS]; /* other operands: 1 binary, 0 unary */
static PyObject *operator_fallback[OPERATORS];

static PyObject *operator_call(int k, PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!operator_fallback[k]) {
        PyErr_SetString(PyExc_RuntimeError, "_accel_fast: operator not set up");
        return NULL;
    }
    if (nargs == operator_arity[k]) {
        PyObject *r = new_result(operator_op[k], self, nargs ? args[0] : NULL);
        if (!r || (r != Py_None && !PyLong_Check(r)))
            return r;
        Py_DECREF(r);
    }
    /* fallback(self, *args): every argument as given, so that the Python
     * function judges a wrong count as it always did */
    PyObject *all = PyTuple_New(nargs + 1);
    if (!all)
        return NULL;
    PyTuple_SetItem(all, 0, Py_NewRef(self));
    for (Py_ssize_t i = 0; i < nargs; i++)
        PyTuple_SetItem(all, i + 1, Py_NewRef(args[i]));
    PyObject *r = PyObject_Call(operator_fallback[k], all, NULL);
    Py_DECREF(all);
    return r;
}

#define OPERATOR(K)                                                                                \
    static PyObject *operator_##K(PyObject *self, PyObject *const *args, Py_ssize_t nargs)         \
    {                                                                                              \
        return operator_call(K, self, args, nargs);                                                \
    }
OPERATOR(0)
OPERATOR(1)
OPERATOR(2)
OPERATOR(3)
OPERATOR(4)
OPERATOR(5)
#undef OPERATOR

static PyMethodDef operator_defs[OPERATORS] = {
#define DEF(K)                                                                                     \
    {                                                                                              \
        "operator" #K, (PyCFunction)(void (*)(void))operator_##K, METH_FASTCALL, NULL              \
    }
    DEF(0), DEF(1), DEF(2), DEF(3), DEF(4), DEF(5),
#undef DEF
};

static PyObject *fast_operator(PyObject *self, PyObject *args)
{
    (void)self;
    int k, arity;
    long op;
    PyObject *fallback;
    if (!PyArg_ParseTuple(args, "iliO", &k, &op, &arity, &fallback))
        return NULL;
    if (!array_type || k < 0 || k >= OPERATORS || op < 0 || arity < 0 || arity > 1 ||
        !PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_ValueError, "_accel_fast.operator(k < 6, op >= 0, other operands "
                                          "0 or 1, callable) after init_arrays");
        return NULL;
    }
    PyObject *old = operator_fallback[k];
    operator_op[k] = op;
    operator_arity[k] = arity;
    operator_fallback[k] = Py_NewRef(fallback);
    Py_XDECREF(old);
    return PyDescr_NewMethod((PyTypeObject *)array_type, &operator_defs[k]);
}

/* Array.__del__ in C: an array that owns its block puts it back on its
 * free list while the pool takes it (the common case of the Python
 * __del__, _array.py); everything else is that function's. */
static PyObject *del_fallback;

static PyObject *array_del(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *b = AF(self, A_BLOCK), *base = AF(self, A_BASE);
    if (b && base == Py_None && (PyObject *)Py_TYPE(b) == block_type && BF(b, B_HOME) &&
        PyList_Check(BF(b, B_HOME)) && BF(b, B_POOL)) {
        PyObject *fast = PyObject_GetAttr(BF(b, B_POOL), str_fast);
        int t = fast ? PyObject_IsTrue(fast) : -1;
        Py_XDECREF(fast);
        if (t == 1 && PyList_Append(BF(b, B_HOME), b) == 0)
            Py_RETURN_NONE;
        PyErr_Clear();
    }
    return PyObject_CallFunctionObjArgs(del_fallback, self, NULL);
}

static PyMethodDef del_def = {"__del__", array_del, METH_NOARGS, NULL};

static PyObject *fast_finalizer(PyObject *self, PyObject *fallback)
{
    (void)self;
    if (!array_type || !PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_ValueError, "_accel_fast.finalizer(callable) after init_arrays");
        return NULL;
    }
    PyObject *old = del_fallback;
    del_fallback = Py_NewRef(fallback);
    Py_XDECREF(old);
    return PyDescr_NewMethod((PyTypeObject *)array_type, &del_def);
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

/* init_array_fns(binary_address, unary_address, table): the array layer's
 * entries (accel_array_binary, accel_array_unary in the loaded libaccel)
 * and, for each (op code, array function, dtype mask) of table, the array
 * function new_result and into call for the dtypes of the mask (bit d:
 * dtype code d; float32 and float64 stay with the built-in ops). */
static PyObject *fast_init_array_fns(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *b_addr, *u_addr, *table;
    if (!PyArg_ParseTuple(args, "OOO", &b_addr, &u_addr, &table))
        return NULL;
    void *b = PyLong_AsVoidPtr(b_addr), *u = PyLong_AsVoidPtr(u_addr);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t n = PySequence_Size(table);
    long fn[OP_CODES] = {0};
    unsigned long mask[OP_CODES] = {0};
    int ok = b && u && n >= 0;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *row = PySequence_GetItem(table, i);
        long code = -1, f = 0;
        unsigned long m = 0;
        ok = row && PyArg_ParseTuple(row, "llk", &code, &f, &m) && code >= 0 && code < OP_CODES &&
             f > 0 && f < 128;
        Py_XDECREF(row);
        if (ok) {
            fn[code] = f;
            mask[code] = m & ~0x7ul; /* dtype codes 0 (invalid), 1 and 2 (the built-in ops) */
        }
    }
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "_accel_fast.init_array_fns(binary_address, unary_address, "
                            "[(op < 128, array fn 1..127, dtype mask), ...])");
        return NULL;
    }
    /* Object pointer to function pointer: the addresses come from dlsym. */
    array_binary_entry = (array_binary_fn)(uintptr_t)b;
    array_unary_entry = (array_unary_fn)(uintptr_t)u;
    memcpy(array_fn_of, fn, sizeof fn);
    memcpy(array_dtypes_of, mask, sizeof mask);
    Py_RETURN_NONE;
}

static PyMethodDef fast_methods[] = {
    {"init", fast_init, METH_VARARGS, "init(binary_address, unary_address)"},
    {"init_array_fns", fast_init_array_fns, METH_VARARGS,
     "init_array_fns(array_binary_address, array_unary_address, [(op, array_fn, dtype_mask)])"},
    {"init_arrays", fast_init_arrays, METH_VARARGS,
     "init_arrays(Array, _Block, current_set, serials)"},
    {"new_result", (PyCFunction)(void (*)(void))fast_new_result, METH_FASTCALL,
     "new_result(op, a[, b]) -> Array, status int, or None"},
    {"into", (PyCFunction)(void (*)(void))fast_into, METH_FASTCALL,
     "into(op, a[, b], out) -> out, a status, or None"},
    {"operator", fast_operator, METH_VARARGS,
     "operator(k, op, other_operands, fallback) -> a method descriptor of Array"},
    {"finalizer", fast_finalizer, METH_O, "finalizer(fallback) -> Array.__del__ in C"},
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
