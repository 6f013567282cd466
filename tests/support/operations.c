/* The operations' rows, from src/operations.def. */
#include <string.h>

#include "support.h"

const char *op_mnemonic(op_id op) {
    static const char *const names[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) #mnemonic,
#include "../../src/operations.def"
#undef PTO_OPERATION
    };
    return names[op];
}

const char *op_text_mnemonic(op_id op) {
    static const char kSuffix[] = "_scalar_by_tile";
    static char names[OP_COUNT][32];
    const char *m = op_mnemonic(op);
    if (!op_row(op)->attr_leads) return m;
    if (names[op][0] == '\0') {
        const size_t n = strlen(m) - (sizeof kSuffix - 1);
        memcpy(names[op], m, n);
        names[op][n] = '\0';
    }
    return names[op];
}

const char *op_name(op_id op) {
    static const char *const names[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, ...) "pto_" #mnemonic,
#include "../../src/operations.def"
#undef PTO_OPERATION
    };
    return names[op];
}

/* operations.def's dtype names, as bits (ALL and FLOAT as their sets, NONE
 * as the empty one). */
enum {
    INT8 = 1u << PTO_INT8,
    UINT8 = 1u << PTO_UINT8,
    INT16 = 1u << PTO_INT16,
    UINT16 = 1u << PTO_UINT16,
    INT32 = 1u << PTO_INT32,
    UINT32 = 1u << PTO_UINT32,
    FLOAT16 = 1u << PTO_FLOAT16,
    BFLOAT16 = 1u << PTO_BFLOAT16,
    FLOAT32 = 1u << PTO_FLOAT32,
    FLOAT = FLOAT16 | BFLOAT16 | FLOAT32,
    INT64 = 1u << PTO_INT64,
    UINT64 = 1u << PTO_UINT64,
    FLOAT8_E4M3 = 1u << PTO_FLOAT8_E4M3,
    FLOAT8_E5M2 = 1u << PTO_FLOAT8_E5M2,
    HIFLOAT8 = 1u << PTO_HIFLOAT8,
    FLOAT8_E8M0 = 1u << PTO_FLOAT8_E8M0,
    FLOAT4_E2M1X2 = 1u << PTO_FLOAT4_E2M1X2,
    FLOAT4_E1M2X2 = 1u << PTO_FLOAT4_E1M2X2,
    INT4X2 = 1u << PTO_INT4X2,
    ALL = INT8 | UINT8 | INT16 | UINT16 | INT32 | UINT32 | FLOAT,
    NONE = 0,
};

/* The union of a parenthesised list of up to eleven of the names above, as a
 * constant expression. */
#define PTO_TEST_OR_(a, b, c, d, e, f, g, h, i, j, k, ...) (a | b | c | d | e | f | g | h | i | j | k)
#define PTO_TEST_MASK(...) PTO_TEST_OR_(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

#define PTO_TEST_FAMILY_Special OP_FAMILY_SPECIAL
#define PTO_TEST_FAMILY_Binary OP_FAMILY_BINARY
#define PTO_TEST_FAMILY_Unary OP_FAMILY_UNARY
#define PTO_TEST_FAMILY_Scalar OP_FAMILY_SCALAR
#define PTO_TEST_FAMILY_Fill OP_FAMILY_FILL
#define PTO_TEST_FAMILY_RowReduce OP_FAMILY_ROW_REDUCE
#define PTO_TEST_FAMILY_ColReduce OP_FAMILY_COL_REDUCE
#define PTO_TEST_FAMILY_RowExpand OP_FAMILY_ROW_EXPAND
#define PTO_TEST_FAMILY_ColExpand OP_FAMILY_COL_EXPAND
#define PTO_TEST_ATTR_LEADS(Kind, Leads, ...) Leads

const op_info *op_row(op_id op) {
    static const op_info rows[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, operand_list, Attr, host, a2a3, a5, summary, \
                      Traits, Group)                                                            \
        {PTO_TEST_FAMILY_##Fam,                                                                 \
         PTO_OPERANDS_SOURCE_COUNT(operand_list),                                               \
         {PTO_OPERANDS_SOURCE_NAMES(operand_list) NULL},                                        \
         (op_tmp_role)PTO_OPERANDS_TMP(operand_list),                                           \
         OP_ATTR_##Attr,                                                                        \
         PTO_ATTRIBUTE_##Attr(PTO_TEST_ATTR_LEADS) != 0,                                        \
         PTO_TRAIT_BITS Traits | PTO_OPERANDS_TRAITS(operand_list),                             \
         {PTO_TEST_MASK host, PTO_TEST_MASK a2a3, PTO_TEST_MASK a5},                            \
         {#host, #a2a3, #a5}},
#include "../../src/operations.def"
#undef PTO_OPERATION
    };
    return &rows[op];
}

bool op_is_reduction(op_id op) {
    return op_row(op)->family == OP_FAMILY_ROW_REDUCE || op_row(op)->family == OP_FAMILY_COL_REDUCE;
}

bool op_accepts(op_id op, pto_profile profile, pto_dtype dt) {
    return (op_row(op)->dtypes[profile] >> dt) & 1u;
}

bool op_converts(op_id op) { return op_row(op)->attr == OP_ATTR_Conversion; }

bool op_tested_apart(op_id op) {
    return op_row(op)->family == OP_FAMILY_SPECIAL && !(op_row(op)->traits & PTO_TRAIT_CommonCall) &&
           !op_converts(op);
}

pto_status op_call(op_id op, pto_pow_algorithm algo, pto_tile *dst, pto_tile *src0,
                   pto_tile *src1, pto_tile *tmp) {
    (void)src0, (void)src1, (void)tmp, (void)algo;
    switch (op) {
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, operand_list, Attr, ...)         \
    case OP_##UPPER:                                                                \
        return pto_##mnemonic(PTO_OPERANDS_HEAD(PTO_TEST_HEAD_, operand_list)      \
                                  PTO_ATTRIBUTE_##Attr(PTO_TEST_ATTR_LEAD)          \
                                  PTO_OPERANDS_EACH(PTO_TEST_OPERAND, operand_list) \
                                      PTO_ATTRIBUTE_##Attr(PTO_TEST_ATTR_TRAIL));
#include "../../src/operations.def"
#undef PTO_OPERATION
    }
    return PTO_ERR_INVALID_ARGUMENT;
}

double op_out_value;

uint16_t op_counts[4];

unsigned char op_table[4096];

pto_dtype op_table_dtype(const pto_tile *t) { return t != NULL ? pto_tile_dtype(t) : PTO_FLOAT32; }

size_t op_table_elements(const pto_tile *t) {
    const size_t size = pto_dtype_size(op_table_dtype(t));
    return size != 0 ? sizeof op_table / size : 0;
}

size_t (*op_index_draw)(size_t test);

size_t op_index_value(size_t test) { return op_index_draw != NULL ? op_index_draw(test) : test; }

double op_scalar_value(const pto_tile *t) {
    if (t == NULL) return 0;
    const pto_dtype dt = pto_tile_dtype(t);
    return ref_to_double(dt, ref_load(dt, pto_tile_data((pto_tile *)t), 0));
}

/* A Unary, Scalar or Fill row's C function with the Binary rows' parameters
 * (call_), and a Scalar or Fill row's with (dst, src, scalar) (scalar_call_:
 * the scalar where the row puts it). */
#define PTO_TEST_SCALAR_ARGS_Scalar(src, value) src, value
#define PTO_TEST_SCALAR_ARGS_ScalarFirst(src, value) value, src
#define PTO_TEST_UNARY_CALL_Special(mnemonic, Attr)
#define PTO_TEST_UNARY_CALL_RowReduce(mnemonic, Attr)
#define PTO_TEST_UNARY_CALL_ColReduce(mnemonic, Attr)
#define PTO_TEST_UNARY_CALL_RowExpand(mnemonic, Attr)
#define PTO_TEST_UNARY_CALL_ColExpand(mnemonic, Attr)
#define PTO_TEST_UNARY_CALL_Binary(mnemonic, Attr)
#define PTO_TEST_UNARY_CALL_Scalar(mnemonic, Attr)                                              \
    static pto_status scalar_call_##mnemonic(pto_tile *dst, const pto_tile *src, double scalar) { \
        return pto_##mnemonic(dst, PTO_TEST_SCALAR_ARGS_##Attr(src, scalar));                  \
    }                                                                                          \
    static pto_status call_##mnemonic(pto_tile *dst, const pto_tile *src, const pto_tile *scalar) { \
        return scalar_call_##mnemonic(dst, src, op_scalar_value(scalar));                      \
    }
#define PTO_TEST_UNARY_CALL_Fill(mnemonic, Attr)                                                \
    static pto_status call_##mnemonic(pto_tile *dst, const pto_tile *unused, const pto_tile *scalar) { \
        (void)unused;                                                                          \
        return pto_##mnemonic(dst, op_scalar_value(scalar));                                   \
    }                                                                                          \
    static pto_status scalar_call_##mnemonic(pto_tile *dst, const pto_tile *unused, double scalar) { \
        (void)unused;                                                                          \
        return pto_##mnemonic(dst, scalar);                                                    \
    }
#define PTO_TEST_UNARY_CALL_Unary(mnemonic, Attr)                                              \
    static pto_status call_##mnemonic(pto_tile *dst, const pto_tile *src, const pto_tile *unused) { \
        (void)unused;                                                                          \
        return pto_##mnemonic(dst, src);                                                       \
    }
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, operand_list, Attr, ...) \
    PTO_TEST_UNARY_CALL_##Fam(mnemonic, Attr)
#include "../../src/operations.def"
#undef PTO_OPERATION

/* A family row's reference and C functions; NULLs for any other. */
typedef struct {
    op_element_reference reference;
    op_binary_call function;
    op_scalar_call scalar_function;
} binary_entry;

#define PTO_TEST_BINARY_ENTRY_Special(mnemonic) {NULL, NULL, NULL}
#define PTO_TEST_BINARY_ENTRY_RowReduce(mnemonic) {NULL, NULL, NULL}
#define PTO_TEST_BINARY_ENTRY_ColReduce(mnemonic) {NULL, NULL, NULL}
#define PTO_TEST_BINARY_ENTRY_Binary(mnemonic) {ref_##mnemonic, pto_##mnemonic, NULL}
#define PTO_TEST_BINARY_ENTRY_Unary(mnemonic) {ref_##mnemonic, call_##mnemonic, NULL}
#define PTO_TEST_BINARY_ENTRY_Scalar(mnemonic) {ref_##mnemonic, call_##mnemonic, scalar_call_##mnemonic}
#define PTO_TEST_BINARY_ENTRY_Fill(mnemonic) {ref_##mnemonic, call_##mnemonic, scalar_call_##mnemonic}
#define PTO_TEST_BINARY_ENTRY_RowExpand(mnemonic) {ref_##mnemonic, NULL, NULL}
#define PTO_TEST_BINARY_ENTRY_ColExpand(mnemonic) {ref_##mnemonic, NULL, NULL}
static const binary_entry kBinaryEntries[] = {
#define PTO_OPERATION(Camel, UPPER, mnemonic, Fam, ...) PTO_TEST_BINARY_ENTRY_##Fam(mnemonic),
#include "../../src/operations.def"
#undef PTO_OPERATION
};

op_element_reference op_binary_reference(op_id op) { return kBinaryEntries[op].reference; }

op_binary_call op_binary_function(op_id op) { return kBinaryEntries[op].function; }

op_scalar_call op_scalar_function(op_id op) { return kBinaryEntries[op].scalar_function; }

bool op_is_broadcast(op_id op) {
    const op_family f = op_row(op)->family;
    return f == OP_FAMILY_ROW_EXPAND || f == OP_FAMILY_COL_EXPAND;
}

bool op_source_expanded(op_id op, int operand) {
    return op_is_broadcast(op) && operand == op_row(op)->source_count - 1;
}

void op_source_region(op_id op, int operand, uint32_t vr, uint32_t vc, uint32_t *svr,
                      uint32_t *svc) {
    *svr = vr, *svc = vc;
    if (!op_source_expanded(op, operand)) return;
    if (op_row(op)->family == OP_FAMILY_ROW_EXPAND)
        *svc = 1;
    else
        *svr = 1;
}

void op_source_index(op_id op, int operand, size_t i, size_t j, size_t *si, size_t *sj) {
    *si = i, *sj = j;
    if (!op_source_expanded(op, operand)) return;
    if (op_row(op)->family == OP_FAMILY_ROW_EXPAND)
        *sj = 0;
    else
        *si = 0;
}
