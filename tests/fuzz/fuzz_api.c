/*
 * libFuzzer harness for the whole C API.
 *
 * The input is a little program: each operation is one opcode byte followed
 * by its argument bytes (a missing byte reads as 0). Arguments are arbitrary:
 * dtypes outside the enum, zero and huge dimensions, valid regions beyond the
 * tile, NULL handles and buffers, the same tile in several operand positions,
 * wrong byte and element counts. After every call the harness checks
 *  - the status is a pto_status value and equals the one the contract's rules
 *    predict (a model of the check order: fuzz_api_checks.c and each
 *    instruction's function);
 *  - a failed call changed no tile (every operand is snapshotted before) and
 *    left a sentence naming the function in pto_last_error();
 *  - a successful call wrote only dst's valid region, and for the cheap
 *    operations (prelu, partadd, colexpanddiv, rsqrt) that the values agree
 *    with a scalar double-precision reference rounded once;
 *  - no byte of the arena that wrapped buffers cover changed on a refusal,
 *    and on a success only bytes of the call's operands (a write before or
 *    after a tile is found even where no operand lies).
 * Indices, offsets, counts and byte sizes come from the overflow rule's
 * edge values (take_edge: 2^31, 2^32, 2^63, SIZE_MAX - 1, SIZE_MAX) as well
 * as small ones, in every function that takes one (the table's Index
 * arguments through op_index_draw). Board mode is switched on and off
 * between calls (kBoardMode); where a call warns that it relaxed a rule,
 * the model's refusal may be a success. The functions outside the table
 * (fuzz_api_outside.c) are called too: mgather and mscatter in every mode,
 * tsel, the fixpipe's option form and configuration,
 * the cube modes, and the program functions on one kernel
 * (tests/fuzz/check-coverage.py holds the harness to every function of
 * pto_c.h).
 * Buffers (owned, wrapping a harness arena at any byte, or wrapping another
 * tile's storage), tiles placed in them at arbitrary offsets (so operands
 * overlap, interleave or sit exactly on each other) and the calling thread's
 * target profile are part of the program; the model predicts the profile
 * rules and the overlap rules (decided here by merging row intervals).
 * Any violation aborts, which libFuzzer reports as a crash.
 *
 * tests/fuzz/make-corpus.py writes the seed corpus in this encoding. This
 * file is the driver (the opcodes and the dispatch); fuzz_api.h lists the
 * others.
 */
#include <string.h>

#include "fuzz_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The opcode byte, modulo kOpcodes: the tile, query, buffer and profile
 * calls, pto_tile_create_cube, then one opcode per operation in the order
 * of src/operations.def, then kInstruction64 (any operation on 8-byte
 * integer tiles of its own). tests/fuzz/make-corpus.py writes the same
 * numbers. */
enum {
    kCreate,
    kDestroy,
    kSetValid,
    kWrite,
    kWriteF32,
    kRead,
    kQueries,
    kCreateCube,
    kBuffer,
    kBufferDestroy,
    kCreateAt,
    kSetProfile,
    kFirstInstruction,
    kInstruction64 = kFirstInstruction + OP_COUNT,
    kBoardMode,
    kCubeModes,
    kTables,
    kFixpipe,
    kProgram,
    kTsel,
    kOpcodes
};

/* fuzz_special's Index arguments (textract_fp's and tinsert_fp's offsets,
 * tgather_cmp's, tmrgsort's block length): drawn from the input, edge
 * values among them, instead of the attributes.def row's Test value. */
static reader *g_index_reader;
static size_t draw_index(size_t test) {
    const uint8_t b = take(g_index_reader);
    return b < 0x80 ? test : b < 0xC0 ? test + (b & 15) : take_index(g_index_reader);
}

/* A Special row the fuzzer has no model of (its rules are its own test
 * file's): a call with the input's tiles and its attributes.def row's Test
 * values. Any status; a refusal with a message writes nothing; a success
 * writes no operand but dst, and nothing of dst outside its valid region
 * (unless the row writes dst's whole rows x cols). */
static void fuzz_special(reader *r, state *st, op_id op) {
    pto_tile *dst = take_tile(r, st);
    pto_tile *a = take_tile(r, st), *b = take_tile(r, st), *t = take_tile(r, st);
    const pto_pow_algorithm algo = take_algo(r);
    /* A SecondDst row's tmp is its second destination (tpartargmax's
     * dst_idx): checked as a dst of its own, apart from the other operands. */
    const bool second = (op_row(op)->traits & PTO_TRAIT_SecondDst) != 0;
    checked_call c, c2;
    call_begin(&c, op_name(op), kStatusNotModelled, (const pto_tile *const[]){dst, a, b, t}, second ? 3 : 4);
    if (second) call_begin(&c2, op_name(op), kStatusNotModelled, (const pto_tile *const[]){t}, 1);
    g_index_reader = r;
    op_index_draw = draw_index;
    const pto_status got = op_call(op, algo, dst, a, b, t);
    op_index_draw = NULL;
    call_check(&c, got, (op_row(op)->traits & PTO_TRAIT_WholeDst) ? kWritesAnywhereInDst : kWritesValidRegion);
    call_end(&c);
    if (second) {
        call_check(&c2, got, kWritesValidRegion);
        call_end(&c2);
    }
}

/* A tile of its own for kInstruction64: dt, rows x cols with a vr x vc valid
 * region, its elements from the input (8-byte ones from edge values that
 * tell 64 bits from 32, indices below `bound` when bound is not 0). */
static pto_tile *tile64(reader *r, pto_dtype dt, uint32_t rows, uint32_t cols, uint32_t vr, uint32_t vc,
                        uint32_t bound) {
    static const uint64_t kEdges[8] = {0, 1, UINT64_MAX, INT64_MAX, (uint64_t)INT64_MIN,
                                       UINT64_C(0xFFFFFFFF), UINT64_C(0x100000000), UINT64_C(0x8000000000000001)};
    pto_tile *t = NULL;
    CHECK(pto_tile_create(dt, rows, cols, &t) == PTO_OK, "creating an operand tile");
    CHECK(pto_tile_set_valid(t, vr, vc) == PTO_OK, "its valid region");
    const size_t size = pto_dtype_size(dt), n = (size_t)rows * cols;
    unsigned char *data = pto_tile_data(t);
    for (size_t k = 0; k < n; ++k) {
        const uint8_t b = take(r);
        const uint64_t v = bound != 0 ? b % bound : size == 8 ? kEdges[b % 8] + (b >> 3) : b;
        memcpy(data + k * size, &v, size); /* the low bytes on a little-endian host */
    }
    return t;
}

/* Any operation on tiles of INT64 or UINT64 (the models above know the nine
 * narrower dtypes only): dst of the row's kind (a compare's UINT8 mask, an
 * index reduction's INT32), a select's UINT8 mask source, gather's and
 * scatter's INT32 indices, every other operand 8-byte; the attributes.def
 * row's Test values. Any status; a refusal with a message writes nothing; a
 * success writes no operand but dst, and nothing of dst outside its valid
 * region unless the row writes its whole tile. */
static void fuzz_instruction64(reader *r) {
    const op_id op = (op_id)(take(r) % OP_COUNT);
    const pto_dtype dt = (take(r) & 1) ? PTO_UINT64 : PTO_INT64;
    const uint32_t rows = 1u + take(r) % 8, cols = 1u + take(r) % 16;
    const uint32_t vr = 1u + take(r) % rows, vc = 1u + take(r) % cols;
    const uint32_t traits = op_row(op)->traits, mask_cols = (cols + 7) / 8, mask_vc = (vc + 7) / 8;
    pto_tile *dst = (traits & PTO_TRAIT_MaskDst)    ? tile64(r, PTO_UINT8, rows, mask_cols, vr, mask_vc, 0)
                    : (traits & PTO_TRAIT_IndexDst) ? tile64(r, PTO_INT32, rows, cols, vr, vc, 0)
                                                     : tile64(r, dt, rows, cols, vr, vc, 0);
    pto_tile *a = (traits & PTO_TRAIT_MaskSrc) ? tile64(r, PTO_UINT8, rows, cols, vr, mask_vc, 0)
                                               : tile64(r, dt, rows, cols, vr, vc, 0);
    pto_tile *b = (traits & PTO_TRAIT_ValuesAtRun) ? tile64(r, PTO_INT32, rows, cols, vr, vc, rows * cols)
                                                   : tile64(r, dt, rows, cols, vr, vc, 0);
    pto_tile *t = tile64(r, dt, rows, cols, vr, vc, 0);
    const pto_pow_algorithm algo = take_algo(r);
    checked_call c;
    call_begin(&c, op_name(op), kStatusNotModelled, (const pto_tile *const[]){dst, a, b, t}, 4);
    call_check(&c, op_call(op, algo, dst, a, b, t),
               (traits & PTO_TRAIT_WholeDst) ? kWritesAnywhereInDst : kWritesValidRegion);
    call_end(&c);
    pto_tile_destroy(dst);
    pto_tile_destroy(a);
    pto_tile_destroy(b);
    pto_tile_destroy(t);
}

/* One instruction call, its rules and checks by operation. */
static void op_instruction(reader *r, state *st, op_id op) {
    switch (op) {
    case OP_TPOW: fuzz_pow(r, st); break;
    case OP_TRSQRT: fuzz_rsqrt(r, st); break;
    case OP_TPRELU:
    case OP_TCOLEXPANDDIV:
    case OP_TPARTADD: fuzz_binary(r, st, op); break;
    case OP_TCVT: fuzz_convert(r, st); break;
    case OP_TPACK: fuzz_pack(r, st); break;
    case OP_TFILLPAD: fuzz_fillpad(r, st); break;
    case OP_TCI: fuzz_sequence(r, st); break;
    case OP_TRESHAPE: fuzz_reshape(r, st); break;
    case OP_TALIAS: fuzz_alias(r, st); break;
    case OP_TTRANS: fuzz_transpose(r, st); break;
    case OP_TCONCAT: fuzz_concat(r, st); break;
    case OP_TEXTRACT: fuzz_extract(r, st); break;
    case OP_TGATHER: fuzz_gather(r, st); break;
    case OP_TSETVAL: fuzz_setval(r, st); break;
    case OP_TPOWS: fuzz_tpows(r, st); break;
    case OP_TCMP:
    case OP_TCMPS:
    case OP_TSELS: fuzz_compare_select(r, st, op); break;
    case OP_TMRGSORT_LISTS: fuzz_mrgsort_lists(r, st); break;
    default: /* the families, and Special rows modelled by fuzz_special only */
        if (op_row(op)->family == OP_FAMILY_SPECIAL)
            fuzz_special(r, st, op);
        else if (op_is_reduction(op))
            fuzz_reduction(r, st, op);
        else if (op_is_broadcast(op))
            fuzz_broadcast(r, st, op);
        else
            fuzz_elementwise(r, st, op);
        break;
    }
}

/* The calls that cannot fail: queries with arbitrary arguments. */
static void op_queries(reader *r) {
    const pto_status s = (pto_status)(int32_t)take_u32(r);
    const char *name = pto_status_string(s);
    CHECK(name != NULL && name[0] != '\0', "pto_status_string(%d) is empty", (int)s);
    const pto_dtype d = (pto_dtype)(int32_t)take_u32(r);
    const size_t size = pto_dtype_size(d);
    CHECK(((unsigned)d < TEST_DTYPE_COUNT) == (size != 0), "pto_dtype_size(%d) is %zu", (int)d, size);
    CHECK(pto_tile_rows(NULL) == 0 && pto_tile_cols(NULL) == 0 && pto_tile_valid_rows(NULL) == 0 &&
              pto_tile_valid_cols(NULL) == 0 && pto_tile_data(NULL) == NULL &&
              pto_tile_dtype(NULL) == (pto_dtype)0 && pto_tile_location(NULL) == PTO_LOC_VEC &&
              pto_tile_layout(NULL) == PTO_LAYOUT_ND,
          "an accessor on NULL is not 0");
    CHECK(strcmp(pto_version_string(), PTO_VERSION_STRING) == 0, "version mismatch");
    CHECK(pto_buffer_data(NULL) == NULL && pto_buffer_size(NULL) == 0 &&
              pto_tile_buffer(NULL) == NULL && pto_tile_offset(NULL) == 0,
          "a buffer accessor on NULL is not 0");
    CHECK(pto_simd_target() != NULL, "pto_simd_target is NULL");
    CHECK(pto_dtype_string(d) != NULL, "pto_dtype_string(%d) is NULL", (int)d);
    CHECK(pto_board_mode() == 0 || pto_board_mode() == 1, "pto_board_mode is %d", pto_board_mode());
    CHECK(pto_hf32_mode(NULL) == 0 || pto_hf32_mode(NULL) == 1, "pto_hf32_mode is not 0 or 1");
    CHECK(pto_tf32_mode(NULL) == 0 || pto_tf32_mode(NULL) == 1, "pto_tf32_mode is not 0 or 1");
    CHECK(pto_last_error() != NULL, "pto_last_error is NULL");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    state st;
    memset(&st, 0, sizeof(st));
    st.arena = calloc(kArenaBytes, 1);
    CHECK(st.arena != NULL, "out of memory in the harness");
    g_arena = st.arena;
    g_profile = PTO_PROFILE_HOST;
    CHECK(pto_set_profile(PTO_PROFILE_HOST) == PTO_OK, "pto_set_profile(HOST) failed");
    /* Every input starts with board mode and the cube modes off. */
    board_mode_install();
    CHECK(pto_set_board_mode(0) == PTO_OK, "pto_set_board_mode(0) failed");
    CHECK(pto_set_hf32_mode(0, PTO_ROUND_ROUND) == PTO_OK && pto_set_tf32_mode(0, PTO_ROUND_ROUND) == PTO_OK,
          "the cube modes off");
    (void)board_warned();
    /* Bounded work per input, whatever its length. */
    for (int steps = 0; r.left > 0 && steps < 64; steps++) {
        const unsigned code = take(&r) % kOpcodes;
        if (code == kInstruction64) {
            fuzz_instruction64(&r);
            continue;
        }
        switch (code) {
        case kBoardMode: fuzz_board_mode(&r); continue;
        case kCubeModes: fuzz_cube_modes(&r); continue;
        case kTables: fuzz_tables(&r, &st); continue;
        case kFixpipe: fuzz_fixpipe(&r, &st); continue;
        case kProgram: fuzz_program(&r, &st); continue;
        case kTsel: fuzz_tsel(&r, &st); continue;
        default: break;
        }
        if (code >= kFirstInstruction) {
            op_instruction(&r, &st, (op_id)(code - kFirstInstruction));
            continue;
        }
        switch (code) {
        case kCreate: fuzz_create(&r, &st); break;
        case kCreateCube: fuzz_create_cube(&r, &st); break;
        case kDestroy: fuzz_destroy(&r, &st); break;
        case kSetValid: fuzz_set_valid(&r, &st); break;
        case kWrite: fuzz_write(&r, &st, 0); break;
        case kWriteF32: fuzz_write(&r, &st, 1); break;
        case kRead: fuzz_read(&r, &st, take(&r) & 1); break;
        case kQueries: op_queries(&r); break;
        case kBuffer: fuzz_buffer(&r, &st); break;
        case kBufferDestroy: fuzz_buffer_destroy(&r, &st); break;
        case kCreateAt: fuzz_create_at(&r, &st); break;
        case kSetProfile: fuzz_set_profile(&r); break;
        default: fuzz_create(&r, &st); break;
        }
    }
    for (int i = 0; i < kSlots; i++) pto_tile_destroy(st.slot[i]);
    for (int i = 0; i < st.buried; i++) pto_tile_destroy(st.graveyard[i]);
    for (int i = 0; i < kBufferSlots; i++) pto_buffer_destroy(st.buffer[i]);
    g_arena = NULL;
    free(st.arena);
    return 0;
}
