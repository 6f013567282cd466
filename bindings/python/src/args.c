/* Argument conversion shared by the types and the operations. */
#include "pto_python.h"

#include <stdint.h>

/* The name of o's type (a new reference), for error messages. */
PyObject *type_name(PyObject *o) { return PyType_GetName(Py_TYPE(o)); }

/* tp_dealloc's last step for the heap types: free self, then drop the
 * reference each instance holds on its heap type. */
void object_free(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    freefunc free_slot = (freefunc)PyType_GetSlot(type, Py_tp_free);
    free_slot(self);
    Py_DECREF(type);
}

/* An int-like (int, IntEnum) as a C int; the library judges the value. */
int as_enum_value(PyObject *o, const char *what, int *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyObject *name = type_name(o);
            if (name != NULL) {
                PyErr_Format(PyExc_TypeError, "%s must be an int or an enum member, not %.100U", what, name);
                Py_DECREF(name);
            }
        }
        return -1;
    }
    /* Out of int's range: pass a value no enum has, so libpto reports it. */
    *out = v < INT32_MIN || v > INT32_MAX ? INT32_MAX : (int)v;
    return 0;
}

int as_uint32(PyObject *o, const char *what, uint32_t *out) {
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

int as_size(PyObject *o, const char *what, size_t *out) {
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
int parse_fastcall(const char *fname, const char *const *names, Py_ssize_t nrequired,
                          Py_ssize_t nmax, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                          PyObject **out) {
    if (nargs > nmax) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %zd arguments (%zd given)", fname, nmax, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nmax; ++i) out[i] = i < nargs ? args[i] : NULL;
    const Py_ssize_t nkw = kwnames != NULL ? PyTuple_Size(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; ++k) {
        PyObject *key = PyTuple_GetItem(kwnames, k);
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

/* The result of a call that returns a status: None (ret NULL) or ret on
 * PTO_OK, else NULL with the status's exception raised. */
PyObject *status_result(pto_status s, PyObject *ret) {
    if (s != PTO_OK) {
        raise_status(s);
        return NULL;
    }
    if (ret == NULL) Py_RETURN_NONE;
    Py_INCREF(ret);
    return ret;
}
