/* libpto-mpi's two transports of pto_comm.h: MPI-3 passive-target
 * one-sided operations on the window, and, where every rank of the window
 * shares one node, plain copies and atomic operations on its shared
 * memory. */
#include <stdint.h>
#include <string.h>

#include "pto_mpi_internal.h"

/* ---- the transport ------------------------------------------------------ */

/* Whether [a, end) and [lo, hi) share a byte. */
static int overlaps(uintptr_t a, uintptr_t end, uintptr_t lo, uintptr_t hi) {
    return a < hi && lo < end;
}

/* The sentence of a range that touches a window but does not lie inside
 * it: rank's window (or, for a rank the window does not have, the
 * addresses that would stand for it). -2: refused, never the process's own
 * memory. */
static int32_t refuse_range(const pto_mpi *m, size_t slice, intptr_t offset, size_t bytes) {
    if (slice >= (size_t)m->ranks)
        pto_mpi_fail_(PTO_ERR_OUT_OF_RANGE,
                      "the address stands for rank %zu's window, and the window has %d rank%s "
                      "(0..%d)",
                      slice, m->ranks, m->ranks == 1 ? "" : "s", m->ranks - 1);
    else
        pto_mpi_fail_(PTO_ERR_OUT_OF_RANGE,
                      "%zu bytes at offset %jd of rank %zu's window do not lie inside it (the "
                      "window holds %zu bytes)",
                      bytes, (intmax_t)offset, slice, m->size);
    return -2;
}

/* The rank whose window holds [address, address + bytes) whole, and the
 * offset there: the calling rank's own window, or the addresses reserved
 * for a peer's (pto_mpi_peer_address). A range that touches either but
 * does not lie inside one window, whose end wraps around, or that stands
 * for a rank the window does not have (or for the calling rank's own
 * window through the reserved addresses, which pto_mpi_peer_address never
 * gives) is refused (-2, the sentence in pto_mpi_last_error), never taken
 * for the process's own memory; -1 only for memory no window touches. */
static int32_t t_locate(void *context, const void *address, size_t bytes, uint64_t *offset) {
    const pto_mpi *m = context;
    const uintptr_t a = (uintptr_t)address, n = bytes != 0 ? bytes : 1;
    if (n > UINTPTR_MAX - a) {
        pto_mpi_fail_(PTO_ERR_OUT_OF_RANGE, "%zu bytes from address %p wrap around the address space",
                      bytes, address);
        return -2;
    }
    const uintptr_t end = a + n, own = (uintptr_t)m->base, res = (uintptr_t)m->reserved;
    /* The own window with the library's bytes past it, which no program
     * reaches. */
    if (overlaps(a, end, own, own + m->size + PTO_MPI_CONTROL_BYTES)) {
        if (a >= own && end - own <= m->size) {
            *offset = a - own;
            return m->rank;
        }
        return refuse_range(m, (size_t)m->rank, (intptr_t)(a - own), n);
    }
    if (!overlaps(a, end, res, res + m->reserved_bytes))
        return -1;
    if (a < res)
        return refuse_range(m, 0, -(intptr_t)(res - a), n);
    const size_t slice = (a - res) / m->size, in = (a - res) % m->size;
    if (slice >= (size_t)m->ranks || n > m->size - in)
        return refuse_range(m, slice, (intptr_t)in, n);
    if (slice == (size_t)m->rank) {
        pto_mpi_fail_(PTO_ERR_OUT_OF_RANGE,
                      "the address stands for rank %d's own window through the peers' reserved "
                      "addresses (its own window is reached at its own address)",
                      m->rank);
        return -2;
    }
    *offset = in;
    return (int32_t)slice;
}

/* A signal read's refusal once a peer told this rank it failed: the
 * waiting blocks stop instead of waiting out PTO_COMM_TIMEOUT. */
static pto_status stopped_by(pto_mpi *m, int failed) {
    __atomic_store_n(&m->stopped, 1, __ATOMIC_SEQ_CST);
    return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT, "rank %d failed (its own message says why); rank %d stops",
                         failed, m->rank);
}

/* MPI counts are ints: transfers in pieces of at most 1 GiB. */
#define PIECE ((size_t)1 << 30)

static pto_status t_put(void *context, int32_t rank, uint64_t offset, const void *src, size_t bytes) {
    pto_mpi *m = context;
    pto_status s = PTO_OK;
    pto_mpi_lock_();
    for (size_t done = 0; done < bytes && s == PTO_OK; done += PIECE) {
        const int n = (int)(bytes - done < PIECE ? bytes - done : PIECE);
        s = pto_mpi_check_(MPI_Put((const char *)src + done, n, MPI_BYTE, rank, (MPI_Aint)(offset + done), n,
                              MPI_BYTE, m->win),
                      "MPI_Put");
    }
    pto_mpi_unlock_();
    return s;
}

static pto_status t_get(void *context, int32_t rank, uint64_t offset, void *dst, size_t bytes) {
    pto_mpi *m = context;
    pto_status s = PTO_OK;
    pto_mpi_lock_();
    for (size_t done = 0; done < bytes && s == PTO_OK; done += PIECE) {
        const int n = (int)(bytes - done < PIECE ? bytes - done : PIECE);
        s = pto_mpi_check_(MPI_Get((char *)dst + done, n, MPI_BYTE, rank, (MPI_Aint)(offset + done), n,
                              MPI_BYTE, m->win),
                      "MPI_Get");
    }
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    pto_mpi_unlock_();
    return s;
}

static MPI_Datatype mpi_type(pto_dtype dtype) {
    switch (dtype) {
    case PTO_FLOAT32: return MPI_FLOAT;
    case PTO_INT32: return MPI_INT32_T;
    case PTO_UINT32: return MPI_UINT32_T;
    case PTO_INT16: return MPI_INT16_T;
    case PTO_UINT16: return MPI_UINT16_T;
    case PTO_INT8: return MPI_INT8_T;
    case PTO_UINT8: return MPI_UINT8_T;
    case PTO_INT64: return MPI_INT64_T;
    case PTO_UINT64: return MPI_UINT64_T;
    default: return MPI_DATATYPE_NULL;
    }
}

static pto_status t_add(void *context, int32_t rank, uint64_t offset, const void *src, size_t count,
                        pto_dtype dtype) {
    pto_mpi *m = context;
    const MPI_Datatype type = mpi_type(dtype);
    if (type == MPI_DATATYPE_NULL)
        return pto_mpi_fail_(PTO_ERR_UNSUPPORTED_DTYPE,
                    "an atomic add of this dtype has no MPI type (float32 and the integer dtypes "
                    "have; libpto adds float16 and bfloat16 itself)");
    const size_t size = pto_dtype_size(dtype), piece = PIECE / size;
    pto_status s = PTO_OK;
    pto_mpi_lock_();
    for (size_t done = 0; done < count && s == PTO_OK; done += piece) {
        const int n = (int)(count - done < piece ? count - done : piece);
        s = pto_mpi_check_(MPI_Accumulate((const char *)src + done * size, n, type, rank,
                                     (MPI_Aint)(offset + done * size), n, type, MPI_SUM, m->win),
                      "MPI_Accumulate");
    }
    pto_mpi_unlock_();
    return s;
}

static pto_status t_signal(void *context, int32_t rank, uint64_t offset, int32_t value, int add) {
    pto_mpi *m = context;
    pto_mpi_lock_();
    /* What this rank stored into its window before the signal is visible to
     * the peer that sees the signal (the NPU's barrier before a notify). */
    pto_status s = pto_mpi_check_(MPI_Win_sync(m->win), "MPI_Win_sync");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Accumulate(&value, 1, MPI_INT32_T, rank, (MPI_Aint)offset, 1, MPI_INT32_T,
                                     add ? MPI_SUM : MPI_REPLACE, m->win),
                      "MPI_Accumulate");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    pto_mpi_unlock_();
    return s;
}

static pto_status t_read_signal(void *context, int32_t rank, uint64_t offset, int32_t *value) {
    pto_mpi *m = context;
    const int failed = pto_mpi_failed_peer_(m);
    if (failed >= 0)
        return stopped_by(m, failed);
    pto_mpi_lock_();
    pto_status s = pto_mpi_check_(MPI_Fetch_and_op(NULL, value, MPI_INT32_T, rank, (MPI_Aint)offset,
                                              MPI_NO_OP, m->win),
                             "MPI_Fetch_and_op");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    /* What a peer put before its notify is visible to this rank's loads. */
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Win_sync(m->win), "MPI_Win_sync");
    pto_mpi_unlock_();
    return s;
}

static pto_status t_compare_swap(void *context, int32_t rank, uint64_t offset, uint32_t expected,
                                 uint32_t desired, uint32_t *old) {
    pto_mpi *m = context;
    pto_mpi_lock_();
    pto_status s = pto_mpi_check_(MPI_Compare_and_swap(&desired, &expected, old, MPI_UINT32_T, rank,
                                                  (MPI_Aint)offset, m->win),
                             "MPI_Compare_and_swap");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    pto_mpi_unlock_();
    return s;
}

static pto_status t_flush(void *context, int32_t rank) {
    pto_mpi *m = context;
    pto_mpi_lock_();
    const pto_status s = pto_mpi_check_(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    pto_mpi_unlock_();
    return s;
}

static const char *t_error(void *context) {
    (void)context;
    return pto_mpi_last_error();
}

/* ---- the transport on one node's shared memory ------------------------- */

/* Every rank's window is mapped into every process (MPI_Win_allocate_shared
 * and MPI_Win_shared_query): puts and gets are copies, signals atomic
 * operations on the memory. Ordering as the NPU's notify gives it: a
 * signal's write is a release (sequentially consistent) operation, so what
 * the rank stored before it, in its own window or by put into a peer's, is
 * visible to whoever reads the signal, and a read of a signal is an acquire
 * (sequentially consistent) load. No MPI call, so no rank waits for another
 * rank's turn on a CPU to make progress. */

static char *s_at(const pto_mpi *m, int32_t rank, uint64_t offset) {
    return m->bases[rank] + offset;
}

/* Whether (rank, offset) is aligned to `size` bytes, as the CPU's atomic
 * operations need. libpto only asks for aligned elements (a program's
 * pointers are refused unless aligned to their dtype, its views step in
 * elements, and every rank's part of the window starts on a page), so the
 * branch to MPI's atomic operations on the same window is a guard for
 * offsets that would break that, not a path programs take. */
static int s_aligned(const pto_mpi *m, int32_t rank, uint64_t offset, size_t size) {
    return (uintptr_t)s_at(m, rank, offset) % size == 0;
}

static pto_status s_put(void *context, int32_t rank, uint64_t offset, const void *src, size_t bytes) {
    memmove(s_at(context, rank, offset), src, bytes);
    return PTO_OK;
}

static pto_status s_get(void *context, int32_t rank, uint64_t offset, void *dst, size_t bytes) {
    memmove(dst, s_at(context, rank, offset), bytes);
    return PTO_OK;
}

/* float32 elements added one at a time by compare-and-swap of their bits:
 * target + addend rounded once to float32, as MPI_SUM on MPI_FLOAT does,
 * and no other add of the element between the read and the write. */
static void s_add_float32(char *at, const char *src, size_t count) {
    for (size_t i = 0; i < count; ++i) {
        uint32_t *word = (uint32_t *)(void *)(at + 4 * i);
        float addend;
        memcpy(&addend, src + 4 * i, 4);
        uint32_t seen = __atomic_load_n(word, __ATOMIC_RELAXED), desired;
        do {
            float value;
            memcpy(&value, &seen, 4);
            value = value + addend;
            memcpy(&desired, &value, 4);
        } while (!__atomic_compare_exchange_n(word, &seen, desired, 0, __ATOMIC_SEQ_CST,
                                              __ATOMIC_RELAXED));
    }
}

/* Integer elements added by atomic fetch-and-add (wrapping, as the
 * two's-complement sum MPI_SUM gives). */
#define S_ADD_INTEGERS(type)                                                                       \
    for (size_t i = 0; i < count; ++i) {                                                           \
        type addend;                                                                               \
        memcpy(&addend, (const char *)src + sizeof(type) * i, sizeof(type));                       \
        __atomic_fetch_add((type *)(void *)(at + sizeof(type) * i), addend, __ATOMIC_SEQ_CST);     \
    }

static pto_status s_add(void *context, int32_t rank, uint64_t offset, const void *src, size_t count,
                        pto_dtype dtype) {
    char *at = s_at(context, rank, offset);
    const size_t size = pto_dtype_size(dtype);
    if (size != 0 && !s_aligned(context, rank, offset, size)) {
        pto_status s = t_add(context, rank, offset, src, count, dtype);
        return s == PTO_OK ? t_flush(context, rank) : s;
    }
    switch (dtype) {
    case PTO_FLOAT32: s_add_float32(at, src, count); break;
    case PTO_INT32:
    case PTO_UINT32: S_ADD_INTEGERS(uint32_t) break;
    case PTO_INT16:
    case PTO_UINT16: S_ADD_INTEGERS(uint16_t) break;
    case PTO_INT8:
    case PTO_UINT8: S_ADD_INTEGERS(uint8_t) break;
    case PTO_INT64:
    case PTO_UINT64: S_ADD_INTEGERS(uint64_t) break;
    default:
        return pto_mpi_fail_(PTO_ERR_UNSUPPORTED_DTYPE,
                    "an atomic add of this dtype has no MPI type (float32 and the integer dtypes "
                    "have; libpto adds float16 and bfloat16 itself)");
    }
    return PTO_OK;
}

static pto_status s_signal(void *context, int32_t rank, uint64_t offset, int32_t value, int add) {
    if (!s_aligned(context, rank, offset, 4))
        return t_signal(context, rank, offset, value, add);
    int32_t *signal = (int32_t *)(void *)s_at(context, rank, offset);
    if (add)
        __atomic_fetch_add(signal, value, __ATOMIC_SEQ_CST);
    else
        __atomic_store_n(signal, value, __ATOMIC_SEQ_CST);
    return PTO_OK;
}

static pto_status s_read_signal(void *context, int32_t rank, uint64_t offset, int32_t *value) {
    const int failed = pto_mpi_failed_peer_(context);
    if (failed >= 0)
        return stopped_by(context, failed);
    if (!s_aligned(context, rank, offset, 4))
        return t_read_signal(context, rank, offset, value);
    *value = __atomic_load_n((int32_t *)(void *)s_at(context, rank, offset), __ATOMIC_SEQ_CST);
    return PTO_OK;
}

static pto_status s_compare_swap(void *context, int32_t rank, uint64_t offset, uint32_t expected,
                                 uint32_t desired, uint32_t *old) {
    if (!s_aligned(context, rank, offset, 4))
        return t_compare_swap(context, rank, offset, expected, desired, old);
    uint32_t *word = (uint32_t *)(void *)s_at(context, rank, offset);
    __atomic_compare_exchange_n(word, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    *old = expected;
    return PTO_OK;
}

/* Copies and adds are complete on return; the fence orders them before
 * what the thread does next. */
static pto_status s_flush(void *context, int32_t rank) {
    (void)context;
    (void)rank;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return PTO_OK;
}

pto_comm_transport pto_mpi_transport_(pto_mpi *m) {
    const pto_comm_transport rma = {PTO_COMM_TRANSPORT_VERSION, m, m->rank, m->ranks, t_locate,
                                    t_put, t_get, t_add, t_signal, t_read_signal, t_compare_swap,
                                    t_flush, t_error};
    const pto_comm_transport shm = {PTO_COMM_TRANSPORT_VERSION, m, m->rank, m->ranks, t_locate,
                                    s_put, s_get, s_add, s_signal, s_read_signal, s_compare_swap,
                                    s_flush, t_error};
    return m->shared ? shm : rma;
}

/* ---- a rank's failure ----------------------------------------------------- */

/* The failure word: an int32 just past every rank's window. */
pto_status pto_mpi_tell_failure_(pto_mpi *m) {
    const int32_t value = m->rank + 1;
    pto_status s = PTO_OK;
    for (int r = 0; r < m->ranks; ++r) {
        if (r == m->rank)
            continue;
        if (m->shared) {
            __atomic_store_n((int32_t *)(void *)(m->bases[r] + m->size), value, __ATOMIC_SEQ_CST);
            continue;
        }
        pto_mpi_lock_();
        pto_status t = pto_mpi_check_(MPI_Accumulate(&value, 1, MPI_INT32_T, r, (MPI_Aint)m->size, 1,
                                                     MPI_INT32_T, MPI_REPLACE, m->win),
                                      "MPI_Accumulate");
        if (t == PTO_OK)
            t = pto_mpi_check_(MPI_Win_flush(r, m->win), "MPI_Win_flush");
        pto_mpi_unlock_();
        if (s == PTO_OK)
            s = t;
    }
    return s;
}

int pto_mpi_failed_peer_(pto_mpi *m) {
    int32_t word = 0;
    if (m->shared) {
        word = __atomic_load_n((int32_t *)(void *)(m->base + m->size), __ATOMIC_SEQ_CST);
    } else {
        pto_mpi_lock_();
        if (MPI_Fetch_and_op(NULL, &word, MPI_INT32_T, m->rank, (MPI_Aint)m->size, MPI_NO_OP, m->win) !=
                MPI_SUCCESS ||
            MPI_Win_flush(m->rank, m->win) != MPI_SUCCESS)
            word = 0;
        pto_mpi_unlock_();
    }
    return word > 0 && word <= m->ranks ? word - 1 : -1;
}
