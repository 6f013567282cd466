/*
 * pto._pto: the CPython extension under the `pto` package.
 *
 * Why a hand-written extension (and not SWIG, cffi or nanobind):
 *  - Zero-copy numpy both ways is the buffer protocol (PEP 3118). A C type can
 *    count the views it has exported and so decide what close() does while
 *    numpy still looks at the memory; cffi and SWIG hand out raw pointers that
 *    know nothing of the tile's lifetime.
 *  - Per-call overhead is what a Python caller of a 1x1 tile pays: a METH_FASTCALL
 *    function that checks its arguments, releases the GIL and calls libpto costs
 *    less than a cffi or SWIG call through a Python wrapper (README, Python).
 *  - Exceptions: the status and the pto_last_error() sentence are read on the
 *    calling OS thread right after the call, before anything else runs.
 *  - No build dependency beyond Python's headers (no numpy headers, no generator),
 *    and nothing generated to commit. The enum values come from the compiled
 *    header (the module's constants), so Python cannot drift from C.
 * The Pythonic surface (enums, exceptions, numpy dtypes, profile context
 * manager) is the pure-Python package in ../pto/__init__.py.
 *
 * Lifetime model. TileCore and BufferCore objects own one libpto handle each.
 * Their memory is "pinned" by every exported buffer view (numpy arrays,
 * memoryviews) and, for a tile, by every operation running without the GIL; a
 * buffer is also pinned by each live tile placed in it. close() makes the object
 * unusable at once (ValueError) but destroys the handle only when the last pin
 * is gone, so a view never dangles. All counters change under the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pto_c.h>

#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Enum members and exception classes, registered by pto/__init__.py       */
/* ---------------------------------------------------------------------- */

#define DTYPE_COUNT 9
#define STATUS_COUNT 9
#define PROFILE_COUNT 3

static PyObject *dtype_members;   /* tuple of pto.DType, indexed by value */
static PyObject *status_type;     /* pto.Status */
static PyObject *profile_members; /* tuple of pto.Profile, indexed by value */
static PyObject *error_base;      /* pto.Error */
static PyObject *error_classes;   /* tuple of exception classes, indexed by status (0 unused) */

/* Raises the exception for a failing status: the class registered for it
 * (pto.Error for a status the table does not know), with this thread's
 * pto_last_error() sentence as the message and a pto.Status as .status. Must run
 * on the thread that made the failing call, before its next libpto call. */
static void raise_status(pto_status status) {
    const char *sentence = pto_last_error();
    if (sentence == NULL || sentence[0] == '\0') sentence = pto_status_string(status);
    if (error_base == NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s", pto_status_string(status), sentence);
        return;
    }
    PyObject *cls = error_base;
    if ((int)status > 0 && (Py_ssize_t)status < PyTuple_GET_SIZE(error_classes))
        cls = PyTuple_GET_ITEM(error_classes, (Py_ssize_t)status);
    PyObject *message = PyUnicode_FromString(sentence);
    if (message == NULL) return;
    PyObject *code = PyLong_FromLong((long)status);
    PyObject *member = code != NULL ? PyObject_CallOneArg(status_type, code) : NULL;
    if (member == NULL) { /* a value Status does not name: keep the int */
        PyErr_Clear();
        member = code;
        Py_XINCREF(member);
    }
    Py_XDECREF(code);
    PyObject *exc = member != NULL ? PyObject_CallFunctionObjArgs(cls, message, member, NULL) : NULL;
    Py_DECREF(message);
    Py_XDECREF(member);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
}

static PyObject *dtype_object(pto_dtype dtype) {
    if (dtype_members != NULL && (Py_ssize_t)dtype < PyTuple_GET_SIZE(dtype_members)) {
        PyObject *m = PyTuple_GET_ITEM(dtype_members, (Py_ssize_t)dtype);
        Py_INCREF(m);
        return m;
    }
    return PyLong_FromLong((long)dtype);
}

/* ---------------------------------------------------------------------- */
/* Argument helpers                                                         */
/* ---------------------------------------------------------------------- */

/* An int-like (int, IntEnum) as a C int; the library judges the value. */
static int as_enum_value(PyObject *o, const char *what, int *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be an int or an enum member, not %.100s", what,
                         Py_TYPE(o)->tp_name);
        }
        return -1;
    }
    /* Out of int's range: pass a value no enum has, so libpto reports it. */
    *out = v < INT32_MIN || v > INT32_MAX ? INT32_MAX : (int)v;
    return 0;
}

static int as_uint32(PyObject *o, const char *what, uint32_t *out) {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        v = -1;
    }
    if (v < 0 || v > (long long)UINT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s must be in [0, 4294967295]", what);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int as_size(PyObject *o, const char *what, size_t *out) {
    Py_ssize_t v = PyNumber_AsSsize_t(o, NULL);
    if (v == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is too large", what);
        return -1;
    }
    if (v < 0) {
        PyErr_Format(PyExc_ValueError, "%s must not be negative", what);
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

/* Sorts fast-call arguments into out[0..nmax) by position, then by keyword.
 * Missing optional arguments stay NULL. */
static int parse_fastcall(const char *fname, const char *const *names, Py_ssize_t nrequired,
                          Py_ssize_t nmax, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                          PyObject **out) {
    if (nargs > nmax) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %zd arguments (%zd given)", fname, nmax, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nmax; ++i) out[i] = i < nargs ? args[i] : NULL;
    const Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; ++k) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t slot = -1;
        for (Py_ssize_t i = 0; i < nmax; ++i)
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) slot = i;
        if (slot < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
        if (out[slot] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[slot]);
            return -1;
        }
        out[slot] = args[nargs + k];
    }
    for (Py_ssize_t i = 0; i < nrequired; ++i)
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname, names[i]);
            return -1;
        }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* BufferCore                                                               */
/* ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    pto_buffer *handle; /* NULL until created, and after the deferred destroy */
    int closed;
    Py_ssize_t pins;    /* exported views + live placed tiles */
    Py_buffer wrapped;  /* the caller's memory, for Buffer.wrap */
    int has_wrapped;
    Py_ssize_t shape[1];
} BufferObject;

static PyTypeObject BufferType;

static void buffer_release_storage(BufferObject *self) {
    pto_buffer_destroy(self->handle);
    self->handle = NULL;
    if (self->has_wrapped) {
        self->has_wrapped = 0;
        PyBuffer_Release(&self->wrapped);
    }
}

static void buffer_unpin(BufferObject *self) {
    if (--self->pins == 0 && self->closed) buffer_release_storage(self);
}

static int buffer_check_open(BufferObject *self) {
    if (self->handle == NULL || self->closed) {
        PyErr_SetString(PyExc_ValueError, self->handle == NULL && !self->closed
                                              ? "pto.Buffer is not initialised"
                                              : "pto.Buffer is closed");
        return -1;
    }
    return 0;
}

static PyObject *buffer_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)args;
    (void)kwds;
    BufferObject *self = (BufferObject *)type->tp_alloc(type, 0);
    return (PyObject *)self; /* zeroed: no handle, open, no pins */
}

static int buffer_init(BufferObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"nbytes", NULL};
    PyObject *nbytes_obj;
    size_t nbytes;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Buffer", kwlist, &nbytes_obj)) return -1;
    if (self->handle != NULL || self->closed) {
        PyErr_SetString(PyExc_TypeError, "pto.Buffer is already initialised");
        return -1;
    }
    if (as_size(nbytes_obj, "nbytes", &nbytes) < 0) return -1;
    pto_status s = pto_buffer_create(nbytes, &self->handle);
    if (s != PTO_OK) {
        raise_status(s);
        return -1;
    }
    return 0;
}

static void buffer_dealloc(BufferObject *self) {
    /* Views and placed tiles hold references, so no pin is left here. */
    buffer_release_storage(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *buffer_wrap(PyTypeObject *cls, PyObject *obj) {
    BufferObject *self = (BufferObject *)cls->tp_alloc(cls, 0);
    if (self == NULL) return NULL;
    if (PyObject_GetBuffer(obj, &self->wrapped, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->has_wrapped = 1;
    pto_status s = pto_buffer_wrap(self->wrapped.buf, (size_t)self->wrapped.len, &self->handle);
    if (s != PTO_OK) {
        raise_status(s);
        Py_DECREF(self); /* releases the view */
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *buffer_close(BufferObject *self, PyObject *unused) {
    (void)unused;
    if (!self->closed) {
        self->closed = 1;
        if (self->pins == 0) buffer_release_storage(self);
    }
    Py_RETURN_NONE;
}

static PyObject *buffer_enter(BufferObject *self, PyObject *unused) {
    (void)unused;
    if (buffer_check_open(self) < 0) return NULL;
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *buffer_exit(BufferObject *self, PyObject *args) {
    (void)args;
    return buffer_close(self, NULL);
}

static PyObject *buffer_get_nbytes(BufferObject *self, void *closure) {
    (void)closure;
    if (buffer_check_open(self) < 0) return NULL;
    return PyLong_FromSize_t(pto_buffer_size(self->handle));
}

static PyObject *buffer_get_closed(BufferObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->closed);
}

static int buffer_getbuffer(BufferObject *self, Py_buffer *view, int flags) {
    if (buffer_check_open(self) < 0) {
        view->obj = NULL;
        return -1;
    }
    self->shape[0] = (Py_ssize_t)pto_buffer_size(self->handle);
    if (PyBuffer_FillInfo(view, (PyObject *)self, pto_buffer_data(self->handle), self->shape[0], 0, flags) < 0)
        return -1;
    self->pins++;
    return 0;
}

static void buffer_releasebuffer(BufferObject *self, Py_buffer *view) {
    (void)view;
    buffer_unpin(self);
}

static PyBufferProcs buffer_as_buffer = {(getbufferproc)buffer_getbuffer, (releasebufferproc)buffer_releasebuffer};

static PyMethodDef buffer_methods[] = {
    {"wrap", (PyCFunction)buffer_wrap, METH_O | METH_CLASS,
     "wrap(obj)\n--\n\n"
     "A buffer over the memory of obj, without copying: any writable, C-contiguous\n"
     "buffer-protocol object (a numpy array, bytearray, memoryview, mmap...). The buffer\n"
     "keeps a reference to obj and holds its buffer export, so obj cannot be resized,\n"
     "until the buffer is closed and every tile placed in it is gone.\n"
     "Raises BufferError (or the exporter's ValueError) for read-only or non-contiguous\n"
     "memory, TypeError for an object"
     " without the buffer protocol, InvalidArgumentError for 0 bytes or more than 256 MiB."},
    {"close", (PyCFunction)buffer_close, METH_NOARGS,
     "close()\n--\n\n"
     "Ends the use of this buffer: afterwards it raises ValueError when used. Tiles placed in\n"
     "it and numpy views of it stay valid; its memory is released when the last of them is\n"
     "gone. Closing twice is harmless."},
    {"__enter__", (PyCFunction)buffer_enter, METH_NOARGS, "Returns the buffer."},
    {"__exit__", (PyCFunction)buffer_exit, METH_VARARGS, "Closes the buffer."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef buffer_getset[] = {
    {"nbytes", (getter)buffer_get_nbytes, NULL, "Size of the buffer in bytes.", NULL},
    {"closed", (getter)buffer_get_closed, NULL, "True once close() was called.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BufferType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pto._pto.BufferCore",
    .tp_basicsize = sizeof(BufferObject),
    .tp_dealloc = (destructor)buffer_dealloc,
    .tp_as_buffer = &buffer_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C core of pto.Buffer: one pto_buffer handle and its lifetime.",
    .tp_methods = buffer_methods,
    .tp_getset = buffer_getset,
    .tp_init = (initproc)buffer_init,
    .tp_new = buffer_new,
};

/* ---------------------------------------------------------------------- */
/* TileCore                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    pto_tile *handle;     /* NULL until created, and after the deferred destroy */
    int closed;
    Py_ssize_t pins;      /* exported views + operations running without the GIL */
    BufferObject *buffer; /* the buffer a placed tile lives in (a reference), or NULL */
    Py_ssize_t shape[2];
    Py_ssize_t strides[2];
} TileObject;

static PyTypeObject TileType;

static void tile_destroy_handle(TileObject *self) {
    if (self->handle == NULL) return;
    pto_tile_destroy(self->handle);
    self->handle = NULL;
    if (self->buffer != NULL) {
        BufferObject *buffer = self->buffer;
        self->buffer = NULL;
        buffer_unpin(buffer);
        Py_DECREF(buffer);
    }
}

static void tile_unpin(TileObject *self) {
    if (--self->pins == 0 && self->closed) tile_destroy_handle(self);
}

/* The tile's handle for an operation, or -1 with ValueError for a closed or
 * uninitialised tile, TypeError for something that is not a tile. None gives a
 * NULL handle, which libpto judges (PTO_ERR_NULL_ARGUMENT where one is needed). */
static int tile_arg(PyObject *o, const char *fname, const char *argname, pto_tile **out) {
    if (o == NULL || o == Py_None) {
        *out = NULL;
        return 0;
    }
    if (!PyObject_TypeCheck(o, &TileType)) {
        PyErr_Format(PyExc_TypeError, "%s: %s must be a pto.Tile or None, not %.100s", fname, argname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    TileObject *t = (TileObject *)o;
    if (t->closed || t->handle == NULL) {
        PyErr_Format(PyExc_ValueError, "%s: %s is %s pto.Tile", fname, argname,
                     t->closed ? "a closed" : "a not initialised");
        return -1;
    }
    *out = t->handle;
    return 0;
}

static int tile_check_open(TileObject *self) {
    if (self->handle == NULL || self->closed) {
        PyErr_SetString(PyExc_ValueError, self->handle == NULL && !self->closed ? "pto.Tile is not initialised"
                                                                                 : "pto.Tile is closed");
        return -1;
    }
    return 0;
}

static PyObject *tile_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)args;
    (void)kwds;
    return type->tp_alloc(type, 0); /* zeroed: no handle, open, no pins */
}

static int tile_parse_layout(PyObject *dtype_obj, PyObject *rows_obj, PyObject *cols_obj, int *dtype,
                             uint32_t *rows, uint32_t *cols) {
    if (as_enum_value(dtype_obj, "dtype", dtype) < 0) return -1;
    if (as_uint32(rows_obj, "rows", rows) < 0) return -1;
    return as_uint32(cols_obj, "cols", cols);
}

static int tile_init(TileObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"dtype", "rows", "cols", NULL};
    PyObject *dtype_obj, *rows_obj, *cols_obj;
    int dtype;
    uint32_t rows, cols;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:Tile", kwlist, &dtype_obj, &rows_obj, &cols_obj)) return -1;
    if (self->handle != NULL || self->closed) {
        PyErr_SetString(PyExc_TypeError, "pto.Tile is already initialised");
        return -1;
    }
    if (tile_parse_layout(dtype_obj, rows_obj, cols_obj, &dtype, &rows, &cols) < 0) return -1;
    pto_status s = pto_tile_create((pto_dtype)dtype, rows, cols, &self->handle);
    if (s != PTO_OK) {
        raise_status(s);
        return -1;
    }
    return 0;
}

static PyObject *tile_at(PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"buffer", "offset", "dtype", "rows", "cols"};
    PyObject *a[5];
    if (parse_fastcall("at", names, 5, 5, args, nargs, kwnames, a) < 0) return NULL;
    BufferObject *buffer = NULL;
    if (a[0] != Py_None) {
        if (!PyObject_TypeCheck(a[0], &BufferType)) {
            PyErr_Format(PyExc_TypeError, "at: buffer must be a pto.Buffer or None, not %.100s",
                         Py_TYPE(a[0])->tp_name);
            return NULL;
        }
        buffer = (BufferObject *)a[0];
        if (buffer_check_open(buffer) < 0) return NULL;
    }
    size_t offset;
    int dtype;
    uint32_t rows, cols;
    if (as_size(a[1], "offset", &offset) < 0) return NULL;
    if (tile_parse_layout(a[2], a[3], a[4], &dtype, &rows, &cols) < 0) return NULL;
    TileObject *self = (TileObject *)cls->tp_alloc(cls, 0);
    if (self == NULL) return NULL;
    pto_status s = pto_tile_create_at((pto_dtype)dtype, rows, cols, buffer != NULL ? buffer->handle : NULL,
                                      offset, &self->handle);
    if (s != PTO_OK) {
        raise_status(s);
        Py_DECREF(self);
        return NULL;
    }
    Py_INCREF(buffer);
    self->buffer = buffer;
    buffer->pins++;
    return (PyObject *)self;
}

static void tile_dealloc(TileObject *self) {
    /* Views and running operations hold references, so no pin is left here. */
    tile_destroy_handle(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *tile_close(TileObject *self, PyObject *unused) {
    (void)unused;
    if (!self->closed) {
        self->closed = 1;
        if (self->pins == 0) tile_destroy_handle(self);
    }
    Py_RETURN_NONE;
}

static PyObject *tile_enter(TileObject *self, PyObject *unused) {
    (void)unused;
    if (tile_check_open(self) < 0) return NULL;
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *tile_exit(TileObject *self, PyObject *args) {
    (void)args;
    return tile_close(self, NULL);
}

#define TILE_GETTER(name, expr)                                         \
    static PyObject *tile_get_##name(TileObject *self, void *closure) { \
        (void)closure;                                                  \
        if (tile_check_open(self) < 0) return NULL;                     \
        return expr;                                                    \
    }
TILE_GETTER(dtype, dtype_object(pto_tile_dtype(self->handle)))
TILE_GETTER(rows, PyLong_FromUnsignedLong(pto_tile_rows(self->handle)))
TILE_GETTER(cols, PyLong_FromUnsignedLong(pto_tile_cols(self->handle)))
TILE_GETTER(shape, Py_BuildValue("(kk)", (unsigned long)pto_tile_rows(self->handle),
                                 (unsigned long)pto_tile_cols(self->handle)))
TILE_GETTER(valid, Py_BuildValue("(kk)", (unsigned long)pto_tile_valid_rows(self->handle),
                                 (unsigned long)pto_tile_valid_cols(self->handle)))
TILE_GETTER(offset, PyLong_FromSize_t(pto_tile_offset(self->handle)))
TILE_GETTER(nbytes, PyLong_FromSize_t((size_t)pto_tile_rows(self->handle) * pto_tile_cols(self->handle) *
                                      pto_dtype_size(pto_tile_dtype(self->handle))))

static PyObject *tile_get_buffer(TileObject *self, void *closure) {
    (void)closure;
    if (tile_check_open(self) < 0) return NULL;
    PyObject *b = self->buffer != NULL ? (PyObject *)self->buffer : Py_None;
    Py_INCREF(b);
    return b;
}

static PyObject *tile_get_closed(TileObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->closed);
}

static int tile_set_valid(TileObject *self, PyObject *value, void *closure) {
    (void)closure;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "the valid region cannot be deleted");
        return -1;
    }
    if (tile_check_open(self) < 0) return -1;
    PyObject *seq = PySequence_Fast(value, "valid must be a (rows, cols) pair");
    if (seq == NULL) return -1;
    uint32_t rows = 0, cols = 0;
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(seq) != 2)
        PyErr_SetString(PyExc_ValueError, "valid must be a (rows, cols) pair");
    else if (as_uint32(PySequence_Fast_GET_ITEM(seq, 0), "valid rows", &rows) == 0 &&
             as_uint32(PySequence_Fast_GET_ITEM(seq, 1), "valid cols", &cols) == 0) {
        pto_status s = pto_tile_set_valid(self->handle, rows, cols);
        if (s == PTO_OK) rc = 0;
        else raise_status(s);
    }
    Py_DECREF(seq);
    return rc;
}

/* PEP 3118 format per dtype; BFLOAT16 is exported as its raw 16 bits. */
static const char *tile_format(pto_dtype dtype) {
    switch (dtype) {
    case PTO_INT8: return "b";
    case PTO_UINT8: return "B";
    case PTO_INT16: return "h";
    case PTO_UINT16: return "H";
    case PTO_INT32: return "i";
    case PTO_UINT32: return "I";
    case PTO_FLOAT16: return "e";
    case PTO_BFLOAT16: return "H";
    case PTO_FLOAT32: return "f";
    }
    return "B";
}

static int tile_getbuffer(TileObject *self, Py_buffer *view, int flags) {
    view->obj = NULL;
    if (tile_check_open(self) < 0) return -1;
    const pto_dtype dtype = pto_tile_dtype(self->handle);
    const Py_ssize_t itemsize = (Py_ssize_t)pto_dtype_size(dtype);
    self->shape[0] = (Py_ssize_t)pto_tile_rows(self->handle);
    self->shape[1] = (Py_ssize_t)pto_tile_cols(self->handle);
    self->strides[0] = self->shape[1] * itemsize;
    self->strides[1] = itemsize;
    view->buf = pto_tile_data(self->handle);
    view->len = self->shape[0] * self->shape[1] * itemsize;
    view->readonly = 0;
    view->itemsize = itemsize;
    view->format = (flags & PyBUF_FORMAT) ? (char *)tile_format(dtype) : NULL;
    view->ndim = 2;
    view->shape = (flags & PyBUF_ND) ? self->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) ? self->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    if (view->shape == NULL) view->ndim = 1; /* PyBUF_SIMPLE: plain bytes */
    view->obj = (PyObject *)self;
    Py_INCREF(self);
    self->pins++;
    return 0;
}

static void tile_releasebuffer(TileObject *self, Py_buffer *view) {
    (void)view;
    tile_unpin(self);
}

static PyBufferProcs tile_as_buffer = {(getbufferproc)tile_getbuffer, (releasebufferproc)tile_releasebuffer};

static PyMethodDef tile_methods[] = {
    {"at", (PyCFunction)(void (*)(void))tile_at, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "at(buffer, offset, dtype, rows, cols)\n--\n\n"
     "A tile placed in buffer at byte offset (TASSIGN): its rows x cols elements are the\n"
     "bytes [offset, offset + rows*cols*itemsize) of the buffer, left as they are. Tiles\n"
     "may overlap; operations refuse overlapping reads and writes (AliasingError). The\n"
     "tile keeps the buffer's memory alive.\n"
     "Raises OutOfRangeError if it does not fit, InvalidArgumentError for a misaligned\n"
     "offset, a bad dtype or a zero dimension, NullArgumentError for buffer=None."},
    {"close", (PyCFunction)tile_close, METH_NOARGS,
     "close()\n--\n\n"
     "Ends the use of this tile: afterwards it raises ValueError when used. numpy views\n"
     "that are still alive stay valid; the storage is freed when the last one is gone.\n"
     "Closing twice is harmless."},
    {"__enter__", (PyCFunction)tile_enter, METH_NOARGS, "Returns the tile."},
    {"__exit__", (PyCFunction)tile_exit, METH_VARARGS, "Closes the tile."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef tile_getset[] = {
    {"dtype", (getter)tile_get_dtype, NULL, "The element type, a pto.DType.", NULL},
    {"rows", (getter)tile_get_rows, NULL, "Number of rows.", NULL},
    {"cols", (getter)tile_get_cols, NULL, "Number of columns (the row stride, in elements).", NULL},
    {"shape", (getter)tile_get_shape, NULL, "(rows, cols).", NULL},
    {"valid", (getter)tile_get_valid, (setter)tile_set_valid,
     "The valid region (valid_rows, valid_cols), anchored at (0, 0). Assigning a pair sets\n"
     "it (pto_tile_set_valid); a region larger than the tile raises OutOfRangeError.",
     NULL},
    {"nbytes", (getter)tile_get_nbytes, NULL, "rows * cols * itemsize.", NULL},
    {"buffer", (getter)tile_get_buffer, NULL, "The pto.Buffer a placed tile lives in; None for an owned tile.",
     NULL},
    {"offset", (getter)tile_get_offset, NULL, "A placed tile's byte offset in its buffer; 0 for an owned tile.",
     NULL},
    {"closed", (getter)tile_get_closed, NULL, "True once close() was called.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TileType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pto._pto.TileCore",
    .tp_basicsize = sizeof(TileObject),
    .tp_dealloc = (destructor)tile_dealloc,
    .tp_as_buffer = &tile_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C core of pto.Tile: one pto_tile handle and its lifetime.",
    .tp_methods = tile_methods,
    .tp_getset = tile_getset,
    .tp_init = (initproc)tile_init,
    .tp_new = tile_new,
};

/* ---------------------------------------------------------------------- */
/* Operations                                                               */
/* ---------------------------------------------------------------------- */

#define MAX_OPERANDS 4

/* The operands of one call: their handles, and the tile objects pinned while
 * the kernel runs without the GIL. */
typedef struct {
    pto_tile *handle[MAX_OPERANDS];
    TileObject *pinned[MAX_OPERANDS];
    int count;
} operands;

static int collect_operands(const char *fname, const char *const *names, PyObject *const *objs, int count,
                            operands *ops) {
    ops->count = count;
    for (int i = 0; i < count; ++i) {
        if (tile_arg(objs[i], fname, names[i], &ops->handle[i]) < 0) return -1;
        ops->pinned[i] = ops->handle[i] != NULL ? (TileObject *)objs[i] : NULL;
    }
    return 0;
}

static void pin_operands(operands *ops) {
    for (int i = 0; i < ops->count; ++i)
        if (ops->pinned[i] != NULL) ops->pinned[i]->pins++;
}

static void unpin_operands(operands *ops) {
    for (int i = 0; i < ops->count; ++i)
        if (ops->pinned[i] != NULL) tile_unpin(ops->pinned[i]);
}

/* Finishes an operation: the error (made before anything else can call libpto
 * on this thread), then the pins, then dst as the result. */
static PyObject *finish_operation(pto_status s, operands *ops, PyObject *dst) {
    if (s != PTO_OK) raise_status(s);
    unpin_operands(ops);
    if (s != PTO_OK) return NULL;
    Py_INCREF(dst);
    return dst;
}

/* Releasing and retaking the GIL costs about 30 ns here, more than the kernel
 * for a few hundred elements, so (as numpy does for small arrays) a call whose
 * dst valid region has fewer elements than this keeps it. */
#define GIL_RELEASE_MIN_ELEMENTS 1024

static int worth_releasing_gil(pto_tile *dst) {
    return dst != NULL &&
           (uint64_t)pto_tile_valid_rows(dst) * pto_tile_valid_cols(dst) >= GIL_RELEASE_MIN_ELEMENTS;
}

/* Runs CALL with every operand pinned, so that a close() from another thread
 * cannot free one meanwhile, and without the GIL when the work is large. */
#define RUN_OPERATION(status, ops, CALL)          \
    do {                                          \
        pin_operands(&(ops));                     \
        if (worth_releasing_gil((ops).handle[0])) { \
            Py_BEGIN_ALLOW_THREADS                \
            (status) = (CALL);                    \
            Py_END_ALLOW_THREADS                  \
        } else {                                  \
            (status) = (CALL);                    \
        }                                         \
    } while (0)

static PyObject *op_tpow(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"dst", "base", "exp", "tmp", "algorithm"};
    PyObject *a[5];
    if (parse_fastcall("tpow", names, 4, 5, args, nargs, kwnames, a) < 0) return NULL;
    int algo = PTO_POW_DEFAULT;
    if (a[4] != NULL && as_enum_value(a[4], "algorithm", &algo) < 0) return NULL;
    operands ops;
    if (collect_operands("pto_tpow", names, a, 4, &ops) < 0) return NULL;
    pto_status s;
    RUN_OPERATION(s, ops, pto_tpow(ops.handle[0], ops.handle[1], ops.handle[2], ops.handle[3],
                                     (pto_pow_algorithm)algo));
    return finish_operation(s, &ops, a[0]);
}

static PyObject *op_trsqrt(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"dst", "src"};
    PyObject *a[2];
    if (parse_fastcall("trsqrt", names, 2, 2, args, nargs, kwnames, a) < 0) return NULL;
    operands ops;
    if (collect_operands("pto_trsqrt", names, a, 2, &ops) < 0) return NULL;
    pto_status s;
    RUN_OPERATION(s, ops, pto_trsqrt(ops.handle[0], ops.handle[1]));
    return finish_operation(s, &ops, a[0]);
}

static PyObject *op_tprelu(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"dst", "src0", "src1", "tmp"};
    PyObject *a[4];
    if (parse_fastcall("tprelu", names, 3, 4, args, nargs, kwnames, a) < 0) return NULL;
    operands ops;
    if (collect_operands("pto_tprelu", names, a, 4, &ops) < 0) return NULL;
    pto_status s;
    RUN_OPERATION(s, ops, pto_tprelu(ops.handle[0], ops.handle[1], ops.handle[2], ops.handle[3]));
    return finish_operation(s, &ops, a[0]);
}

static PyObject *op_tcolexpanddiv(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"dst", "src0", "src1"};
    PyObject *a[3];
    if (parse_fastcall("tcolexpanddiv", names, 3, 3, args, nargs, kwnames, a) < 0) return NULL;
    operands ops;
    if (collect_operands("pto_tcolexpanddiv", names, a, 3, &ops) < 0) return NULL;
    pto_status s;
    RUN_OPERATION(s, ops, pto_tcolexpanddiv(ops.handle[0], ops.handle[1], ops.handle[2]));
    return finish_operation(s, &ops, a[0]);
}

static PyObject *op_tpartadd(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"dst", "src0", "src1"};
    PyObject *a[3];
    if (parse_fastcall("tpartadd", names, 3, 3, args, nargs, kwnames, a) < 0) return NULL;
    operands ops;
    if (collect_operands("pto_tpartadd", names, a, 3, &ops) < 0) return NULL;
    pto_status s;
    RUN_OPERATION(s, ops, pto_tpartadd(ops.handle[0], ops.handle[1], ops.handle[2]));
    return finish_operation(s, &ops, a[0]);
}

/* ---------------------------------------------------------------------- */
/* Library queries and profiles                                             */
/* ---------------------------------------------------------------------- */

static PyObject *mod_version(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return PyUnicode_FromString(pto_version_string());
}

static PyObject *mod_simd_target(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return PyUnicode_FromString(pto_simd_target());
}

static PyObject *mod_dtype_size(PyObject *module, PyObject *arg) {
    (void)module;
    int dtype;
    if (as_enum_value(arg, "dtype", &dtype) < 0) return NULL;
    return PyLong_FromSize_t(pto_dtype_size((pto_dtype)dtype));
}

static PyObject *mod_set_profile(PyObject *module, PyObject *arg) {
    (void)module;
    int profile;
    if (as_enum_value(arg, "profile", &profile) < 0) return NULL;
    pto_status s = pto_set_profile((pto_profile)profile);
    if (s != PTO_OK) {
        raise_status(s);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *mod_get_profile(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    const pto_profile p = pto_get_profile();
    if (profile_members != NULL && (Py_ssize_t)p < PyTuple_GET_SIZE(profile_members)) {
        PyObject *m = PyTuple_GET_ITEM(profile_members, (Py_ssize_t)p);
        Py_INCREF(m);
        return m;
    }
    return PyLong_FromLong((long)p);
}

static int set_registry(PyObject **slot, PyObject *value) {
    Py_XINCREF(value);
    Py_XSETREF(*slot, value);
    return 0;
}

static PyObject *mod_register(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *dtypes, *status, *profiles, *base, *classes;
    if (!PyArg_ParseTuple(args, "O!OO!OO!:_register", &PyTuple_Type, &dtypes, &status, &PyTuple_Type, &profiles,
                          &base, &PyTuple_Type, &classes))
        return NULL;
    set_registry(&dtype_members, dtypes);
    set_registry(&status_type, status);
    set_registry(&profile_members, profiles);
    set_registry(&error_base, base);
    set_registry(&error_classes, classes);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"tpow", (PyCFunction)(void (*)(void))op_tpow, METH_FASTCALL | METH_KEYWORDS,
     "tpow($module, /, dst, base, exp, tmp, algorithm=PowAlgorithm.DEFAULT)\n--\n\n"
     "TPOW: dst[i, j] = base[i, j] ** exp[i, j] over dst's valid region; returns dst.\n\n"
     "All tiles have dst's dtype; base, exp and tmp valid regions equal dst's. tmp is\n"
     "required and left unchanged. DEFAULT: all nine dtypes (float32 <= 8 ulp where the\n"
     "result is normal). HIGH_PRECISION: FLOAT16, BFLOAT16, FLOAT32 (<= 1 ulp, exact where\n"
     "representable). Integers are exact and wrap modulo 2**bits; a negative exponent gives\n"
     "1 for base 1, +/-1 for base -1, else 0. Special cases follow C99 Annex F pow.\n"
     "Releases the GIL while the kernel runs (on 1024 elements or more)."},
    {"trsqrt", (PyCFunction)(void (*)(void))op_trsqrt, METH_FASTCALL | METH_KEYWORDS,
     "trsqrt($module, /, dst, src)\n--\n\n"
     "TRSQRT: dst[i, j] = 1 / sqrt(src[i, j]), FLOAT32 or FLOAT16, <= 1 ulp; returns dst.\n\n"
     "+0 -> +inf, -0 -> -inf, negative -> nan, +inf -> +0. src's valid region equals\n"
     "dst's. Releases the GIL while the kernel runs (on 1024 elements or more)."},
    {"tprelu", (PyCFunction)(void (*)(void))op_tprelu, METH_FASTCALL | METH_KEYWORDS,
     "tprelu($module, /, dst, src0, src1, tmp=None)\n--\n\n"
     "TPRELU: dst[i, j] = src0 if src0 > 0 else src0 * src1 (src1 is the slope); returns dst.\n\n"
     "All nine dtypes, all equal; integer products wrap, float products are correctly\n"
     "rounded. tmp is optional on HOST and A5, required on the A2A3 profile (with valid\n"
     "rows >= dst's valid cols + 1 and no overlapping operands). Releases the GIL (1024 elements or more)."},
    {"tcolexpanddiv", (PyCFunction)(void (*)(void))op_tcolexpanddiv, METH_FASTCALL | METH_KEYWORDS,
     "tcolexpanddiv($module, /, dst, src0, src1)\n--\n\n"
     "TCOLEXPANDDIV: dst[i, j] = src0[i, j] / src1[0, j]; returns dst.\n\n"
     "FLOAT32 or FLOAT16, correctly rounded IEEE division. src0's valid region equals dst's;\n"
     "src1 needs valid rows >= 1 and valid cols >= dst's. Releases the GIL (1024 elements or more)."},
    {"tpartadd", (PyCFunction)(void (*)(void))op_tpartadd, METH_FASTCALL | METH_KEYWORDS,
     "tpartadd($module, /, dst, src0, src1)\n--\n\n"
     "TPARTADD over dst's valid region: src0 + src1 where both sources are valid, a copy of\n"
     "the one valid source elsewhere; returns dst.\n\n"
     "All nine dtypes, all equal; integer sums wrap, float sums are correctly rounded. One\n"
     "source's valid region must equal dst's and the other's must not exceed it\n"
     "(ShapeMismatchError otherwise). Releases the GIL (1024 elements or more)."},
    {"version", mod_version, METH_NOARGS, "version()\n--\n\nThe library's version, pto_version_string()."},
    {"simd_target", mod_simd_target, METH_NOARGS,
     "simd_target()\n--\n\n"
     "The SIMD target the kernels dispatch to on this CPU, e.g. \"AVX3\", \"AVX2\", \"SSE4\" or\n"
     "\"EMU128\" (the portable fallback)."},
    {"dtype_size", mod_dtype_size, METH_O, "dtype_size(dtype)\n--\n\nBytes per element; 0 for an unknown value."},
    {"set_profile", mod_set_profile, METH_O,
     "set_profile(profile)\n--\n\n"
     "Sets the calling thread's target profile (other threads keep theirs). A value\n"
     "outside pto.Profile raises InvalidArgumentError and changes nothing."},
    {"get_profile", mod_get_profile, METH_NOARGS,
     "get_profile()\n--\n\nThe calling thread's target profile; Profile.HOST until set."},
    {"_register", mod_register, METH_VARARGS,
     "_register(dtypes, status, profiles, error, error_classes)\n--\n\n"
     "Called once by the pto package: the enum members and exception classes the C layer\n"
     "returns and raises."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef pto_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pto._pto",
    .m_doc = "The C layer of the pto package (libpto's tiles, buffers and operations). Use `pto`.",
    .m_size = -1,
    .m_methods = module_methods,
};

/* The C enumerators, so that pto's enums take their values from the header. */
static int add_constants(PyObject *m) {
#define ADD(name) \
    if (PyModule_AddIntConstant(m, #name, name) < 0) return -1
    ADD(PTO_INT8); ADD(PTO_UINT8); ADD(PTO_INT16); ADD(PTO_UINT16); ADD(PTO_INT32);
    ADD(PTO_UINT32); ADD(PTO_FLOAT16); ADD(PTO_BFLOAT16); ADD(PTO_FLOAT32);
    ADD(PTO_OK); ADD(PTO_ERR_NULL_ARGUMENT); ADD(PTO_ERR_INVALID_ARGUMENT);
    ADD(PTO_ERR_UNSUPPORTED_DTYPE); ADD(PTO_ERR_DTYPE_MISMATCH); ADD(PTO_ERR_SHAPE_MISMATCH);
    ADD(PTO_ERR_OUT_OF_RANGE); ADD(PTO_ERR_ALIASING); ADD(PTO_ERR_OUT_OF_MEMORY);
    ADD(PTO_POW_DEFAULT); ADD(PTO_POW_HIGH_PRECISION);
    ADD(PTO_PROFILE_HOST); ADD(PTO_PROFILE_A2A3); ADD(PTO_PROFILE_A5);
#undef ADD
    if (PyModule_AddObject(m, "TILE_MAX_BYTES", PyLong_FromSize_t(PTO_TILE_MAX_BYTES)) < 0) return -1;
    return 0;
}

PyMODINIT_FUNC PyInit__pto(void) {
    if (PyType_Ready(&TileType) < 0 || PyType_Ready(&BufferType) < 0) return NULL;
    PyObject *m = PyModule_Create(&pto_module);
    if (m == NULL) return NULL;
    Py_INCREF(&TileType);
    Py_INCREF(&BufferType);
    if (PyModule_AddObject(m, "TileCore", (PyObject *)&TileType) < 0 ||
        PyModule_AddObject(m, "BufferCore", (PyObject *)&BufferType) < 0 || add_constants(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
