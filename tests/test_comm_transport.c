/* The transport boundary (pto_comm.h) without MPI: a transport of this test
 * registers two windows (rank 0's, this process's own memory, and
 * addresses standing for rank 1's, whose bytes live in a shadow buffer),
 * and pto_program_launch refuses a pointer binding that touches a window
 * without lying inside one, whether the transport answers -2 with its
 * sentence or -1 as transports did before -2 (then the first and last bytes
 * decide); a range that wraps around is refused; plain memory and a window's
 * own bytes run, and a tput reaches the peer through the transport. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pto_comm.h"
#include "support/harness.h"

#define WINDOW 4096

/* One array with a window's length before, between and after the two
 * windows: every range the test binds lies in it. */
static _Alignas(64) unsigned char g_memory[5 * WINDOW];
#define g_own (g_memory + WINDOW)      /* rank 0's window */
#define g_peer (g_memory + 3 * WINDOW) /* addresses standing for rank 1's */
static unsigned char g_shadow[WINDOW];             /* rank 1's bytes */
static int g_refuses = 0;                          /* locate answers -2 (else -1) */
static char g_error[256];

static int32_t in_window(const unsigned char *window, uintptr_t a, uintptr_t end) {
    const uintptr_t lo = (uintptr_t)window, hi = lo + WINDOW;
    if (a >= lo && end <= hi)
        return 1;
    return a < hi && lo < end ? -1 : 0; /* -1: touches it, not inside */
}

static int32_t fake_locate(void *context, const void *address, size_t bytes, uint64_t *offset) {
    (void)context;
    const uintptr_t a = (uintptr_t)address, n = bytes != 0 ? bytes : 1;
    if (n > UINTPTR_MAX - a)
        return snprintf(g_error, sizeof g_error, "fake: wraps"), g_refuses ? -2 : -1;
    const unsigned char *windows[2] = {g_own, g_peer};
    for (int32_t rank = 0; rank < 2; ++rank) {
        const int32_t in = in_window(windows[rank], a, a + n);
        if (in == 1) {
            *offset = a - (uintptr_t)windows[rank];
            return rank;
        }
        if (in == -1) {
            snprintf(g_error, sizeof g_error, "fake: %zu bytes run past rank %d's window", bytes, rank);
            return g_refuses ? -2 : -1;
        }
    }
    return -1;
}

static unsigned char *bytes_of(int32_t rank, uint64_t offset) {
    return (rank == 0 ? g_own : g_shadow) + offset;
}

static pto_status fake_put(void *c, int32_t rank, uint64_t offset, const void *src, size_t bytes) {
    (void)c;
    memcpy(bytes_of(rank, offset), src, bytes);
    return PTO_OK;
}

static pto_status fake_get(void *c, int32_t rank, uint64_t offset, void *dst, size_t bytes) {
    (void)c;
    memcpy(dst, bytes_of(rank, offset), bytes);
    return PTO_OK;
}

static pto_status fake_add(void *c, int32_t rank, uint64_t offset, const void *src, size_t count,
                           pto_dtype dtype) {
    (void)c, (void)rank, (void)offset, (void)src, (void)count, (void)dtype;
    snprintf(g_error, sizeof g_error, "fake: no adds");
    return PTO_ERR_INVALID_ARGUMENT;
}

static pto_status fake_signal(void *c, int32_t rank, uint64_t offset, int32_t value, int add) {
    (void)c;
    int32_t v;
    memcpy(&v, bytes_of(rank, offset), 4);
    v = add ? v + value : value;
    memcpy(bytes_of(rank, offset), &v, 4);
    return PTO_OK;
}

static pto_status fake_read_signal(void *c, int32_t rank, uint64_t offset, int32_t *value) {
    (void)c;
    memcpy(value, bytes_of(rank, offset), 4);
    return PTO_OK;
}

static pto_status fake_compare_swap(void *c, int32_t rank, uint64_t offset, uint32_t expected,
                                    uint32_t desired, uint32_t *old) {
    (void)c;
    memcpy(old, bytes_of(rank, offset), 4);
    if (*old == expected)
        memcpy(bytes_of(rank, offset), &desired, 4);
    return PTO_OK;
}

static pto_status fake_flush(void *c, int32_t rank) {
    (void)c, (void)rank;
    return PTO_OK;
}

static const char *fake_error(void *c) {
    (void)c;
    return g_error;
}

static const pto_comm_transport kFake = {PTO_COMM_TRANSPORT_VERSION, NULL, 0, 2, fake_locate,
                                         fake_put, fake_get, fake_add, fake_signal,
                                         fake_read_signal, fake_compare_swap, fake_flush,
                                         fake_error};

/* %src's 64 floats into %dst's elements [off, off + 64). */
static const char kPut[] =
    "func.func @k(%dst: !pto.ptr<f32>, %src: !pto.ptr<f32>, %off: index) {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
    "  %c64 = arith.constant 64 : index\n  %c128 = arith.constant 128 : index\n"
    "  %dv = pto.make_tensor_view %dst, shape = [%c1, %c128], strides = [%c128, %c1] : "
    "!pto.tensor_view<1x128xf32>\n"
    "  %row = pto.partition_view %dv, offsets = [%c0, %off], sizes = [%c1, %c64] : "
    "!pto.tensor_view<1x128xf32> -> !pto.partition_tensor_view<1x64xf32>\n"
    "  %sv = pto.make_tensor_view %src, shape = [%c1, %c64], strides = [%c64, %c1] : "
    "!pto.tensor_view<1x64xf32>\n"
    "  %buf = pto.alloc_tile : !pto.tile_buf<vec, 1x64xf32>\n"
    "  pto.comm.tput(%row, %sv, buf(%buf) : !pto.partition_tensor_view<1x64xf32>, "
    "!pto.tensor_view<1x64xf32>, !pto.tile_buf<vec, 1x64xf32>) "
    "{atomicType = #pto<atomic_type atomic_none>}\n"
    "  return\n}\n";

static float g_src[64];

/* A launch of kPut with %dst bound to (dst, 512 bytes) and %off. */
static pto_status put_at(pto_program *p, void *dst, int64_t off) {
    pto_args *args = NULL;
    assert_int_equal(pto_args_create(p, &args), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 0, dst, 128 * sizeof(float)), PTO_OK);
    assert_int_equal(pto_args_set_pointer(args, 1, g_src, sizeof g_src), PTO_OK);
    assert_int_equal(pto_args_set_int(args, 2, off), PTO_OK);
    const pto_status s = pto_program_launch(p, 1, args);
    pto_args_destroy(args);
    return s;
}

static int all_zero(const unsigned char *at, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (at[i] != 0)
            return 0;
    return 1;
}

static void run_refusals(int refuses) {
    pto_program *p = program_build(kPut, NULL);
    for (int i = 0; i < 64; ++i)
        g_src[i] = (float)(i + 1);
    memset(g_memory, 0, sizeof g_memory);
    memset(g_shadow, 0, sizeof g_shadow);
    g_refuses = refuses;
    assert_int_equal(pto_comm_set_transport(&kFake), PTO_OK);
    /* 512 bytes from 256 before each window's end: refused, nothing written. */
    assert_int_equal(put_at(p, g_own + WINDOW - 256, 64), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), "%dst, bound to 128 elements, does not lie inside one window"));
    assert_non_null(strstr(pto_last_error(), refuses ? "fake: 512 bytes run past rank 0's window"
                                                     : "lie partly in a window"));
    assert_int_equal(put_at(p, g_peer + WINDOW - 256, 64), PTO_ERR_OUT_OF_RANGE);
    assert_non_null(strstr(pto_last_error(), refuses ? "rank 1's window" : "lie partly in a window"));
    /* From before the peer's window into it. */
    assert_int_equal(put_at(p, g_peer - 256, 0), PTO_ERR_OUT_OF_RANGE);
    /* A range whose end wraps around the address space: refused when it is
       bound, before any launch (pto_args_set_pointer). */
    {
        pto_args *args = NULL;
        assert_int_equal(pto_args_create(p, &args), PTO_OK);
        assert_int_equal(pto_args_set_pointer(args, 0, (void *)(uintptr_t)(UINTPTR_MAX - 255), 128 * sizeof(float)),
                         PTO_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(pto_last_error(), "runs past the end of the address space"));
        pto_args_destroy(args);
    }
    assert_true(all_zero(g_memory, sizeof g_memory) && all_zero(g_shadow, sizeof g_shadow));
    /* Inside: the own window's last 64 floats, and rank 1's through the transport. */
    assert_int_equal(put_at(p, g_own + WINDOW - 512, 64), PTO_OK);
    assert_memory_equal(g_own + WINDOW - 256, g_src, 256);
    assert_int_equal(put_at(p, g_peer + WINDOW - 512, 64), PTO_OK);
    assert_memory_equal(g_shadow + WINDOW - 256, g_src, 256);
    assert_true(all_zero(g_peer, WINDOW)); /* never touched directly */
    /* Plain memory, no window's. */
    static _Alignas(64) float plain[128];
    assert_int_equal(put_at(p, plain, 0), PTO_OK);
    assert_memory_equal(plain, g_src, 256);
    assert_int_equal(pto_comm_set_transport(NULL), PTO_OK);
    pto_program_destroy(p);
}

static void test_transport_refusing(void **state) {
    (void)state;
    run_refusals(1);
}

static void test_transport_of_minus_one(void **state) {
    (void)state;
    run_refusals(0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transport_refusing),
        cmocka_unit_test(test_transport_of_minus_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
