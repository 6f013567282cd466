/* Instructions whose operands fit no row of src/operations.def, written here
 * as timg2col is in module.c: MGATHER's and MSCATTER's modes (pto_mgather_oob,
 * pto_mscatter_ex: a table in the caller's memory, any C-contiguous buffer,
 * a numpy array through pto.mgather_oob / pto.mscatter_ex, which check its
 * dtype first; mgather and mscatter are rows) and TQUANT's MX forms (exp,
 * max and scaling besides dst). They keep the GIL, so no tile can be closed
 * meanwhile. */
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

/* tquant_mx(dst, src, exp, max=None, scaling=None, alg=MxAlg.OCP_FP8_E4M3,
 * group_axis=1): returns dst. */
static PyObject *mod_tquant_mx(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    static const char *const names[] = {"dst", "src", "exp", "max", "scaling", "alg", "group_axis"};
    PyObject *a[7];
    if (parse_fastcall("tquant_mx", names, 3, 7, args, nargs, kwnames, a) < 0) return NULL;
    pto_tile *t[5] = {NULL, NULL, NULL, NULL, NULL};
    for (int k = 0; k < 5; ++k)
        if (tile_arg(a[k], "tquant_mx", names[k], &t[k]) < 0) return NULL;
    int alg = PTO_MX_OCP_FP8_E4M3, axis = 1;
    if ((a[5] != NULL && as_enum_value(a[5], "alg", &alg) < 0) ||
        (a[6] != NULL && as_enum_value(a[6], "group_axis", &axis) < 0))
        return NULL;
    return status_result(pto_tquant_mx(t[0], t[1], t[2], t[3], t[4], (pto_mx_alg)alg, axis), a[0]);
}

PyMethodDef hand_op_methods[] = {
    {"_mgather_oob", (PyCFunction)(void (*)(void))mod_mgather_oob, METH_FASTCALL | METH_KEYWORDS,
     "_mgather_oob(dst, table, table_dtype, indices, coalesce, oob)\n--\n\n"
     "MGATHER with GatherOOB (pto_mgather_oob). Use pto.mgather_oob."},
    {"_mscatter_ex", (PyCFunction)(void (*)(void))mod_mscatter_ex, METH_FASTCALL | METH_KEYWORDS,
     "_mscatter_ex(table, table_dtype, src, indices, coalesce, atomic, oob)\n--\n\n"
     "MSCATTER with ScatterAtomicOp and ScatterOOB (pto_mscatter_ex). Use pto.mscatter_ex."},
    {"tquant_mx", (PyCFunction)(void (*)(void))mod_tquant_mx, METH_FASTCALL | METH_KEYWORDS,
     "tquant_mx(dst, src, exp, max=None, scaling=None, alg=MxAlg.OCP_FP8_E4M3, group_axis=1)\n--\n\n"
     "TQUANT's MX forms (pto_tquant_mx): src in blocks of 32 (group_axis 1: along a row, 0: down a\n"
     "column) quantised to E4M3 (dst INT8, UINT8 or FLOAT8_E4M3) or E2M1 (FLOAT4_E2M1X2, two codes a\n"
     "byte) codes with one E8M0 exponent per block in exp (UINT8, INT8 or FLOAT8_E8M0); max and\n"
     "scaling, when given, receive each block's largest magnitude and reciprocal scale in src's\n"
     "dtype. Bit for bit as A5; none under Profile.A2A3. Returns dst."},
    {NULL, NULL, 0, NULL},
};
