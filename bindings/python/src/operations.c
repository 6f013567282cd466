/* The operations: argument checks, pins, the GIL, the call. One helper,
 * run_operation, serves them all; what differs between them (names, counts,
 * the attribute, the C function) is a table that tools/gen-operations.py
 * writes from src/operations.def into operations_generated.inc (meson builds
 * it), included at the end of this file with the functions' PyMethodDefs. */
#include "pto_python.h"

#include <limits.h>

#include <stdint.h>
#include <stdio.h>

#define MAX_OPERANDS 6 /* tpartargmax: dst, src0, src1, src0_idx, src1_idx, dst_idx */
/* The most arguments after the tiles (tcvt: mode, sat). */
#define MAX_ATTRS 2
/* The most words a row's Words operands take (trandom: a key of 2, a counter of 4). */
#define MAX_WORDS 6
/* The most fields of a Config operand the call takes (timg2col: 7). */
#define MAX_FIELDS 8
/* The most arguments of one call. */
#define MAX_ARGS (MAX_OPERANDS + MAX_ATTRS + MAX_FIELDS + 1)

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

/* Releasing and retaking the GIL costs 30-90 ns here, more than the kernel
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

/* The attribute arguments after the tiles, as the generated call takes them. */
typedef struct {
    int i;    /* ATTR_ENUM, ATTR_ENUM_PAIR, ATTR_ENUM_INDEX: an enum value; ATTR_DOUBLE_ENUM: the second */
    double d; /* ATTR_DOUBLE, ATTR_DOUBLE_ENUM, ATTR_INDEX_DOUBLE */
    int j;    /* ATTR_ENUM_PAIR: the second enum value */
    size_t n; /* ATTR_INDEX, ATTR_INDEX_PAIR, ATTR_INDEX_DOUBLE, ATTR_ENUM_INDEX: an offset */
    size_t m; /* ATTR_INDEX_PAIR: the second offset */
    double *out; /* ATTR_INDEX_OUT: where the C function writes its result */
    uint16_t *counts; /* ATTR_BOOL_COUNTS: where it writes its four counts */
    uint32_t w;  /* ATTR_WORD: a 32-bit word (trandom's rounds) */
    uint32_t words[MAX_WORDS]; /* a row's Words operands, in order (trandom's key and counter) */
    uint32_t fields[MAX_FIELDS]; /* a Config operand's fields, in the row's order (timg2col's) */
    void *table; /* a table row's table (mgather's, mscatter's): its memory, */
    size_t table_elements; /* its elements */
    int table_dtype;       /* and their dtype */
} attr_value;

/* ATTR_ENUM_PAIR: two enum arguments (tcvt's mode and sat); ATTR_DOUBLE_ENUM:
 * a double and an enum (tci's start and descending); ATTR_INDEX_PAIR: two
 * offsets (textract's); ATTR_INDEX_DOUBLE: an offset and a double (tsetval's
 * index and value); ATTR_INDEX: one (tmrgsort's block length); ATTR_ENUM_INDEX:
 * an enum and an offset (tgather_cmp's mode and offset); ATTR_INDEX_OUT: an
 * offset and the result the function returns instead of dst (tgetval's);
 * ATTR_BOOL_COUNTS: a truth value and four counts the function returns
 * instead of dst, a tuple of ints (tmrgsort_lists's exhausted, executed);
 * ATTR_SHORT_PAIR: two uint16_t in n and m (timg2col's pos_m, pos_k). */
typedef enum {
    ATTR_NONE,
    ATTR_ENUM,
    ATTR_DOUBLE,
    ATTR_ENUM_PAIR,
    ATTR_DOUBLE_ENUM,
    ATTR_INDEX_PAIR,
    ATTR_INDEX_DOUBLE,
    ATTR_INDEX,
    ATTR_ENUM_INDEX,
    ATTR_INDEX_OUT,
    ATTR_WORD,
    ATTR_BOOL_COUNTS,
    ATTR_SHORT_PAIR
} attr_kind;

static Py_ssize_t attr_count(attr_kind kind) {
    return kind == ATTR_NONE                                                   ? 0
           : kind == ATTR_ENUM || kind == ATTR_DOUBLE || kind == ATTR_INDEX ||
                   kind == ATTR_INDEX_OUT || kind == ATTR_WORD ||
                   kind == ATTR_BOOL_COUNTS                                    ? 1
                                                                               : 2;
}

/* One operation: its Python name, the C function's name (for the messages),
 * the call of the C function on the tile handles and the attribute, the
 * argument names in the Python order (the tiles, dst first, and the
 * attribute at attr_at: after the tiles, or after dst where the C function
 * takes it first), how many are tiles and how many are required, the
 * attribute's kind and default, and a table row's table: its argument's
 * place (table_at, -1 for none) and whether the row writes it; a Config
 * row's fields: where they start (config_at, -1 for none), how many, each
 * one's default and maximum. */
typedef struct {
    const char *name;
    const char *cname;
    pto_status (*call)(pto_tile *const *tiles, attr_value attr);
    const char *names[MAX_ARGS];
    Py_ssize_t tiles;
    Py_ssize_t required;
    attr_kind attr;
    attr_value attr_default;
    Py_ssize_t attr_at;
    Py_ssize_t table_at;
    int table_writes;
    Py_ssize_t words_at; /* the first Words operand's argument, -1 for none */
    int word_operands;   /* how many, each word_counts[k] words */
    int word_counts[2];
    Py_ssize_t config_at;
    int config_fields;
    uint32_t field_default[MAX_FIELDS];
    uint32_t field_max[MAX_FIELDS];
} operation_def;

/* An int in [0, maximum] (a Config's field, a uint16_t): a ValueError past it. */
static int bounded_uint(PyObject *o, const char *name, uint32_t maximum, uint32_t *out) {
    if (as_uint32(o, name, out) < 0) return -1;
    if (*out > maximum) {
        PyErr_Format(PyExc_ValueError, "%s must be in [0, %lu]", name, (unsigned long)maximum);
        return -1;
    }
    return 0;
}

static int short_arg(PyObject *o, const char *name, size_t *out) {
    uint32_t v = 0;
    if (bounded_uint(o, name, UINT16_MAX, &v) < 0) return -1;
    *out = v;
    return 0;
}

static int attr_arg(const operation_def *op, PyObject *o, attr_value *out) {
    const char *name = op->names[op->attr_at];
    switch (op->attr) {
    case ATTR_NONE:
        return 0;
    case ATTR_ENUM:
        return as_enum_value(o, name, &out->i);
    case ATTR_DOUBLE:
    case ATTR_DOUBLE_ENUM:
        out->d = PyFloat_AsDouble(o);
        return out->d == -1.0 && PyErr_Occurred() ? -1 : 0;
    case ATTR_ENUM_PAIR:
    case ATTR_ENUM_INDEX:
        return as_enum_value(o, name, &out->i);
    case ATTR_INDEX:
    case ATTR_INDEX_OUT:
    case ATTR_INDEX_PAIR:
    case ATTR_INDEX_DOUBLE:
        return as_size(o, name, &out->n);
    case ATTR_WORD:
        return as_uint32(o, name, &out->w);
    case ATTR_BOOL_COUNTS: /* any object's truth value */
        return (out->i = PyObject_IsTrue(o)) < 0 ? -1 : 0;
    case ATTR_SHORT_PAIR:
        return short_arg(o, name, &out->n);
    }
    return 0;
}

/* A table row's table (mgather's, mscatter's): a numpy array whose DType
 * pto._hand._table_dtype gives for the tile `tile` (and whose TypeError or
 * ValueError it raises), then its memory as a buffer, C-contiguous and,
 * where the row writes it, writable; `view` is released by the caller. */
static int table_operand(const operation_def *op, PyObject *table, PyObject *tile, Py_buffer *view,
                         attr_value *attr) {
    PyObject *hand = PyImport_ImportModule("pto._hand");
    if (hand == NULL) return -1;
    PyObject *dtype = PyObject_CallMethod(hand, "_table_dtype", "OOis", table, tile != NULL ? tile : Py_None,
                                          op->table_writes, op->name);
    Py_DECREF(hand);
    if (dtype == NULL) return -1;
    const int bad = as_enum_value(dtype, "table_dtype", &attr->table_dtype);
    Py_DECREF(dtype);
    if (bad < 0) return -1;
    if (PyObject_GetBuffer(table, view, PyBUF_C_CONTIGUOUS | (op->table_writes ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    const size_t size = pto_dtype_size((pto_dtype)attr->table_dtype);
    attr->table = view->buf;
    attr->table_elements = size != 0 ? (size_t)view->len / size : 0;
    return 0;
}

/* A row's Words operands (trandom's key and counter): each a sequence of
 * word_counts[k] ints in [0, 2^32), stored in order in attr->words. */
static int word_operands(const operation_def *op, PyObject *const *a, attr_value *attr) {
    int next = 0;
    for (int k = 0; k < op->word_operands; ++k) {
        const char *name = op->names[op->words_at + k];
        PyObject *seq = a[op->words_at + k];
        const Py_ssize_t n = op->word_counts[k];
        const Py_ssize_t size = PySequence_Check(seq) ? PySequence_Size(seq) : -1;
        if (size != n) {
            if (size < 0) PyErr_Clear();
            PyErr_Format(size < 0 ? PyExc_TypeError : PyExc_ValueError, "%s must be a sequence of %zd ints",
                         name, n);
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; ++i) {
            char what[64];
            snprintf(what, sizeof what, "%s[%zd]", name, i);
            PyObject *item = PySequence_GetItem(seq, i);
            if (item == NULL) return -1;
            const int bad = as_uint32(item, what, &attr->words[next++]) < 0;
            Py_DECREF(item);
            if (bad) return -1;
        }
    }
    return 0;
}

/* An operation's METH_FASTCALL | METH_KEYWORDS function, given its table entry. */
static PyObject *run_operation(const operation_def *op, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
    PyObject *a[MAX_ARGS];
    const Py_ssize_t nmax =
        op->tiles + attr_count(op->attr) + (op->table_at >= 0) + op->word_operands + op->config_fields;
    if (parse_fastcall(op->name, op->names, op->required, nmax, args, nargs, kwnames, a) < 0) return NULL;
    attr_value attr = op->attr_default;
    if (op->attr != ATTR_NONE && a[op->attr_at] != NULL && attr_arg(op, a[op->attr_at], &attr) < 0) return NULL;
    /* A pair's second enum follows the first. */
    if (op->attr == ATTR_ENUM_PAIR && a[op->attr_at + 1] != NULL &&
        as_enum_value(a[op->attr_at + 1], op->names[op->attr_at + 1], &attr.j) < 0)
        return NULL;
    if (op->attr == ATTR_DOUBLE_ENUM && a[op->attr_at + 1] != NULL &&
        as_enum_value(a[op->attr_at + 1], op->names[op->attr_at + 1], &attr.i) < 0)
        return NULL;
    if (op->attr == ATTR_INDEX_PAIR && a[op->attr_at + 1] != NULL &&
        as_size(a[op->attr_at + 1], op->names[op->attr_at + 1], &attr.m) < 0)
        return NULL;
    if (op->attr == ATTR_ENUM_INDEX && a[op->attr_at + 1] != NULL &&
        as_size(a[op->attr_at + 1], op->names[op->attr_at + 1], &attr.n) < 0)
        return NULL;
    if (op->attr == ATTR_SHORT_PAIR && a[op->attr_at + 1] != NULL &&
        short_arg(a[op->attr_at + 1], op->names[op->attr_at + 1], &attr.m) < 0)
        return NULL;
    /* A Config's fields: each given one in [0, its C type's maximum]. */
    for (int k = 0; k < op->config_fields; ++k) {
        attr.fields[k] = op->field_default[k];
        PyObject *o = a[op->config_at + k];
        if (o != NULL && bounded_uint(o, op->names[op->config_at + k], op->field_max[k], &attr.fields[k]) < 0)
            return NULL;
    }
    if (op->attr == ATTR_INDEX_DOUBLE && a[op->attr_at + 1] != NULL) {
        attr.d = PyFloat_AsDouble(a[op->attr_at + 1]);
        if (attr.d == -1.0 && PyErr_Occurred()) return NULL;
    }
    if (op->word_operands > 0 && word_operands(op, a, &attr) < 0) return NULL;
    /* The tiles and their names, the attribute's, the words' and the fields' arguments taken out. */
    const Py_ssize_t attr_args = attr_count(op->attr);
    PyObject *tiles[MAX_OPERANDS];
    const char *tile_names[MAX_OPERANDS];
    for (Py_ssize_t i = 0, k = 0; i < nmax; ++i) {
        if ((i >= op->attr_at && i < op->attr_at + attr_args) || i == op->table_at ||
            (op->words_at >= 0 && i >= op->words_at && i < op->words_at + op->word_operands) ||
            (op->config_at >= 0 && i >= op->config_at && i < op->config_at + op->config_fields))
            continue;
        tiles[k] = a[i];
        tile_names[k++] = op->names[i];
    }
    /* The table's dtype is its first tile's (dst, or mscatter's src). */
    Py_buffer view;
    if (op->table_at >= 0 && table_operand(op, a[op->table_at], tiles[0], &view, &attr) < 0) return NULL;
    operands ops;
    if (collect_operands(op->cname, tile_names, tiles, (int)op->tiles, &ops) < 0) {
        if (op->table_at >= 0) PyBuffer_Release(&view);
        return NULL;
    }
    pto_status s;
    double result = 0;
    uint16_t counts[4] = {0, 0, 0, 0};
    attr.out = &result;
    attr.counts = counts;
    RUN_OPERATION(s, ops, op->call(ops.handle, attr));
    if (op->table_at >= 0) PyBuffer_Release(&view);
    if (op->table_writes) { /* the table written: no tile result */
        if (s != PTO_OK) raise_status(s);
        unpin_operands(&ops);
        if (s != PTO_OK) return NULL;
        Py_RETURN_NONE;
    }
    if (op->attr == ATTR_INDEX_OUT) { /* a row with no tile result: its value */
        if (s != PTO_OK) raise_status(s);
        unpin_operands(&ops);
        return s == PTO_OK ? PyFloat_FromDouble(result) : NULL;
    }
    if (op->attr == ATTR_BOOL_COUNTS) { /* the counts instead of dst */
        if (s != PTO_OK) raise_status(s);
        unpin_operands(&ops);
        return s == PTO_OK ? Py_BuildValue("(IIII)", (unsigned)counts[0], (unsigned)counts[1], (unsigned)counts[2],
                                           (unsigned)counts[3])
                           : NULL;
    }
    return finish_operation(s, &ops, a[0]);
}

/* The end of every operation's docstring (GIL_RELEASE_MIN_ELEMENTS). */
#define RELEASES_GIL "\nThe GIL is released while the kernel runs (dst valid region of 1024+ elements)."

#include "operations_generated.inc"
