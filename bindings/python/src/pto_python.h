/*
 * Shared declarations of the pto._pto extension (see module.c).
 *
 * Lifetime model. TileCore and BufferCore objects own one libpto handle each.
 * Their memory is "pinned" by every exported buffer view (numpy arrays,
 * memoryviews) and, for a tile, by every operation running without the GIL; a
 * buffer is also pinned by each live tile placed in it. close() makes the object
 * unusable at once (ValueError) but destroys the handle only when the last pin
 * is gone, so a view never dangles. All counters change under the GIL.
 */
#ifndef PTO_PYTHON_H
#define PTO_PYTHON_H

/* The stable ABI of CPython 3.11+ (abi3): one build serves every later
 * CPython. 3.11 is the first whose limited API has the buffer protocol
 * (Py_buffer, Py_bf_getbuffer) that the zero-copy views need. */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030b0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pto_c.h>

#include <stddef.h>
#include <stdint.h>

typedef struct {
    PyObject_HEAD
    pto_buffer *handle; /* NULL until created, and after the deferred destroy */
    int closed;
    Py_ssize_t pins;    /* exported views + live placed tiles */
    Py_buffer wrapped;  /* the caller's memory, for Buffer.wrap */
    int has_wrapped;
    Py_ssize_t shape[1];
} BufferObject;

typedef struct {
    PyObject_HEAD
    pto_tile *handle;     /* NULL until created, and after the deferred destroy */
    int closed;
    Py_ssize_t pins;      /* exported views + operations running without the GIL */
    BufferObject *buffer; /* the buffer a placed tile lives in (a reference), or NULL */
    Py_ssize_t shape[2];
    Py_ssize_t strides[2];
} TileObject;

/* Heap types (the limited API has no static ones), made by PyInit__pto. */
extern PyTypeObject *BufferType;
extern PyTypeObject *TileType;
extern PyType_Spec buffer_spec;
extern PyType_Spec tile_spec;

/* registry.c */
void raise_status(pto_status status);
PyObject *dtype_object(pto_dtype dtype);
PyObject *profile_object(pto_profile profile);
PyObject *mod_register(PyObject *module, PyObject *args);

/* args.c */
PyObject *type_name(PyObject *o);
void object_free(PyObject *self);
int as_enum_value(PyObject *o, const char *what, int *out);
int as_uint32(PyObject *o, const char *what, uint32_t *out);
int as_size(PyObject *o, const char *what, size_t *out);
PyObject *status_result(pto_status s, PyObject *ret);
int parse_fastcall(const char *fname, const char *const *names, Py_ssize_t nrequired, Py_ssize_t nmax,
                   PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **out);

/* buffer.c */
int buffer_check_open(BufferObject *self);
void buffer_unpin(BufferObject *self);

/* tile.c */
int tile_arg(PyObject *o, const char *fname, const char *argname, pto_tile **out);
void tile_unpin(TileObject *self);

/* operations.c: one function per operation of src/operations.def and per setting of
 * src/settings.def, NULL-ended */
extern PyMethodDef operation_methods[];

/* thread_settings.c: the cube modes, per OS thread */
extern PyMethodDef thread_settings_methods[];

/* hand_ops.c: mgather_oob, mscatter_ex (a table in memory, with modes), tquant_mx, tquant_hif4 */
extern PyMethodDef hand_op_methods[];

/* program.c */
int program_init(PyObject *module);

#endif /* PTO_PYTHON_H */
