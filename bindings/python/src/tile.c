/* pto._pto.TileCore: one pto_tile handle, its buffer-protocol views and its
 * lifetime. */
#include "pto_python.h"

#include <stdint.h>

static void tile_destroy_handle(TileObject *self) {
    if (self->handle == NULL) return;
    pto_tile_destroy(self->handle);
    self->handle = NULL;
    if (self->buffer != NULL) {
        BufferObject *buffer = self->buffer;
        self->buffer = NULL;
        buffer_unpin(buffer);
        Py_DECREF((PyObject *)buffer);
    }
}

void tile_unpin(TileObject *self) {
    if (--self->pins == 0 && self->closed) tile_destroy_handle(self);
}

/* The tile's handle for an operation, or -1 with ValueError for a closed or
 * uninitialised tile, TypeError for something that is not a tile. None gives a
 * NULL handle, which libpto judges (PTO_ERR_NULL_ARGUMENT where one is needed). */
int tile_arg(PyObject *o, const char *fname, const char *argname, pto_tile **out) {
    if (o == NULL || o == Py_None) {
        *out = NULL;
        return 0;
    }
    if (!PyObject_TypeCheck(o, TileType)) {
        PyObject *name = type_name(o);
        if (name != NULL) {
            PyErr_Format(PyExc_TypeError, "%s: %s must be a pto.Tile or None, not %.100U", fname, argname,
                         name);
            Py_DECREF(name);
        }
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
        PyErr_SetString(PyExc_ValueError, self->closed ? "pto.Tile is closed" : "pto.Tile is not initialised");
        return -1;
    }
    return 0;
}

static PyObject *tile_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)args;
    (void)kwds;
    return PyType_GenericAlloc(type, 0); /* zeroed: no handle, open, no pins */
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
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:Tile", kwlist, &dtype_obj, &rows_obj, &cols_obj))
        return -1;
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
        if (!PyObject_TypeCheck(a[0], BufferType)) {
            PyObject *name = type_name(a[0]);
            if (name != NULL) {
                PyErr_Format(PyExc_TypeError, "at: buffer must be a pto.Buffer or None, not %.100U", name);
                Py_DECREF(name);
            }
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
    TileObject *self = (TileObject *)PyType_GenericAlloc(cls, 0);
    if (self == NULL) return NULL;
    pto_status s = pto_tile_create_at((pto_dtype)dtype, rows, cols, buffer != NULL ? buffer->handle : NULL,
                                      offset, &self->handle);
    if (s != PTO_OK) {
        raise_status(s);
        Py_DECREF((PyObject *)self);
        return NULL;
    }
    Py_INCREF((PyObject *)buffer);
    self->buffer = buffer;
    buffer->pins++;
    return (PyObject *)self;
}

static PyObject *tile_cube(PyTypeObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"dtype", "rows", "cols", "location", "layout"};
    PyObject *a[5];
    if (parse_fastcall("cube", names, 5, 5, args, nargs, kwnames, a) < 0) return NULL;
    int dtype, location, layout;
    uint32_t rows, cols;
    if (tile_parse_layout(a[0], a[1], a[2], &dtype, &rows, &cols) < 0) return NULL;
    if (as_enum_value(a[3], "location", &location) < 0 || as_enum_value(a[4], "layout", &layout) < 0)
        return NULL;
    TileObject *self = (TileObject *)PyType_GenericAlloc(cls, 0);
    if (self == NULL) return NULL;
    pto_status s = pto_tile_create_cube((pto_dtype)dtype, rows, cols, (pto_location)location,
                                        (pto_layout)layout, &self->handle);
    if (s != PTO_OK) {
        raise_status(s);
        Py_DECREF((PyObject *)self);
        return NULL;
    }
    return (PyObject *)self;
}

/* pto_tile_write (read: pto_tile_read) with a C-contiguous buffer-protocol
 * object of exactly the tile's bytes: its values row-major, whatever the
 * tile's layout. */
static PyObject *tile_copy_values(TileObject *self, PyObject *obj, int read) {
    if (tile_check_open(self) < 0) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, read ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    pto_status s = read ? pto_tile_read(self->handle, view.buf, (size_t)view.len)
                        : pto_tile_write(self->handle, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (s != PTO_OK) {
        raise_status(s);
        return NULL;
    }
    Py_RETURN_NONE;
}
static PyObject *tile_write_values(TileObject *self, PyObject *obj) { return tile_copy_values(self, obj, 0); }
static PyObject *tile_read_values(TileObject *self, PyObject *obj) { return tile_copy_values(self, obj, 1); }

static void tile_dealloc(TileObject *self) {
    /* Views and running operations hold references, so no pin is left here. */
    tile_destroy_handle(self);
    object_free((PyObject *)self);
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
    Py_INCREF((PyObject *)self);
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
TILE_GETTER(location, PyLong_FromLong((long)pto_tile_location(self->handle)))
TILE_GETTER(layout, PyLong_FromLong((long)pto_tile_layout(self->handle)))
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
    PyObject *r = NULL, *c = NULL;
    if (PySequence_Size(seq) != 2)
        PyErr_SetString(PyExc_ValueError, "valid must be a (rows, cols) pair");
    else if ((r = PySequence_GetItem(seq, 0)) != NULL && (c = PySequence_GetItem(seq, 1)) != NULL &&
             as_uint32(r, "valid rows", &rows) == 0 && as_uint32(c, "valid cols", &cols) == 0) {
        pto_status s = pto_tile_set_valid(self->handle, rows, cols);
        if (s == PTO_OK) rc = 0;
        else raise_status(s);
    }
    Py_XDECREF(r);
    Py_XDECREF(c);
    Py_DECREF(seq);
    return rc;
}

/* PEP 3118 format per dtype; BFLOAT16 is exported as its raw 16 bits, the
 * low-precision types as their raw bytes. */
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
    case PTO_INT64: return "q";
    case PTO_UINT64: return "Q";
    default: return "B";
    }
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
    Py_INCREF((PyObject *)self);
    self->pins++;
    return 0;
}

static void tile_releasebuffer(TileObject *self, Py_buffer *view) {
    (void)view;
    tile_unpin(self);
}

static PyMethodDef tile_methods[] = {
    {"at", (PyCFunction)(void (*)(void))tile_at, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "at(buffer, offset, dtype, rows, cols)\n--\n\n"
     "A tile placed in buffer at byte offset (TASSIGN): its rows x cols elements are the\n"
     "bytes [offset, offset + rows*cols*itemsize) of the buffer, left as they are. Tiles\n"
     "may overlap; operations refuse overlapping reads and writes (AliasingError). The\n"
     "tile keeps the buffer's memory alive.\n"
     "Raises OutOfRangeError if it does not fit, InvalidArgumentError for a misaligned\n"
     "offset, a bad dtype or a zero dimension, NullArgumentError for buffer=None."},
    {"cube", (PyCFunction)(void (*)(void))tile_cube, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "cube(dtype, rows, cols, location, layout)\n--\n\n"
     "A tile of one of the cube's memories in a layout (pto_tile_create_cube): owned,\n"
     "zero-filled, its storage the NPU memory's byte image. Raises InvalidArgumentError\n"
     "for a layout the location does not hold or boxes that do not tile the shape."},
    {"_write_values", (PyCFunction)tile_write_values, METH_O,
     "_write_values(buffer)\n--\n\n"
     "pto_tile_write: the tile's values from a C-contiguous buffer, row-major."},
    {"_read_values", (PyCFunction)tile_read_values, METH_O,
     "_read_values(buffer)\n--\n\n"
     "pto_tile_read: the tile's values into a writable C-contiguous buffer, row-major."},
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
    {"buffer", (getter)tile_get_buffer, NULL,
     "The pto.Buffer a placed tile lives in; None for an owned tile.", NULL},
    {"offset", (getter)tile_get_offset, NULL,
     "A placed tile's byte offset in its buffer; 0 for an owned tile.", NULL},
    {"closed", (getter)tile_get_closed, NULL, "True once close() was called.", NULL},
    {"_location", (getter)tile_get_location, NULL, "pto_tile_location, as an int.", NULL},
    {"_layout", (getter)tile_get_layout, NULL, "pto_tile_layout, as an int.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject *TileType;

static PyType_Slot tile_slots[] = {
    {Py_tp_dealloc, (void *)tile_dealloc},
    {Py_bf_getbuffer, (void *)tile_getbuffer},
    {Py_bf_releasebuffer, (void *)tile_releasebuffer},
    {Py_tp_doc, (void *)"The C core of pto.Tile: one pto_tile handle and its lifetime."},
    {Py_tp_methods, tile_methods},
    {Py_tp_getset, tile_getset},
    {Py_tp_init, (void *)tile_init},
    {Py_tp_new, (void *)tile_new},
    {0, NULL},
};

PyType_Spec tile_spec = {
    .name = "pto._pto.TileCore",
    .basicsize = sizeof(TileObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = tile_slots,
};
