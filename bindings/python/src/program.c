/*
 * pto._pto.ProgramCore: one verified pto_program, and the runs of it.
 *
 * This file uses only CPython's limited API (3.11, abi3): a heap type made with
 * PyType_FromSpec, PyObject_GetBuffer for the arrays, no struct access. The
 * pure-Python layer (../pto/_program.py) checks the arguments and raises the
 * exceptions; the C layer reports a libpto failure as a value,
 * (stage, status, message, index), read on the calling thread right after the
 * failing call, and leaves the choice of exception class to Python.
 *
 * Lifetime: a ProgramCore owns its pto_program. A run holds a reference to
 * the ProgramCore (the bound method) for its whole duration, and the program
 * is immutable, so runs from several threads at once need no lock: each makes
 * its own pto_args.
 */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030B0000
#endif
#include "pto_python.h"

#include <stdint.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    pto_program *program;
    PyObject *name; /* str: the source name given at creation */
} ProgramObject;

static PyObject *program_type; /* the heap type, made by program_init */

/* The failure tuple (stage, status, message, index) for a libpto call that
 * just returned status on this thread. */
static PyObject *failure(const char *stage, pto_status status, Py_ssize_t index) {
    const char *sentence = pto_last_error();
    if (sentence == NULL || sentence[0] == '\0') sentence = pto_status_string(status);
    /* The sentence may quote the text's bytes: undecodable ones are replaced. */
    PyObject *message = PyUnicode_DecodeUTF8(sentence, (Py_ssize_t)strlen(sentence), "replace");
    if (message == NULL) return NULL;
    PyObject *result = Py_BuildValue("(siOn)", stage, (int)status, message, index);
    Py_DECREF(message);
    return result;
}

static void program_dealloc(PyObject *self) {
    ProgramObject *p = (ProgramObject *)self;
    PyTypeObject *type = Py_TYPE(self);
    pto_program_destroy(p->program);
    p->program = NULL;
    Py_CLEAR(p->name);
    freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
    tp_free(self);
    Py_DECREF(type);
}

/* _program_create(text, name, profile[, entry]) -> ProgramCore, or a failure
 * tuple. text: str (UTF-8) or bytes; name: str; profile: None (the thread's)
 * or an int-like, set for the creation only and the thread's previous profile
 * restored afterwards; entry: None or "" (pto_program_create's choice) or the
 * name of the module's entry func.func (pto_program_create_entry). */
static PyObject *program_create(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *text_obj, *name_obj, *profile_obj, *entry_obj = Py_None;
    if (!PyArg_ParseTuple(args, "OUO|O:_program_create", &text_obj, &name_obj, &profile_obj, &entry_obj))
        return NULL;
    const char *text;
    Py_ssize_t length;
    if (PyUnicode_Check(text_obj)) {
        text = PyUnicode_AsUTF8AndSize(text_obj, &length);
        if (text == NULL) return NULL;
    } else if (PyBytes_Check(text_obj)) {
        char *bytes;
        if (PyBytes_AsStringAndSize(text_obj, &bytes, &length) < 0) return NULL;
        text = bytes;
    } else {
        PyErr_SetString(PyExc_TypeError, "Program text must be str or bytes");
        return NULL;
    }
    Py_ssize_t name_length;
    const char *name = PyUnicode_AsUTF8AndSize(name_obj, &name_length);
    if (name == NULL) return NULL;
    if ((Py_ssize_t)strlen(name) != name_length) {
        PyErr_SetString(PyExc_ValueError, "Program name must not contain NUL characters");
        return NULL;
    }
    const char *entry = NULL;
    if (entry_obj != Py_None) {
        if (!PyUnicode_Check(entry_obj)) {
            PyErr_SetString(PyExc_TypeError, "Program entry must be a str or None");
            return NULL;
        }
        Py_ssize_t entry_length;
        entry = PyUnicode_AsUTF8AndSize(entry_obj, &entry_length);
        if (entry == NULL) return NULL;
        if ((Py_ssize_t)strlen(entry) != entry_length) {
            PyErr_SetString(PyExc_ValueError, "Program entry must not contain NUL characters");
            return NULL;
        }
        if (entry_length == 0) entry = NULL;
    }
    int profile = 0;
    const int set_profile = profile_obj != Py_None;
    if (set_profile && as_enum_value(profile_obj, "profile", &profile) < 0) return NULL;

    ProgramObject *self = PyObject_New(ProgramObject, (PyTypeObject *)program_type);
    if (self == NULL) return NULL;
    self->program = NULL;
    self->name = Py_NewRef(name_obj);

    const pto_profile previous = pto_get_profile();
    pto_status s = PTO_OK;
    if (set_profile) {
        s = pto_set_profile((pto_profile)profile);
        if (s != PTO_OK) {
            Py_DECREF(self);
            return failure("profile", s, -1);
        }
    }
    pto_program *program = NULL;
    /* Verification of a long text takes a while; the GIL is not needed. The
     * thread's profile and last error are per OS thread, so they are safe. */
    Py_BEGIN_ALLOW_THREADS
    if (entry == NULL)
        s = pto_program_create(text, (size_t)length, name, &program);
    else
        s = pto_program_create_entry(text, (size_t)length, name, entry, &program);
    Py_END_ALLOW_THREADS
    PyObject *result = s == PTO_OK ? NULL : failure("create", s, -1); /* before the next libpto call */
    if (set_profile) pto_set_profile(previous);
    if (s != PTO_OK) {
        Py_DECREF(self);
        return result;
    }
    self->program = program;
    return (PyObject *)self;
}

static PyObject *program_get_profile(PyObject *self, void *closure) {
    (void)closure;
    return profile_object(pto_program_profile(((ProgramObject *)self)->program));
}

static PyObject *program_get_name(PyObject *self, void *closure) {
    (void)closure;
    return Py_NewRef(((ProgramObject *)self)->name);
}

static PyObject *program_get_param_count(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(pto_program_param_count(((ProgramObject *)self)->program));
}

/* describe() -> str: pto_program_describe's listing (valid while the program
 * exists; copied). */
static PyObject *program_describe(PyObject *self, PyObject *unused) {
    (void)unused;
    const char *text = pto_program_describe(((ProgramObject *)self)->program);
    return PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
}

/* param(index) -> (name, kind, dtype, rows, cols, access, valid_rows, valid_cols);
 * a valid dimension is -1 where the type says `?`. */
static PyObject *program_param(PyObject *self, PyObject *arg) {
    const pto_program *program = ((ProgramObject *)self)->program;
    size_t index;
    if (as_size(arg, "index", &index) < 0) return NULL;
    if (index >= pto_program_param_count(program)) {
        PyErr_Format(PyExc_IndexError, "parameter index %zu out of range (the program has %zu)", index,
                     pto_program_param_count(program));
        return NULL;
    }
    PyObject *dtype = dtype_object(pto_program_param_dtype(program, index));
    if (dtype == NULL) return NULL;
    PyObject *result = Py_BuildValue("(siOkkILL)", pto_program_param_name(program, index),
                                     (int)pto_program_param_kind(program, index), dtype,
                                     (unsigned long)pto_program_param_rows(program, index),
                                     (unsigned long)pto_program_param_cols(program, index),
                                     pto_program_param_access(program, index),
                                     (long long)pto_program_param_valid_rows(program, index),
                                     (long long)pto_program_param_valid_cols(program, index));
    Py_DECREF(dtype);
    return result;
}

/* Binds one value; 0 on success, 1 when libpto refused it (the failure tuple
 * in *failed), -1 with a Python exception set. A pointer's or tile's buffer
 * view goes into *view (held until the run is over; *held set). */
static int bind_value(const pto_program *program, pto_args *args, size_t i, PyObject *value, Py_buffer *view,
                      int *held, PyObject **failed) {
    const char *name = pto_program_param_name(program, i);
    pto_status s = PTO_OK;
    switch (pto_program_param_kind(program, i)) {
    case PTO_PARAM_POINTER: {
        int flags = PyBUF_C_CONTIGUOUS;
        if (pto_program_param_access(program, i) & PTO_PARAM_WRITE) flags |= PyBUF_WRITABLE;
        if (PyObject_GetBuffer(value, view, flags) < 0) return -1;
        *held = 1;
        s = pto_args_set_pointer(args, i, view->buf, (size_t)view->len);
        break;
    }
    case PTO_PARAM_INT: {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (overflow != 0) {
            PyErr_Format(PyExc_ValueError, "argument '%s' does not fit a 64-bit integer", name);
            return -1;
        }
        s = pto_args_set_int(args, i, (int64_t)v);
        break;
    }
    case PTO_PARAM_FLOAT: {
        double v = PyFloat_AsDouble(value);
        if (v == -1.0 && PyErr_Occurred()) return -1;
        s = pto_args_set_float(args, i, v);
        break;
    }
    case PTO_PARAM_TILE: {
        pto_tile *tile;
        if (tile_arg(value, "Program", name, &tile) < 0) return -1;
        /* A buffer export pins the tile: close() from another thread is
         * deferred until the run is over. */
        if (PyObject_GetBuffer(value, view, PyBUF_SIMPLE) < 0) return -1;
        *held = 1;
        s = pto_args_set_tile(args, i, tile);
        break;
    }
    default:
        PyErr_Format(PyExc_RuntimeError, "parameter '%s' has an unknown kind", name);
        return -1;
    }
    if (s == PTO_OK) return 0;
    *failed = failure("bind", s, (Py_ssize_t)i);
    return *failed != NULL ? 1 : -1;
}

/* run(blocks, values) -> None, or a failure tuple.
 * values: a tuple with one item per parameter: None (not bound), a
 * buffer-protocol object (POINTER), an int (INT), a float (FLOAT) or a
 * pto.Tile (TILE). The GIL is released while the blocks run. */
static PyObject *program_run(PyObject *self, PyObject *args) {
    const pto_program *program = ((ProgramObject *)self)->program;
    PyObject *blocks_obj, *values;
    if (!PyArg_ParseTuple(args, "OO:run", &blocks_obj, &values)) return NULL;
    uint32_t blocks;
    if (as_uint32(blocks_obj, "blocks", &blocks) < 0) return NULL;
    if (!PyTuple_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "run: values must be a tuple");
        return NULL;
    }
    const size_t count = pto_program_param_count(program);
    if ((size_t)PyTuple_Size(values) != count) {
        PyErr_Format(PyExc_TypeError, "run: values must have %zu items, one per parameter", count);
        return NULL;
    }
    Py_buffer *views = PyMem_Calloc(count > 0 ? count : 1, sizeof(Py_buffer));
    int *held = PyMem_Calloc(count > 0 ? count : 1, sizeof(int));
    pto_args *pargs = NULL;
    PyObject *result = NULL;
    if (views == NULL || held == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    pto_status s = pto_args_create(program, &pargs);
    if (s != PTO_OK) {
        result = failure("bind", s, -1);
        goto done;
    }
    for (size_t i = 0; i < count; ++i) {
        PyObject *value = PyTuple_GetItem(values, (Py_ssize_t)i);
        if (value == NULL) goto done;
        if (value == Py_None) continue;
        int rc = bind_value(program, pargs, i, value, &views[i], &held[i], &result);
        if (rc != 0) goto done; /* result: the failure tuple, or NULL with an exception */
    }
    Py_BEGIN_ALLOW_THREADS
    s = pto_program_launch(program, blocks, pargs);
    Py_END_ALLOW_THREADS
    result = s == PTO_OK ? Py_NewRef(Py_None) : failure("run", s, -1);
done:
    pto_args_destroy(pargs);
    if (held != NULL)
        for (size_t i = 0; i < count; ++i)
            if (held[i]) PyBuffer_Release(&views[i]);
    PyMem_Free(held);
    PyMem_Free(views);
    return result;
}

static PyGetSetDef program_getset[] = {
    {"profile", program_get_profile, NULL, "The profile the program was verified under (pto.Profile).", NULL},
    {"name", program_get_name, NULL, "The source name used in diagnostics.", NULL},
    {"param_count", program_get_param_count, NULL, "Number of parameters.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef program_methods[] = {
    {"param", program_param, METH_O,
     "param(index)\n--\n\n(name, kind, dtype, rows, cols, access, valid_rows, valid_cols) of parameter "
     "index (a valid dimension is -1 where the type says ?)."},
    {"describe", program_describe, METH_NOARGS,
     "describe()\n--\n\nThe program's listing (pto_program_describe): its functions and parameters,\n"
     "the entry marked, and every tile's place in the unified buffer."},
    {"run", program_run, METH_VARARGS,
     "run(blocks, values)\n--\n\n"
     "Binds values (one per parameter: None, a buffer, an int, a float or a pto.Tile) and\n"
     "runs blocks 0..blocks-1 without the GIL. None on success, else the failure\n"
     "(stage, status, message, index)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot program_slots[] = {
    {Py_tp_dealloc, (void *)program_dealloc},
    {Py_tp_doc, (void *)"The C core of pto.Program: one verified pto_program (made by _program_create)."},
    {Py_tp_getset, (void *)program_getset},
    {Py_tp_methods, (void *)program_methods},
    {0, NULL},
};

static PyType_Spec program_spec = {
    .name = "pto._pto.ProgramCore",
    .basicsize = sizeof(ProgramObject),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = program_slots,
};

static PyMethodDef program_functions[] = {
    {"_program_create", program_create, METH_VARARGS,
     "_program_create(text, name, profile, entry=None)\n--\n\n"
     "Parses and verifies text (str or bytes) under profile (None: the thread's), its\n"
     "entry function the one called entry (None or \"\": the module's marked or only\n"
     "public one). A ProgramCore, or the failure (stage, status, message, index)."},
    {NULL, NULL, 0, NULL},
};

/* Adds ProgramCore, _program_create and the PTO_PARAM_READ/WRITE flags to the module. */
int program_init(PyObject *module) {
    if (program_type == NULL) {
        program_type = PyType_FromSpec(&program_spec);
        if (program_type == NULL) return -1;
    }
    if (PyModule_AddObjectRef(module, "ProgramCore", program_type) < 0) return -1;
    if (PyModule_AddFunctions(module, program_functions) < 0) return -1;
#define ADD(name) \
    if (PyModule_AddIntConstant(module, #name, name) < 0) return -1
    ADD(PTO_PARAM_READ); ADD(PTO_PARAM_WRITE);
#undef ADD
    return 0;
}
