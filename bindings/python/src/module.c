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
 *  - No build dependency beyond Python's headers (no numpy headers, no binding
 *    generator), and nothing generated to commit: the operations' table is
 *    written from src/operations.def at build time (tools/gen-operations.py,
 *    stdlib Python). The enum values come from the compiled header (the
 *    module's constants), so Python cannot drift from C.
 * The Pythonic surface (enums, exceptions, numpy dtypes, profile context
 * manager) is the pure-Python package in ../pto/__init__.py. The files here:
 * registry.c (enum members, exceptions), args.c, buffer.c, tile.c,
 * operations.c (the operations and the settings, from a table
 * tools/gen-operations.py writes from src/operations.def and
 * src/settings.def), hand_ops.c (mgather_oob, mscatter_ex),
 * thread_settings.c (the cube modes),
 * program.c (pto.Program's core) and this one (queries, profiles, the
 * module).
 */
#include "pto_python.h"

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
    return profile_object(pto_get_profile());
}

static PyObject *mod_set_board_mode(PyObject *module, PyObject *arg) {
    (void)module;
    const int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    pto_status s = pto_set_board_mode(on);
    if (s != PTO_OK) {
        raise_status(s);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *mod_board_mode(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return PyBool_FromLong(pto_board_mode());
}

/* The operations' and settings' functions are operations.c's
 * operation_methods, hand_ops.c's and thread_settings.c's, added by
 * PyInit__pto (timg2col among the operations: its configuration struct is
 * its row's Config operand). */
static PyMethodDef module_methods[] = {
    {"version", mod_version, METH_NOARGS, "version()\n--\n\nThe library's version, pto_version_string()."},
    {"simd_target", mod_simd_target, METH_NOARGS,
     "simd_target()\n--\n\n"
     "The SIMD target the kernels dispatch to on this CPU, e.g. \"AVX3\", \"AVX2\", \"SSE4\" or\n"
     "\"EMU128\" (the portable fallback)."},
    {"dtype_size", mod_dtype_size, METH_O,
     "dtype_size(dtype)\n--\n\nBytes per element; 0 for an unknown value."},
    {"set_profile", mod_set_profile, METH_O,
     "set_profile(profile)\n--\n\n"
     "Sets the calling thread's target profile (other threads keep theirs). A value\n"
     "outside pto.Profile raises InvalidArgumentError and changes nothing."},
    {"get_profile", mod_get_profile, METH_NOARGS,
     "get_profile()\n--\n\nThe calling thread's target profile; Profile.HOST until set."},
    {"set_board_mode", mod_set_board_mode, METH_O,
     "set_board_mode(on)\n--\n\n"
     "Sets the calling thread's board mode (pto_set_board_mode): under A2A3 and A5 the rules\n"
     "the NPU implementations leave unchecked in a release build run as they do, each\n"
     "occurrence a warning on stderr, instead of raising."},
    {"board_mode", mod_board_mode, METH_NOARGS,
     "board_mode()\n--\n\nThe calling thread's board mode; False until set."},
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
#include "enums_generated.inc"
#undef ADD
    if (PyModule_AddObject(m, "TILE_MAX_BYTES", PyLong_FromSize_t(PTO_TILE_MAX_BYTES)) < 0) return -1;
    return 0;
}

PyMODINIT_FUNC PyInit__pto(void) {
    PyObject *m = PyModule_Create(&pto_module);
    if (m == NULL) return NULL;
    /* The module keeps one reference to each type and so do these globals:
     * the types live as long as the process (the module is never unloaded). */
    TileType = (PyTypeObject *)PyType_FromModuleAndSpec(m, &tile_spec, NULL);
    BufferType = (PyTypeObject *)PyType_FromModuleAndSpec(m, &buffer_spec, NULL);
    if (TileType == NULL || BufferType == NULL || PyModule_AddObjectRef(m, "TileCore", (PyObject *)TileType) < 0 ||
        PyModule_AddObjectRef(m, "BufferCore", (PyObject *)BufferType) < 0 || add_constants(m) < 0 ||
        PyModule_AddFunctions(m, operation_methods) < 0 ||
        PyModule_AddFunctions(m, thread_settings_methods) < 0 || PyModule_AddFunctions(m, hand_op_methods) < 0 ||
        program_init(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
