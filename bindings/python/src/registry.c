/* The enum members and exception classes that pto/__init__.py registers, and
 * the exceptions raised for failing statuses. */
#include "pto_python.h"

static PyObject *dtype_members;   /* tuple of pto.DType, indexed by value */
static PyObject *status_type;     /* pto.Status */
static PyObject *profile_members; /* tuple of pto.Profile, indexed by value */
static PyObject *error_base;      /* pto.Error */
static PyObject *error_classes;   /* tuple of exception classes, indexed by status (0 unused) */

/* Raises the exception for a failing status: the class registered for it
 * (pto.Error for a status the table does not know), with this thread's
 * pto_last_error() sentence as the message and a pto.Status as .status. Must run
 * on the thread that made the failing call, before its next libpto call. */
void raise_status(pto_status status) {
    const char *sentence = pto_last_error();
    if (sentence == NULL || sentence[0] == '\0') sentence = pto_status_string(status);
    if (error_base == NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s", pto_status_string(status), sentence);
        return;
    }
    PyObject *cls = error_base;
    if ((int)status > 0 && (Py_ssize_t)status < PyTuple_Size(error_classes))
        cls = PyTuple_GetItem(error_classes, (Py_ssize_t)status);
    PyObject *message = PyUnicode_FromString(sentence);
    if (message == NULL) return;
    PyObject *code = PyLong_FromLong((long)status);
    PyObject *member = code != NULL ? PyObject_CallFunctionObjArgs(status_type, code, NULL) : NULL;
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

/* The registered member for value, or an int for a value it lacks. */
static PyObject *member_or_int(PyObject *members, int value) {
    if (members != NULL && value >= 0 && (Py_ssize_t)value < PyTuple_Size(members)) {
        PyObject *m = PyTuple_GetItem(members, (Py_ssize_t)value);
        Py_INCREF(m);
        return m;
    }
    return PyLong_FromLong((long)value);
}

PyObject *dtype_object(pto_dtype dtype) { return member_or_int(dtype_members, (int)dtype); }

PyObject *profile_object(pto_profile profile) { return member_or_int(profile_members, (int)profile); }

static int set_registry(PyObject **slot, PyObject *value) {
    PyObject *old = *slot;
    Py_XINCREF(value);
    *slot = value;
    Py_XDECREF(old);
    return 0;
}

PyObject *mod_register(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *dtypes, *status, *profiles, *base, *classes;
    if (!PyArg_ParseTuple(args, "O!OO!OO!:_register", &PyTuple_Type, &dtypes, &status, &PyTuple_Type,
                          &profiles,
                          &base, &PyTuple_Type, &classes))
        return NULL;
    set_registry(&dtype_members, dtypes);
    set_registry(&status_type, status);
    set_registry(&profile_members, profiles);
    set_registry(&error_base, base);
    set_registry(&error_classes, classes);
    Py_RETURN_NONE;
}
