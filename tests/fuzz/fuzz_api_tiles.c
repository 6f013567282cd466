/* The tile, buffer, profile and whole-tile copy calls: their statuses
 * predicted, a refusal changing nothing, a success doing what the contract
 * says (shape, zeroed or placed storage, bytes copied or rounded). */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "fuzz_api.h"

/* Tiles the fuzzer may create successfully; larger valid requests are
 * skipped (they would only be slow), larger invalid ones still run, since
 * they must fail before allocating anything. */
static const uint64_t kMaxFuzzElements = 1u << 16;

/* Empties a tile slot. A tile whose storage a buffer wraps must outlive the
 * tiles placed in that buffer, so it is kept until the input ends. */
static void slot_release(state *st, int i) {
    if (st->pinned[i] && st->buried < kMaxPinned) {
        st->graveyard[st->buried++] = st->slot[i];
    } else {
        pto_tile_destroy(st->slot[i]);
    }
    st->slot[i] = NULL;
    st->pinned[i] = 0;
}

/* A new owned tile: its shape and whole valid region, zeroed 64-byte aligned
 * storage, no buffer. */
static void check_new_tile(const pto_tile *out, pto_dtype dtype, uint32_t rows, uint32_t cols,
                           const char *fn) {
    CHECK(pto_tile_dtype(out) == dtype && pto_tile_rows(out) == rows &&
              pto_tile_cols(out) == cols && pto_tile_valid_rows(out) == rows &&
              pto_tile_valid_cols(out) == cols,
          "%s: the new tile has the wrong shape", fn);
    const unsigned char *bytes = pto_tile_data((pto_tile *)out);
    CHECK(((uintptr_t)bytes & 63) == 0, "%s: tile storage is not 64-byte aligned", fn);
    for (size_t i = 0; i < tile_bytes(out); i++) CHECK(bytes[i] == 0, "%s: new tile is not zeroed", fn);
    CHECK(pto_tile_buffer((pto_tile *)out) == NULL && pto_tile_offset(out) == 0,
          "%s: an owned tile has a buffer", fn);
}

void fuzz_create(reader *r, state *st) {
    const int slot = take(r) % kSlots;
    const pto_dtype dtype = take_dtype(r);
    const uint32_t rows = take_dim(r), cols = take_dim(r);
    const int null_out = take(r) % 16 == 0;

    const size_t size = pto_dtype_size(dtype);
    const uint64_t elements = (uint64_t)rows * cols;
    pto_status want = PTO_OK;
    if (null_out)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (size == 0 || rows == 0 || cols == 0 || elements > PTO_TILE_MAX_BYTES / size)
        want = PTO_ERR_INVALID_ARGUMENT;
    if (want == PTO_OK && elements > kMaxFuzzElements) return; /* valid but slow */

    pto_tile *sentinel = (pto_tile *)(uintptr_t)0x5A5A5A5A;
    pto_tile *out = sentinel;
    const pto_status got = pto_tile_create(dtype, rows, cols, null_out ? NULL : &out);
    check_status("pto_tile_create", got, want);
    if (got != PTO_OK) {
        CHECK(out == sentinel || out == NULL, "a failed pto_tile_create changed *out");
        return;
    }
    CHECK(out != NULL && out != sentinel, "pto_tile_create succeeded without a tile");
    check_new_tile(out, dtype, rows, cols, "pto_tile_create");
    CHECK(pto_tile_location(out) == PTO_LOC_VEC && pto_tile_layout(out) == PTO_LAYOUT_ND,
          "pto_tile_create made a cube tile");
    slot_release(st, slot);
    st->slot[slot] = out;
}

/* A cube tile (pto_tile_create_cube): the location and layout rules and
 * the boxes' alignment predicted; a new tile zeroed, of its location and
 * layout, owned. Dimensions are often whole numbers of boxes. */
void fuzz_create_cube(reader *r, state *st) {
    const int slot = take(r) % kSlots;
    const pto_dtype dtype = take_dtype(r);
    const uint32_t rows = take(r) & 1 ? 16u * (1 + take(r) % 4) : take_dim(r);
    const uint32_t cols = take(r) & 1 ? 16u * (1 + take(r) % 4) : take_dim(r);
    const int location = take(r) % 8, layout = take(r) % 6; /* 7 and 5 name none */
    const int null_out = take(r) % 16 == 0;

    const size_t size = pto_dtype_size(dtype);
    const uint64_t elements = (uint64_t)rows * cols;
    pto_status want = PTO_OK;
    if (null_out) {
        want = PTO_ERR_NULL_ARGUMENT;
    } else if (size == 0 || rows == 0 || cols == 0 || elements > PTO_TILE_MAX_BYTES / size ||
               location > PTO_LOC_SCALING || layout > PTO_LAYOUT_NN) {
        want = PTO_ERR_INVALID_ARGUMENT;
    } else {
        size_t box_rows, box_cols;
        ref_box_shape(dtype, (pto_location)location, (pto_layout)layout, &box_rows, &box_cols);
        const int row_major_only = location == PTO_LOC_BIAS;
        /* vec: ND, or NZ / ZN as A5's vec moves lay it out (512-byte boxes) */
        const int vec_boxes = location == PTO_LOC_VEC && layout != PTO_LAYOUT_ND &&
                              layout != PTO_LAYOUT_NZ && layout != PTO_LAYOUT_ZN;
        /* scaling: the fixpipe's one ND row or MX scales in ZZ or NN */
        const int scaling = location == PTO_LOC_SCALING;
        const int one_row = location == PTO_LOC_BIAS || (scaling && layout == PTO_LAYOUT_ND);
        if ((row_major_only && layout != PTO_LAYOUT_ND) || vec_boxes || (one_row && rows != 1) ||
            (scaling && layout != PTO_LAYOUT_ND && layout != PTO_LAYOUT_ZZ && layout != PTO_LAYOUT_NN) ||
            (rows % box_rows != 0 && rows != 1) || cols % box_cols != 0)
            want = PTO_ERR_INVALID_ARGUMENT;
    }
    if (want == PTO_OK && elements > kMaxFuzzElements) return; /* valid but slow */

    pto_tile *sentinel = (pto_tile *)(uintptr_t)0x5A5A5A5A;
    pto_tile *out = sentinel;
    const pto_status got = pto_tile_create_cube(dtype, rows, cols, (pto_location)location,
                                                (pto_layout)layout, null_out ? NULL : &out);
    check_status("pto_tile_create_cube", got, want);
    if (got != PTO_OK) {
        CHECK(out == sentinel, "a failed pto_tile_create_cube changed *out");
        return;
    }
    check_new_tile(out, dtype, rows, cols, "pto_tile_create_cube");
    CHECK((int)pto_tile_location(out) == location && (int)pto_tile_layout(out) == layout,
          "pto_tile_create_cube: the new tile's location or layout differs");
    slot_release(st, slot);
    st->slot[slot] = out;
}

void fuzz_destroy(reader *r, state *st) {
    const uint8_t b = take(r) % (kSlots + 1);
    if (b == kSlots)
        pto_tile_destroy(NULL); /* a no-op */
    else
        slot_release(st, b);
}

/* A buffer size: mostly 1..limit, sometimes 0 or beyond PTO_TILE_MAX_BYTES. */
static size_t take_size(reader *r, size_t limit) {
    const uint8_t b = take(r);
    if (b < 0xF0) return 1 + ((((size_t)b << 8) | take(r)) % limit);
    static const size_t kBad[8] = {0, (size_t)PTO_TILE_MAX_BYTES + 1, SIZE_MAX, (size_t)1 << 40,
                                   (size_t)1 << 31, (size_t)1 << 32, (size_t)1 << 63, SIZE_MAX - 1};
    return kBad[b & 7];
}

/* Buffers: created, wrapping the arena at any byte, wrapping a tile's
 * storage (which pins that tile), or wrapping NULL. */
void fuzz_buffer(reader *r, state *st) {
    const int slot = take(r) % kBufferSlots;
    const int kind = take(r) % 4;
    const int null_out = take(r) % 16 == 0;
    void *memory = NULL;
    size_t nbytes;
    int pin = -1;
    if (kind == 0) {
        nbytes = take_size(r, 1 << 16);
    } else if (kind == 1) {
        const size_t offset = ((size_t)take(r) * 61 + take(r)) % kArenaBytes;
        memory = st->arena + offset;
        nbytes = take_size(r, kArenaBytes - offset);
    } else if (kind == 2) {
        const int i = take(r) % (kSlots + 1);
        if (i < kSlots && st->slot[i] != NULL) {
            memory = pto_tile_data(st->slot[i]);
            nbytes = take_size(r, tile_bytes(st->slot[i]));
            pin = i;
        } else {
            nbytes = take_size(r, 64);
        }
    } else {
        nbytes = take_size(r, 64);
    }
    pto_status want = PTO_OK;
    if (null_out || (kind != 0 && memory == NULL))
        want = PTO_ERR_NULL_ARGUMENT;
    else if (nbytes == 0 || nbytes > PTO_TILE_MAX_BYTES)
        want = PTO_ERR_INVALID_ARGUMENT;
    pto_buffer *const sentinel = (pto_buffer *)(uintptr_t)0x5A5A5A50;
    pto_buffer *out = sentinel;
    const char *fn = kind == 0 ? "pto_buffer_create" : "pto_buffer_wrap";
    const pto_status got = kind == 0 ? pto_buffer_create(nbytes, null_out ? NULL : &out)
                                     : pto_buffer_wrap(memory, nbytes, null_out ? NULL : &out);
    check_status(fn, got, want);
    if (got != PTO_OK) {
        CHECK(out == sentinel, "a failed %s changed *out", fn);
        return;
    }
    CHECK(pto_buffer_size(out) == nbytes, "%s: size %zu, asked %zu", fn, pto_buffer_size(out), nbytes);
    const unsigned char *bytes = pto_buffer_data(out);
    if (kind == 0) {
        CHECK(((uintptr_t)bytes & 63) == 0, "buffer storage is not 64-byte aligned");
        for (size_t i = 0; i < nbytes; i++) CHECK(bytes[i] == 0, "new buffer is not zeroed");
    } else {
        CHECK(bytes == memory, "a wrapped buffer does not use the caller's memory");
    }
    if (pin >= 0) st->pinned[pin] = 1;
    pto_buffer_destroy(st->buffer[slot]); /* tiles placed in it keep it alive */
    st->buffer[slot] = out;
}

void fuzz_buffer_destroy(reader *r, state *st) {
    const int b = take(r) % (kBufferSlots + 1);
    pto_buffer_destroy(b < kBufferSlots ? st->buffer[b] : NULL); /* NULL: a no-op */
    if (b < kBufferSlots) st->buffer[b] = NULL;
}

/* An offset in a buffer of `size` bytes: mostly inside (any byte), sometimes
 * at or beyond the end, or near SIZE_MAX. */
static size_t take_offset(reader *r, size_t size) {
    const uint8_t b = take(r);
    if (b < 0xE0) return (((size_t)b << 8) | take(r)) % (size + 1);
    static const size_t kFar[16] = {0, 1, 2, 3, 4, 63, 64, SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 3,
                                    SIZE_MAX / 2, (size_t)1 << 63, (size_t)PTO_TILE_MAX_BYTES,
                                    (size_t)PTO_TILE_MAX_BYTES + 4, (size_t)1 << 31, (size_t)1 << 32};
    if (b < 0xF0) return size - (b & 15) * (b & 1 ? 1 : 4); /* wraps below 0 when size is small */
    return kFar[b & 15];
}

/* TASSIGN: a tile at an offset of a buffer slot (or NULL). */
void fuzz_create_at(reader *r, state *st) {
    const int slot = take(r) % kSlots;
    const int bslot = take(r) % (kBufferSlots + 1);
    pto_buffer *buffer = bslot < kBufferSlots ? st->buffer[bslot] : NULL;
    const pto_dtype dtype = take_dtype(r);
    const uint32_t rows = take_dim(r), cols = take_dim(r);
    const size_t offset = take_offset(r, pto_buffer_size(buffer));
    const int null_out = take(r) % 16 == 0;

    const size_t size = pto_dtype_size(dtype);
    const uint64_t elements = (uint64_t)rows * cols;
    const uintptr_t address = (uintptr_t)pto_buffer_data(buffer) + offset;
    pto_status want = PTO_OK;
    if (buffer == NULL || null_out)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (size == 0 || rows == 0 || cols == 0 || elements > PTO_TILE_MAX_BYTES / size ||
             address % size != 0)
        want = PTO_ERR_INVALID_ARGUMENT;
    else if (offset > pto_buffer_size(buffer) || elements * size > pto_buffer_size(buffer) - offset)
        want = PTO_ERR_OUT_OF_RANGE;

    unsigned char *before = NULL;
    if (want == PTO_OK) {
        before = malloc(elements * size);
        CHECK(before != NULL, "out of memory in the harness");
        memcpy(before, (const void *)address, elements * size);
    }
    pto_tile *const sentinel = (pto_tile *)(uintptr_t)0x5A5A5A50;
    pto_tile *out = sentinel;
    const pto_status got =
        pto_tile_create_at(dtype, rows, cols, buffer, offset, null_out ? NULL : &out);
    check_status("pto_tile_create_at", got, want);
    if (got != PTO_OK) {
        CHECK(out == sentinel, "a failed pto_tile_create_at changed *out");
        return;
    }
    CHECK(pto_tile_data(out) == (void *)address && pto_tile_buffer(out) == buffer &&
              pto_tile_offset(out) == offset && pto_tile_rows(out) == rows &&
              pto_tile_cols(out) == cols && pto_tile_valid_rows(out) == rows &&
              pto_tile_valid_cols(out) == cols && pto_tile_dtype(out) == dtype,
          "placed tile has the wrong place or shape");
    CHECK(memcmp(before, (const void *)address, elements * size) == 0,
          "pto_tile_create_at changed the bytes it placed the tile on");
    free(before);
    slot_release(st, slot);
    st->slot[slot] = out;
}

void fuzz_set_profile(reader *r) {
    static const int kOdd[16] = {3, -1, INT_MIN, INT_MAX, 4, 255, 256, -2,
                                 0, 1, 2, 100, 0x7FFF, 0x10000, 7, 8};
    const uint8_t b = take(r);
    const int value = b < 0xF0 ? b % 3 : kOdd[b - 0xF0];
    const pto_status want = value >= 0 && value <= 2 ? PTO_OK : PTO_ERR_INVALID_ARGUMENT;
    check_status("pto_set_profile", pto_set_profile((pto_profile)value), want);
    if (want == PTO_OK) g_profile = (pto_profile)value;
    CHECK(pto_get_profile() == g_profile, "profile %d, expected %d", (int)pto_get_profile(),
          (int)g_profile);
    CHECK(pto_profile_string((pto_profile)value) != NULL, "pto_profile_string is NULL");
}

void fuzz_set_valid(reader *r, state *st) {
    pto_tile *t = take_tile(r, st);
    const uint32_t vr = take_extent(r, pto_tile_rows(t));
    const uint32_t vc = take_extent(r, pto_tile_cols(t));
    pto_status want = PTO_OK;
    if (t == NULL)
        want = PTO_ERR_NULL_ARGUMENT;
    else if (vr > pto_tile_rows(t) || vc > pto_tile_cols(t))
        want = PTO_ERR_OUT_OF_RANGE;
    snapshot before;
    snapshot_take(&before, t);
    check_status("pto_tile_set_valid", pto_tile_set_valid(t, vr, vc), want);
    if (want != PTO_OK) {
        check_unchanged(&before, "pto_tile_set_valid");
    } else {
        CHECK(pto_tile_valid_rows(t) == vr && pto_tile_valid_cols(t) == vc,
              "pto_tile_set_valid did not set the region");
        CHECK(memcmp(pto_tile_data(t), before.data, before.bytes) == 0,
              "pto_tile_set_valid changed the data");
    }
    snapshot_free(&before);
}

/* A float for write_f32: specials, small values or raw bits from the input. */
static float take_float(reader *r) {
    static const float kSpecial[16] = {0.0f,  -0.0f,     INFINITY,  -INFINITY, NAN,      -NAN,
                                       1e-45f, -1e-45f,  1e-40f,    6e-8f,     65504.0f, 65520.0f,
                                       3e38f,  1.0f / 3, 1.00390625f, -2.0f};
    const uint8_t b = take(r);
    if (b < 0x10) return kSpecial[b];
    if (b < 0xF0) return (float)((int)b - 0x80) / 8.0f;
    const uint32_t bits = take_u32(r);
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* What a whole-tile copy call is given and what the contract says it
 * returns: the element or byte count read from the input (mostly the exact
 * one), whether the buffer is NULL, and the expected status. */
typedef struct {
    const char *fn;
    size_t elements, exact, count, unit;
    int null_buffer;
    pto_status want;
} copy_call;

static copy_call plan_copy(reader *r, const pto_tile *t, int as_f32, const char *fn) {
    copy_call c;
    c.fn = fn;
    c.elements = (size_t)pto_tile_rows(t) * pto_tile_cols(t);
    c.exact = as_f32 ? c.elements : tile_bytes(t);
    c.count = take_count(r, c.exact);
    c.null_buffer = take(r) % 16 == 0;
    c.unit = as_f32 ? sizeof(float) : 1;
    c.want = PTO_OK;
    if (t == NULL || c.null_buffer)
        c.want = PTO_ERR_NULL_ARGUMENT;
    else if (as_f32 && !ref_is_float(pto_tile_dtype(t)))
        c.want = PTO_ERR_UNSUPPORTED_DTYPE;
    else if (c.count != c.exact)
        c.want = PTO_ERR_INVALID_ARGUMENT;
    return c;
}

void fuzz_write(reader *r, state *st, int as_f32) {
    pto_tile *t = take_tile(r, st);
    const copy_call c = plan_copy(r, t, as_f32, as_f32 ? "pto_tile_write_f32" : "pto_tile_write");
    /* The source holds exactly `exact` values, so a library that trusted a
     * larger count would overrun it (and trip AddressSanitizer). */
    unsigned char *src = malloc(c.exact * c.unit + 1);
    CHECK(src != NULL, "out of memory in the harness");
    for (size_t i = 0; i < c.exact; i++) {
        if (as_f32) {
            const float f = take_float(r);
            memcpy(src + i * c.unit, &f, sizeof(f));
        } else {
            src[i] = take(r);
        }
    }

    snapshot before;
    snapshot_take(&before, t);
    const pto_status got = as_f32
                               ? pto_tile_write_f32(t, c.null_buffer ? NULL : (const float *)src, c.count)
                               : pto_tile_write(t, c.null_buffer ? NULL : src, c.count);
    check_status(c.fn, got, c.want);
    if (got != PTO_OK) {
        check_unchanged(&before, c.fn);
    } else if (!as_f32) {
        /* Row-major values in, each at its place in the tile's layout. */
        const size_t size = pto_dtype_size(pto_tile_dtype(t));
        const unsigned char *image = pto_tile_data(t);
        for (size_t i = 0; i < c.elements; i++)
            CHECK(memcmp(image + ref_tile_image_element(t, i) * size, src + i * size, size) == 0,
                  "pto_tile_write: element %zu differs", i);
    } else {
        const pto_dtype d = pto_tile_dtype(t);
        for (size_t i = 0; i < c.elements; i++) {
            float f;
            memcpy(&f, src + i * c.unit, sizeof(f));
            const uint32_t got_bits = ref_load(d, pto_tile_data(t), ref_tile_image_element(t, i));
            CHECK((isnan(f) && ref_is_nan(d, got_bits)) || got_bits == ref_from_double(d, f),
                  "pto_tile_write_f32: dtype %d element %zu (%a) is not rounded to nearest even",
                  (int)d, i, (double)f);
        }
    }
    snapshot_free(&before);
    free(src);
}

void fuzz_read(reader *r, state *st, int as_f32) {
    const pto_tile *t = take_tile(r, st);
    const copy_call c = plan_copy(r, t, as_f32, as_f32 ? "pto_tile_read_f32" : "pto_tile_read");
    unsigned char *out = malloc(c.exact * c.unit + 1);
    CHECK(out != NULL, "out of memory in the harness");
    memset(out, 0xA5, c.exact * c.unit + 1);
    snapshot before;
    snapshot_take(&before, t);
    const pto_status got = as_f32 ? pto_tile_read_f32(t, c.null_buffer ? NULL : (float *)out, c.count)
                                  : pto_tile_read(t, c.null_buffer ? NULL : out, c.count);
    check_status(c.fn, got, c.want);
    check_unchanged(&before, c.fn);
    if (got != PTO_OK) {
        for (size_t i = 0; i < c.exact * c.unit; i++)
            CHECK(out[i] == 0xA5, "%s wrote after failing", c.fn);
    } else if (!as_f32) {
        const size_t size = pto_dtype_size(before.dtype);
        for (size_t i = 0; i < c.elements; i++)
            CHECK(memcmp(out + i * size, before.data + ref_tile_image_element(t, i) * size, size) == 0,
                  "pto_tile_read: element %zu differs", i);
    } else {
        for (size_t i = 0; i < c.elements; i++) {
            float f;
            memcpy(&f, out + i * c.unit, sizeof(f));
            const double w = ref_to_double(before.dtype,
                                           ref_load(before.dtype, before.data, ref_tile_image_element(t, i)));
            CHECK((isnan(w) && isnan(f)) || ((double)f == w && !signbit(f) == !signbit(w)),
                  "pto_tile_read_f32: element %zu is %a, want %a", i, (double)f, w);
        }
    }
    snapshot_free(&before);
    free(out);
}
