/* libpto-mpi (include/pto_mpi.h): pto_comm.h's transport on MPI-3
 * passive-target one-sided windows, or, where every rank of the window
 * shares one node, on an MPI shared-memory window reached by plain copies
 * and atomic operations. */
#define _GNU_SOURCE
#include "pto_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pto_comm.h"

struct pto_mpi {
    MPI_Comm comm;  /* a duplicate of the window's communicator */
    int rank, ranks; /* in comm */
    MPI_Win win;
    char *base;     /* this rank's window */
    size_t size;    /* every rank's window size */
    char *reserved; /* ranks x size bytes standing for the peers' windows */
    size_t reserved_bytes;
    int shared;     /* the window is MPI_Win_allocate_shared's, all on one node */
    char **bases;   /* shared: every rank's window as this process maps it */
};

static int g_initialised_here = 0;
static int g_rank = -1, g_size = -1;
static int g_multiple = 0;
static pto_mpi *g_open = NULL;
/* Held around every MPI call where MPI is below MPI_THREAD_MULTIPLE. */
static pthread_mutex_t g_mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local char g_error[512];

static pto_status fail(pto_status status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(g_error, sizeof(g_error), format, args);
    va_end(args);
    return status;
}

/* An MPI call's result: PTO_OK, or its error string as the sentence. */
static pto_status mpi_check(int code, const char *call) {
    if (code == MPI_SUCCESS)
        return PTO_OK;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    return fail(PTO_ERR_INVALID_ARGUMENT, "%s failed on rank %d: %.*s", call, g_rank, len, text);
}

static void lock(void) {
    if (!g_multiple)
        pthread_mutex_lock(&g_mpi_lock);
}
static void unlock(void) {
    if (!g_multiple)
        pthread_mutex_unlock(&g_mpi_lock);
}

const char *pto_mpi_last_error(void) { return g_error; }

pto_status pto_mpi_init(int *argc, char ***argv) {
    int initialised = 0, provided = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
        if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
            return fail(PTO_ERR_INVALID_ARGUMENT, "MPI_Init_thread failed");
        g_initialised_here = 1;
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_SERIALIZED)
        return fail(PTO_ERR_INVALID_ARGUMENT,
                    "MPI provides thread level %d, below MPI_THREAD_SERIALIZED: a launch's "
                    "blocks call MPI from several threads (one at a time)",
                    provided);
    /* PTO_MPI_SERIALIZE=1: one MPI call at a time even where MPI allows more
     * (the path of an MPI without MPI_THREAD_MULTIPLE, for its tests). */
    const char *serialize = getenv("PTO_MPI_SERIALIZE");
    g_multiple = provided >= MPI_THREAD_MULTIPLE && !(serialize != NULL && strcmp(serialize, "1") == 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    return PTO_OK;
}

int pto_mpi_rank(void) { return g_rank; }
int pto_mpi_size(void) { return g_size; }
int pto_mpi_thread_multiple(void) { return g_multiple; }

/* ---- the transport ------------------------------------------------------ */

static int32_t t_locate(void *context, const void *address, size_t bytes, uint64_t *offset) {
    const pto_mpi *m = context;
    const char *a = address;
    if (a >= m->base && (size_t)(a - m->base) <= m->size && bytes <= m->size - (size_t)(a - m->base)) {
        *offset = (uint64_t)(a - m->base);
        return m->rank;
    }
    if (a >= m->reserved && (size_t)(a - m->reserved) < m->reserved_bytes) {
        const size_t at = (size_t)(a - m->reserved);
        const size_t rank = at / m->size, in = at % m->size;
        if (bytes > m->size - in)
            return -1;
        *offset = in;
        return (int32_t)rank;
    }
    return -1;
}

/* MPI counts are ints: transfers in pieces of at most 1 GiB. */
#define PIECE ((size_t)1 << 30)

static pto_status t_put(void *context, int32_t rank, uint64_t offset, const void *src, size_t bytes) {
    pto_mpi *m = context;
    pto_status s = PTO_OK;
    lock();
    for (size_t done = 0; done < bytes && s == PTO_OK; done += PIECE) {
        const int n = (int)(bytes - done < PIECE ? bytes - done : PIECE);
        s = mpi_check(MPI_Put((const char *)src + done, n, MPI_BYTE, rank, (MPI_Aint)(offset + done), n,
                              MPI_BYTE, m->win),
                      "MPI_Put");
    }
    unlock();
    return s;
}

static pto_status t_get(void *context, int32_t rank, uint64_t offset, void *dst, size_t bytes) {
    pto_mpi *m = context;
    pto_status s = PTO_OK;
    lock();
    for (size_t done = 0; done < bytes && s == PTO_OK; done += PIECE) {
        const int n = (int)(bytes - done < PIECE ? bytes - done : PIECE);
        s = mpi_check(MPI_Get((char *)dst + done, n, MPI_BYTE, rank, (MPI_Aint)(offset + done), n,
                              MPI_BYTE, m->win),
                      "MPI_Get");
    }
    if (s == PTO_OK)
        s = mpi_check(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    unlock();
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
        return fail(PTO_ERR_UNSUPPORTED_DTYPE,
                    "an atomic add of this dtype has no MPI type (float32 and the integer dtypes "
                    "have; libpto adds float16 and bfloat16 itself)");
    const size_t size = pto_dtype_size(dtype), piece = PIECE / size;
    pto_status s = PTO_OK;
    lock();
    for (size_t done = 0; done < count && s == PTO_OK; done += piece) {
        const int n = (int)(count - done < piece ? count - done : piece);
        s = mpi_check(MPI_Accumulate((const char *)src + done * size, n, type, rank,
                                     (MPI_Aint)(offset + done * size), n, type, MPI_SUM, m->win),
                      "MPI_Accumulate");
    }
    unlock();
    return s;
}

static pto_status t_signal(void *context, int32_t rank, uint64_t offset, int32_t value, int add) {
    pto_mpi *m = context;
    lock();
    /* What this rank stored into its window before the signal is visible to
     * the peer that sees the signal (the NPU's barrier before a notify). */
    pto_status s = mpi_check(MPI_Win_sync(m->win), "MPI_Win_sync");
    if (s == PTO_OK)
        s = mpi_check(MPI_Accumulate(&value, 1, MPI_INT32_T, rank, (MPI_Aint)offset, 1, MPI_INT32_T,
                                     add ? MPI_SUM : MPI_REPLACE, m->win),
                      "MPI_Accumulate");
    if (s == PTO_OK)
        s = mpi_check(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    unlock();
    return s;
}

static pto_status t_read_signal(void *context, int32_t rank, uint64_t offset, int32_t *value) {
    pto_mpi *m = context;
    lock();
    pto_status s = mpi_check(MPI_Fetch_and_op(NULL, value, MPI_INT32_T, rank, (MPI_Aint)offset,
                                              MPI_NO_OP, m->win),
                             "MPI_Fetch_and_op");
    if (s == PTO_OK)
        s = mpi_check(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    /* What a peer put before its notify is visible to this rank's loads. */
    if (s == PTO_OK)
        s = mpi_check(MPI_Win_sync(m->win), "MPI_Win_sync");
    unlock();
    return s;
}

static pto_status t_compare_swap(void *context, int32_t rank, uint64_t offset, uint32_t expected,
                                 uint32_t desired, uint32_t *old) {
    pto_mpi *m = context;
    lock();
    pto_status s = mpi_check(MPI_Compare_and_swap(&desired, &expected, old, MPI_UINT32_T, rank,
                                                  (MPI_Aint)offset, m->win),
                             "MPI_Compare_and_swap");
    if (s == PTO_OK)
        s = mpi_check(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    unlock();
    return s;
}

static pto_status t_flush(void *context, int32_t rank) {
    pto_mpi *m = context;
    lock();
    const pto_status s = mpi_check(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    unlock();
    return s;
}

static const char *t_error(void *context) {
    (void)context;
    return g_error;
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
 * operations need; elements that are not go through MPI's atomic operations
 * on the same window (every access to them alike). */
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
        return fail(PTO_ERR_UNSUPPORTED_DTYPE,
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

/* ---- windows ------------------------------------------------------------ */

/* The window's communicator: a duplicate of `comm` (an intracommunicator),
 * with its rank and size; *dup stays MPI_COMM_NULL on failure. */
static pto_status duplicate(MPI_Comm comm, MPI_Comm *dup, int *rank, int *size) {
    *dup = MPI_COMM_NULL;
    if (comm == MPI_COMM_NULL)
        return fail(PTO_ERR_INVALID_ARGUMENT,
                    "pto_mpi_window_create_on: the communicator is MPI_COMM_NULL");
    int inter = 0;
    lock();
    pto_status s = mpi_check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
    if (s == PTO_OK && inter)
        s = fail(PTO_ERR_INVALID_ARGUMENT,
                 "pto_mpi_window_create_on: an intercommunicator has no window of its own "
                 "(give an intracommunicator, e.g. from MPI_Comm_split)");
    if (s == PTO_OK)
        s = mpi_check(MPI_Comm_dup(comm, dup), "MPI_Comm_dup");
    if (s == PTO_OK) {
        MPI_Comm_rank(*dup, rank);
        MPI_Comm_size(*dup, size);
    }
    unlock();
    return s;
}

/* Whether the window goes on shared memory: every rank of comm on one node
 * (MPI_COMM_TYPE_SHARED splits off the whole communicator), m->bases
 * allocated, and the environment variable PTO_MPI_SHARED not 0 on any rank
 * (PTO_MPI_SHARED=0 keeps MPI RMA, the path of windows spanning nodes).
 * Collective; called with the MPI lock held. */
static int one_node(pto_mpi *m) {
    const char *env = getenv("PTO_MPI_SHARED");
    int mine = !(env != NULL && strcmp(env, "0") == 0) && m->bases != NULL, all = 0, node_ranks = 0;
    MPI_Comm node = MPI_COMM_NULL;
    if (MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        mine = 0;
    if (node != MPI_COMM_NULL) {
        MPI_Comm_size(node, &node_ranks);
        MPI_Comm_free(&node);
    }
    if (node_ranks != m->ranks)
        mine = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, m->comm) != MPI_SUCCESS)
        return 0;
    return all;
}

/* The window of `size` bytes on every rank: MPI_Win_allocate_shared with
 * every rank's part page-aligned (alloc_shared_noncontig) and the peers'
 * parts found by MPI_Win_shared_query where m->shared, else
 * MPI_Win_allocate. Collective; called with the MPI lock held. */
static pto_status allocate(pto_mpi *m, size_t size) {
    if (!m->shared)
        return mpi_check(MPI_Win_allocate((MPI_Aint)size, 1, MPI_INFO_NULL, m->comm, &m->base, &m->win),
                         "MPI_Win_allocate");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    pto_status s = mpi_check(
        MPI_Win_allocate_shared((MPI_Aint)size, 1, info, m->comm, &m->base, &m->win),
        "MPI_Win_allocate_shared");
    MPI_Info_free(&info);
    for (int r = 0; r < m->ranks && s == PTO_OK; ++r) {
        MPI_Aint bytes = 0;
        int unit = 0;
        s = mpi_check(MPI_Win_shared_query(m->win, r, &bytes, &unit, &m->bases[r]),
                      "MPI_Win_shared_query");
        if (s == PTO_OK && (size_t)bytes < size)
            s = fail(PTO_ERR_INVALID_ARGUMENT,
                     "MPI_Win_shared_query: rank %d's part of the shared window is %zu bytes, not %zu",
                     r, (size_t)bytes, size);
    }
    if (s != PTO_OK && m->win != MPI_WIN_NULL)
        MPI_Win_free(&m->win);
    return s;
}

static pto_status window_create(MPI_Comm comm, size_t bytes, pto_mpi **out) {
    if (out == NULL)
        return fail(PTO_ERR_NULL_ARGUMENT, "pto_mpi_window_create: out is NULL");
    *out = NULL;
    if (g_rank < 0)
        return fail(PTO_ERR_INVALID_ARGUMENT, "pto_mpi_window_create: call pto_mpi_init first");
    if (g_open != NULL)
        return fail(PTO_ERR_INVALID_ARGUMENT, "pto_mpi_window_create: a window is open already");
    pto_mpi *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return fail(PTO_ERR_OUT_OF_MEMORY, "pto_mpi_window_create: no memory");
    pto_status s = duplicate(comm, &m->comm, &m->rank, &m->ranks);
    if (s != PTO_OK) {
        free(m);
        return s;
    }
    /* Every rank's window alike: the largest asked for, rounded to pages. */
    unsigned long long mine = bytes == 0 ? 1 : bytes, most = 0;
    lock();
    MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, m->comm);
    unlock();
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t size = ((size_t)most + page - 1) / page * page;
    m->size = size;
    m->reserved_bytes = size * (size_t)m->ranks;
    m->reserved = mmap(NULL, m->reserved_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    if (m->reserved == MAP_FAILED) {
        s = fail(PTO_ERR_OUT_OF_MEMORY,
                 "pto_mpi_window_create: cannot reserve %zu bytes of addresses for the peers",
                 m->reserved_bytes);
        lock();
        MPI_Comm_free(&m->comm);
        unlock();
        free(m);
        return s;
    }
    m->bases = calloc((size_t)m->ranks, sizeof(*m->bases));
    m->win = MPI_WIN_NULL;
    lock();
    m->shared = one_node(m);
    s = allocate(m, size);
    const int allocated = s == PTO_OK;
    int *model = NULL, flag = 0;
    if (s == PTO_OK) {
        MPI_Win_get_attr(m->win, MPI_WIN_MODEL, &model, &flag);
        if (!flag || *model != MPI_WIN_UNIFIED)
            s = fail(PTO_ERR_INVALID_ARGUMENT,
                     "pto_mpi_window_create: MPI's window model is not MPI_WIN_UNIFIED (the "
                     "window's memory and its public copy would differ)");
    }
    if (s == PTO_OK) {
        memset(m->base, 0, size);
        s = mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, m->win), "MPI_Win_lock_all");
    }
    if (s == PTO_OK)
        s = mpi_check(MPI_Barrier(m->comm), "MPI_Barrier");
    if (s != PTO_OK && allocated)
        MPI_Win_free(&m->win);
    unlock();
    if (s == PTO_OK) {
        const pto_comm_transport rma = {PTO_COMM_TRANSPORT_VERSION, m, m->rank, m->ranks, t_locate,
                                        t_put, t_get, t_add, t_signal, t_read_signal, t_compare_swap,
                                        t_flush, t_error};
        const pto_comm_transport shm = {PTO_COMM_TRANSPORT_VERSION, m, m->rank, m->ranks, t_locate,
                                        s_put, s_get, s_add, s_signal, s_read_signal, s_compare_swap,
                                        s_flush, t_error};
        const pto_comm_transport t = m->shared ? shm : rma;
        if (pto_comm_set_transport(&t) != PTO_OK) {
            s = fail(PTO_ERR_INVALID_ARGUMENT, "pto_comm_set_transport: %s", pto_last_error());
            lock();
            MPI_Win_unlock_all(m->win);
            MPI_Win_free(&m->win);
            unlock();
        }
    }
    if (s != PTO_OK) {
        munmap(m->reserved, m->reserved_bytes);
        MPI_Comm_free(&m->comm);
        free(m->bases);
        free(m);
        return s;
    }
    g_open = m;
    *out = m;
    return PTO_OK;
}

pto_status pto_mpi_window_create(size_t bytes, pto_mpi **out) {
    return window_create(MPI_COMM_WORLD, bytes, out);
}

pto_status pto_mpi_window_create_on(int comm, size_t bytes, pto_mpi **out) {
    if (out != NULL)
        *out = NULL;
    if (g_rank < 0)
        return fail(PTO_ERR_INVALID_ARGUMENT, "pto_mpi_window_create_on: call pto_mpi_init first");
    return window_create(MPI_Comm_f2c((MPI_Fint)comm), bytes, out);
}

int pto_mpi_window_rank(const pto_mpi *m) { return m != NULL ? m->rank : -1; }
int pto_mpi_window_ranks(const pto_mpi *m) { return m != NULL ? m->ranks : -1; }

void *pto_mpi_window_base(const pto_mpi *m) { return m != NULL ? m->base : NULL; }
size_t pto_mpi_window_size(const pto_mpi *m) { return m != NULL ? m->size : 0; }

void *pto_mpi_peer_address(const pto_mpi *m, int rank, const void *local) {
    if (m == NULL || rank < 0 || rank >= m->ranks)
        return NULL;
    const char *a = local;
    if (a < m->base || (size_t)(a - m->base) >= m->size)
        return NULL;
    if (rank == m->rank)
        return (void *)a;
    return m->reserved + (size_t)rank * m->size + (size_t)(a - m->base);
}

pto_status pto_mpi_context(const pto_mpi *m, void *out) {
    if (m == NULL || out == NULL)
        return fail(PTO_ERR_NULL_ARGUMENT, "pto_mpi_context: m or out is NULL");
    if (m->ranks > 64)
        return fail(PTO_ERR_INVALID_ARGUMENT,
                    "pto_mpi_context: %d ranks, more than the context's 64", m->ranks);
    unsigned char *c = out;
    memset(c, 0, PTO_MPI_CONTEXT_BYTES);
    const uint32_t rank = (uint32_t)m->rank, ranks = (uint32_t)m->ranks;
    const uint64_t win = m->size;
    memcpy(c + 16, &rank, 4);
    memcpy(c + 20, &ranks, 4);
    memcpy(c + 24, &win, 8);
    for (int r = 0; r < m->ranks; ++r) {
        const uint64_t base = (uint64_t)(uintptr_t)pto_mpi_peer_address(m, r, m->base);
        memcpy(c + 32 + 8 * r, &base, 8);
        memcpy(c + 544 + 8 * r, &base, 8);
    }
    return PTO_OK;
}

pto_status pto_mpi_barrier(pto_mpi *m) {
    if (m == NULL)
        return fail(PTO_ERR_NULL_ARGUMENT, "pto_mpi_barrier: m is NULL");
    lock();
    pto_status s = mpi_check(MPI_Win_flush_all(m->win), "MPI_Win_flush_all");
    if (s == PTO_OK)
        s = mpi_check(MPI_Win_sync(m->win), "MPI_Win_sync");
    if (s == PTO_OK)
        s = mpi_check(MPI_Barrier(m->comm), "MPI_Barrier");
    if (s == PTO_OK)
        s = mpi_check(MPI_Win_sync(m->win), "MPI_Win_sync");
    unlock();
    return s;
}

void pto_mpi_window_destroy(pto_mpi *m) {
    if (m == NULL)
        return;
    pto_comm_set_transport(NULL);
    lock();
    MPI_Win_unlock_all(m->win);
    MPI_Win_free(&m->win);
    MPI_Comm_free(&m->comm);
    unlock();
    munmap(m->reserved, m->reserved_bytes);
    free(m->bases);
    if (g_open == m)
        g_open = NULL;
    free(m);
}

pto_status pto_mpi_finalize(void) {
    if (!g_initialised_here)
        return PTO_OK;
    g_initialised_here = 0;
    return mpi_check(MPI_Finalize(), "MPI_Finalize");
}

void pto_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
