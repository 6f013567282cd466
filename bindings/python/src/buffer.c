/* pto._pto.BufferCore: one pto_buffer handle, its views and its lifetime. */
#include "pto_python.h"

static void buffer_release_storage(BufferObject *self) {
    pto_buffer_destroy(self->handle);
    self->handle = NULL;
    if (self->has_wrapped) {
        self->has_wrapped = 0;
        PyBuffer_Release(&self->wrapped);
    }
}

void buffer_unpin(BufferObject *self) {
    if (--self->pins == 0 && self->closed) buffer_release_storage(self);
}

int buffer_check_open(BufferObject *self) {
    if (self->handle == NULL || self->closed) {
        PyErr_SetString(PyExc_ValueError, self->closed ? "pto.Buffer is closed" : "pto.Buffer is not initialised");
        return -1;
    }
    return 0;
}

static PyObject *buffer_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)args;
    (void)kwds;
    BufferObject *self = (BufferObject *)PyType_GenericAlloc(type, 0);
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
    object_free((PyObject *)self);
}

static PyObject *buffer_wrap(PyTypeObject *cls, PyObject *obj) {
    BufferObject *self = (BufferObject *)PyType_GenericAlloc(cls, 0);
    if (self == NULL) return NULL;
    if (PyObject_GetBuffer(obj, &self->wrapped, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF((PyObject *)self);
        return NULL;
    }
    self->has_wrapped = 1;
    pto_status s = pto_buffer_wrap(self->wrapped.buf, (size_t)self->wrapped.len, &self->handle);
    if (s != PTO_OK) {
        raise_status(s);
        Py_DECREF((PyObject *)self); /* releases the view */
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
    Py_INCREF((PyObject *)self);
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
    if (PyBuffer_FillInfo(view, (PyObject *)self, pto_buffer_data(self->handle), self->shape[0], 0,
                          flags) < 0)
        return -1;
    self->pins++;
    return 0;
}

static void buffer_releasebuffer(BufferObject *self, Py_buffer *view) {
    (void)view;
    buffer_unpin(self);
}

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

PyTypeObject *BufferType;

static PyType_Slot buffer_slots[] = {
    {Py_tp_dealloc, (void *)buffer_dealloc},
    {Py_bf_getbuffer, (void *)buffer_getbuffer},
    {Py_bf_releasebuffer, (void *)buffer_releasebuffer},
    {Py_tp_doc, (void *)"The C core of pto.Buffer: one pto_buffer handle and its lifetime."},
    {Py_tp_methods, buffer_methods},
    {Py_tp_getset, buffer_getset},
    {Py_tp_init, (void *)buffer_init},
    {Py_tp_new, (void *)buffer_new},
    {0, NULL},
};

PyType_Spec buffer_spec = {
    .name = "pto._pto.BufferCore",
    .basicsize = sizeof(BufferObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = buffer_slots,
};
