/* Modes of instructions whose operands fit no row of src/operations.def:
 * MGATHER's and MSCATTER's modes (pto_mgather_oob,
 * pto_mscatter_ex: a table in the caller's memory, any C-contiguous buffer,
 * a numpy array through pto.mgather_oob / pto.mscatter_ex, which check its
 * dtype first; mgather and mscatter are rows). They keep the GIL, so no tile
 * can be closed meanwhile. */
#include "pto_python.h"

/* The table's memory: C-contiguous, writable for a scatter. The exporter
 * (numpy) raises its own BufferError or ValueError otherwise. */
static int table_view(PyObject *table, int writable, Py_buffer *view) {
    return PyObject_GetBuffer(table, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0));
}

static size_t table_elements(const Py_buffer *view, int dtype) {
    const size_t size = pto_dtype_size((pto_dtype)dtype);
    return size != 0 ? (size_t)view->len / size : 0;
}

/* _mgather_oob(dst, table, table_dtype, indices, coalesce, oob): returns dst. */
static PyObject *mod_mgather_oob(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"dst", "table", "table_dtype", "indices", "coalesce", "oob"};
    PyObject *a[6];
    if (parse_fastcall("mgather_oob", names, 6, 6, args, nargs, kwnames, a) < 0) return NULL;
    pto_tile *dst = NULL, *indices = NULL;
    int dtype = 0, coalesce = 0, oob = 0;
    if (tile_arg(a[0], "mgather_oob", "dst", &dst) < 0 || as_enum_value(a[2], "table_dtype", &dtype) < 0 ||
        tile_arg(a[3], "mgather_oob", "indices", &indices) < 0 || as_enum_value(a[4], "coalesce", &coalesce) < 0 ||
        as_enum_value(a[5], "oob", &oob) < 0)
        return NULL;
    Py_buffer view;
    if (table_view(a[1], 0, &view) < 0) return NULL;
    const pto_status s = pto_mgather_oob(dst, view.buf, table_elements(&view, dtype), (pto_dtype)dtype, indices,
                                         (pto_coalesce)coalesce, (pto_gather_oob)oob);
    PyBuffer_Release(&view);
    return status_result(s, a[0]);
}

/* _mscatter_ex(table, table_dtype, src, indices, coalesce, atomic, oob): returns None. */
static PyObject *mod_mscatter_ex(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"table", "table_dtype", "src", "indices", "coalesce", "atomic", "oob"};
    PyObject *a[7];
    if (parse_fastcall("mscatter_ex", names, 7, 7, args, nargs, kwnames, a) < 0) return NULL;
    pto_tile *src = NULL, *indices = NULL;
    int dtype = 0, coalesce = 0, atomic = 0, oob = 0;
    if (as_enum_value(a[1], "table_dtype", &dtype) < 0 || tile_arg(a[2], "mscatter_ex", "src", &src) < 0 ||
        tile_arg(a[3], "mscatter_ex", "indices", &indices) < 0 || as_enum_value(a[4], "coalesce", &coalesce) < 0 ||
        as_enum_value(a[5], "atomic", &atomic) < 0 || as_enum_value(a[6], "oob", &oob) < 0)
        return NULL;
    Py_buffer view;
    if (table_view(a[0], 1, &view) < 0) return NULL;
    const pto_status s = pto_mscatter_ex(view.buf, table_elements(&view, dtype), (pto_dtype)dtype, src, indices,
                                         (pto_coalesce)coalesce, (pto_scatter_atomic)atomic, (pto_scatter_oob)oob);
    PyBuffer_Release(&view);
    return status_result(s, NULL);
}

PyMethodDef hand_op_methods[] = {
    {"_mgather_oob", (PyCFunction)(void (*)(void))mod_mgather_oob, METH_FASTCALL | METH_KEYWORDS,
     "_mgather_oob(dst, table, table_dtype, indices, coalesce, oob)\n--\n\n"
     "MGATHER with GatherOOB (pto_mgather_oob). Use pto.mgather_oob."},
    {"_mscatter_ex", (PyCFunction)(void (*)(void))mod_mscatter_ex, METH_FASTCALL | METH_KEYWORDS,
     "_mscatter_ex(table, table_dtype, src, indices, coalesce, atomic, oob)\n--\n\n"
     "MSCATTER with ScatterAtomicOp and ScatterOOB (pto_mscatter_ex). Use pto.mscatter_ex."},
    {NULL, NULL, 0, NULL},
};
