/* The five operations: argument checks, pins, the GIL, the call. */
#include "pto_python.h"

#include <stdint.h>

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

PyObject *op_tpow(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
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

PyObject *op_trsqrt(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
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

PyObject *op_tprelu(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
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

/* tcolexpanddiv and tpartadd: (dst, src0, src1). */
typedef pto_status (*binary_operation)(pto_tile *dst, const pto_tile *src0, const pto_tile *src1);

static PyObject *run_binary(const char *pyname, const char *cname, binary_operation fn, PyObject *const *args,
                            Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"dst", "src0", "src1"};
    PyObject *a[3];
    if (parse_fastcall(pyname, names, 3, 3, args, nargs, kwnames, a) < 0) return NULL;
    operands ops;
    if (collect_operands(cname, names, a, 3, &ops) < 0) return NULL;
    pto_status s;
    RUN_OPERATION(s, ops, fn(ops.handle[0], ops.handle[1], ops.handle[2]));
    return finish_operation(s, &ops, a[0]);
}

PyObject *op_tcolexpanddiv(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    return run_binary("tcolexpanddiv", "pto_tcolexpanddiv", pto_tcolexpanddiv, args, nargs, kwnames);
}

PyObject *op_tpartadd(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    return run_binary("tpartadd", "pto_tpartadd", pto_tpartadd, args, nargs, kwnames);
}
