/* libpto-mpi (include/pto_mpi.h): pto_comm.h's transport on MPI-3
 * passive-target one-sided windows, or, where every rank of the window
 * shares one node, on an MPI shared-memory window reached by plain copies
 * and atomic operations. The top layer (pto_mpi_internal.h): MPI's start,
 * the windows and the ranks' agreement, over transport.c and base.c. */
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
#include <time.h>
#include <unistd.h>

#include "pto_mpi_internal.h"

static int g_initialised_here = 0;
static int g_rank = -1, g_size = -1;
static pto_mpi *g_open = NULL;

pto_status pto_mpi_init(int *argc, char ***argv) {
    int initialised = 0, provided = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
        if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
            return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT, "MPI_Init_thread failed");
        g_initialised_here = 1;
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_SERIALIZED)
        return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT,
                    "MPI provides thread level %d, below MPI_THREAD_SERIALIZED: a launch's "
                    "blocks call MPI from several threads (one at a time)",
                    provided);
    /* PTO_MPI_SERIALIZE=1: one MPI call at a time even where MPI allows more
     * (the path of an MPI without MPI_THREAD_MULTIPLE, for its tests). */
    const char *serialize = getenv("PTO_MPI_SERIALIZE");
    const int multiple =
        provided >= MPI_THREAD_MULTIPLE && !(serialize != NULL && strcmp(serialize, "1") == 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    pto_mpi_base_set_(g_rank, multiple);
    return PTO_OK;
}

int pto_mpi_rank(void) { return g_rank; }
int pto_mpi_size(void) { return g_size; }
int pto_mpi_thread_multiple(void) { return pto_mpi_base_multiple_(); }

/* ---- windows ------------------------------------------------------------ */

/* The window's communicator: a duplicate of `comm` (an intracommunicator),
 * with its rank and size; *dup stays MPI_COMM_NULL on failure. */
static pto_status duplicate(MPI_Comm comm, MPI_Comm *dup, int *rank, int *size) {
    *dup = MPI_COMM_NULL;
    if (comm == MPI_COMM_NULL)
        return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT,
                    "pto_mpi_window_create_on: the communicator is MPI_COMM_NULL");
    int inter = 0;
    pto_mpi_lock_();
    pto_status s = pto_mpi_check_(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
    if (s == PTO_OK && inter)
        s = pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT,
                 "pto_mpi_window_create_on: an intercommunicator has no window of its own "
                 "(give an intracommunicator, e.g. from MPI_Comm_split)");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Comm_dup(comm, dup), "MPI_Comm_dup");
    if (s == PTO_OK) {
        MPI_Comm_rank(*dup, rank);
        MPI_Comm_size(*dup, size);
    }
    pto_mpi_unlock_();
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
 * MPI_Win_allocate; PTO_MPI_CONTROL_BYTES more than size on every rank.
 * Collective; called with the MPI lock held. */
static pto_status allocate(pto_mpi *m, size_t size) {
    size += PTO_MPI_CONTROL_BYTES; /* the failure word past the window */
    if (!m->shared)
        return pto_mpi_check_(MPI_Win_allocate((MPI_Aint)size, 1, MPI_INFO_NULL, m->comm, &m->base, &m->win),
                         "MPI_Win_allocate");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    pto_status s = pto_mpi_check_(
        MPI_Win_allocate_shared((MPI_Aint)size, 1, info, m->comm, &m->base, &m->win),
        "MPI_Win_allocate_shared");
    MPI_Info_free(&info);
    for (int r = 0; r < m->ranks && s == PTO_OK; ++r) {
        MPI_Aint bytes = 0;
        int unit = 0;
        s = pto_mpi_check_(MPI_Win_shared_query(m->win, r, &bytes, &unit, &m->bases[r]),
                      "MPI_Win_shared_query");
        if (s == PTO_OK && (size_t)bytes < size)
            s = pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT,
                     "MPI_Win_shared_query: rank %d's part of the shared window is %zu bytes, not %zu",
                     r, (size_t)bytes, size);
    }
    if (s != PTO_OK && m->win != MPI_WIN_NULL)
        MPI_Win_free(&m->win);
    return s;
}

/* The window in the reserved addresses: allocated (shared memory on one
 * node), its model checked, zeroed, locked for every rank's access, every
 * rank past it; freed again after an error. */
static pto_status open_window(pto_mpi *m, size_t size) {
    m->bases = calloc((size_t)m->ranks, sizeof(*m->bases));
    m->win = MPI_WIN_NULL;
    pto_mpi_lock_();
    m->shared = one_node(m);
    pto_status s = allocate(m, size);
    const int allocated = s == PTO_OK;
    int *model = NULL, flag = 0;
    if (s == PTO_OK) {
        MPI_Win_get_attr(m->win, MPI_WIN_MODEL, &model, &flag);
        if (!flag || *model != MPI_WIN_UNIFIED)
            s = pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT,
                     "pto_mpi_window_create: MPI's window model is not MPI_WIN_UNIFIED (the "
                     "window's memory and its public copy would differ)");
    }
    if (s == PTO_OK) {
        memset(m->base, 0, size + PTO_MPI_CONTROL_BYTES);
        s = pto_mpi_check_(MPI_Win_lock_all(MPI_MODE_NOCHECK, m->win), "MPI_Win_lock_all");
    }
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Barrier(m->comm), "MPI_Barrier");
    if (s != PTO_OK && allocated)
        MPI_Win_free(&m->win);
    pto_mpi_unlock_();
    return s;
}

static pto_status window_create(MPI_Comm comm, size_t bytes, pto_mpi **out) {
    if (out == NULL)
        return pto_mpi_fail_(PTO_ERR_NULL_ARGUMENT, "pto_mpi_window_create: out is NULL");
    *out = NULL;
    if (g_rank < 0)
        return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT, "pto_mpi_window_create: call pto_mpi_init first");
    if (g_open != NULL)
        return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT, "pto_mpi_window_create: a window is open already");
    pto_mpi *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return pto_mpi_fail_(PTO_ERR_OUT_OF_MEMORY, "pto_mpi_window_create: no memory");
    pto_status s = duplicate(comm, &m->comm, &m->rank, &m->ranks);
    if (s != PTO_OK) {
        free(m);
        return s;
    }
    /* Every rank's window alike: the largest asked for, rounded to pages;
     * the peers' addresses reserved for at least PTO_MPI_RESERVED_RANKS
     * ranks. Each size checked before it is computed (a sum or product that
     * would wrap is refused on every rank alike, as every rank sees the
     * same largest size). */
    unsigned long long mine = bytes == 0 ? 1 : bytes, most = 0;
    pto_mpi_lock_();
    MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, m->comm);
    pto_mpi_unlock_();
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    m->slices = m->ranks > PTO_MPI_RESERVED_RANKS ? (size_t)m->ranks : PTO_MPI_RESERVED_RANKS;
    const size_t limit = (SIZE_MAX - page - PTO_MPI_CONTROL_BYTES) / m->slices / page * page;
    if (most > limit || most > (unsigned long long)PTRDIFF_MAX / 2) {
        s = pto_mpi_fail_(PTO_ERR_OUT_OF_RANGE,
                          "pto_mpi_window_create: a window of %llu bytes is more than this "
                          "machine's addresses can reserve for %zu ranks (at most %zu bytes)",
                          most, m->slices, limit);
        pto_mpi_lock_();
        MPI_Comm_free(&m->comm);
        pto_mpi_unlock_();
        free(m);
        return s;
    }
    const size_t size = ((size_t)most + page - 1) / page * page;
    m->size = size;
    m->reserved_bytes = size * m->slices;
    m->reserved = mmap(NULL, m->reserved_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    /* Collective: every rank goes on only where every rank reserved. */
    int reserved = m->reserved != MAP_FAILED, all_reserved = 0;
    pto_mpi_lock_();
    MPI_Allreduce(&reserved, &all_reserved, 1, MPI_INT, MPI_MIN, m->comm);
    pto_mpi_unlock_();
    if (!all_reserved) {
        s = reserved ? pto_mpi_fail_(PTO_ERR_OUT_OF_MEMORY,
                                     "pto_mpi_window_create: another rank cannot reserve the "
                                     "addresses for its peers")
                     : pto_mpi_fail_(PTO_ERR_OUT_OF_MEMORY,
                                     "pto_mpi_window_create: cannot reserve %zu bytes of addresses "
                                     "for the peers",
                                     m->reserved_bytes);
        if (reserved)
            munmap(m->reserved, m->reserved_bytes);
        pto_mpi_lock_();
        MPI_Comm_free(&m->comm);
        pto_mpi_unlock_();
        free(m);
        return s;
    }
    s = open_window(m, size);
    if (s == PTO_OK) {
        const pto_comm_transport t = pto_mpi_transport_(m);
        if (pto_comm_set_transport(&t) != PTO_OK) {
            s = pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT, "pto_comm_set_transport: %s", pto_last_error());
            pto_mpi_lock_();
            MPI_Win_unlock_all(m->win);
            MPI_Win_free(&m->win);
            pto_mpi_unlock_();
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
        return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT, "pto_mpi_window_create_on: call pto_mpi_init first");
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
        return pto_mpi_fail_(PTO_ERR_NULL_ARGUMENT, "pto_mpi_context: m or out is NULL");
    if (m->ranks > 64)
        return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT,
                    "pto_mpi_context: %d ranks, more than the context's 64", m->ranks);
    unsigned char *c = out;
    memset(c, 0, PTO_MPI_CONTEXT_BYTES);
    const uint32_t rank = (uint32_t)m->rank, ranks = (uint32_t)m->ranks;
    const uint64_t win = m->size;
    memcpy(c + 16, &rank, 4);
    memcpy(c + 20, &ranks, 4);
    memcpy(c + 24, &win, 8);
    /* Entries past the last rank: the addresses reserved for those ranks,
     * which the transport refuses naming the rank and the number of ranks
     * (a kernel's put to a rank the job does not have). */
    for (int r = 0; r < 64; ++r) {
        const uint64_t base =
            r < m->ranks ? (uint64_t)(uintptr_t)pto_mpi_peer_address(m, r, m->base)
                         : (uint64_t)(uintptr_t)(m->reserved + (size_t)r * m->size);
        memcpy(c + 32 + 8 * r, &base, 8);
        memcpy(c + 544 + 8 * r, &base, 8);
    }
    return PTO_OK;
}

pto_status pto_mpi_barrier(pto_mpi *m) {
    if (m == NULL)
        return pto_mpi_fail_(PTO_ERR_NULL_ARGUMENT, "pto_mpi_barrier: m is NULL");
    pto_mpi_lock_();
    pto_status s = pto_mpi_check_(MPI_Win_flush_all(m->win), "MPI_Win_flush_all");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Win_sync(m->win), "MPI_Win_sync");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Barrier(m->comm), "MPI_Barrier");
    if (s == PTO_OK)
        s = pto_mpi_check_(MPI_Win_sync(m->win), "MPI_Win_sync");
    pto_mpi_unlock_();
    return s;
}

void pto_mpi_window_destroy(pto_mpi *m) {
    if (m == NULL)
        return;
    pto_comm_set_transport(NULL);
    pto_mpi_lock_();
    MPI_Win_unlock_all(m->win);
    MPI_Win_free(&m->win);
    MPI_Comm_free(&m->comm);
    pto_mpi_unlock_();
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
    return pto_mpi_check_(MPI_Finalize(), "MPI_Finalize");
}

/* What this process printed reaches its launcher before the job ends. */
void pto_mpi_abort(int code) {
    fflush(NULL);
    fsync(STDOUT_FILENO);
    fsync(STDERR_FILENO);
    MPI_Abort(MPI_COMM_WORLD, code);
}

/* ---- failures ----------------------------------------------------------- */

/* PTO_MPI_FAIL_WAIT: how long a failed rank waits for the others to agree
 * (seconds, default 5, at most 3600). */
static double fail_wait_seconds(void) {
    const char *env = getenv("PTO_MPI_FAIL_WAIT");
    if (env == NULL || *env == '\0')
        return 5.0;
    char *end = NULL;
    const double v = strtod(env, &end);
    return end != env && *end == '\0' && v > 0 && v <= 3600 ? v : 5.0;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int pto_mpi_agree(pto_mpi *m, int failed) {
    if (g_rank < 0)
        return -1;
    MPI_Comm comm = m != NULL ? m->comm : MPI_COMM_WORLD;
    int rank = g_rank;
    if (m != NULL) {
        rank = m->rank;
        /* Every transfer complete, as pto_mpi_barrier's. */
        pto_mpi_lock_();
        MPI_Win_flush_all(m->win);
        MPI_Win_sync(m->win);
        pto_mpi_unlock_();
        if (failed)
            pto_mpi_tell_failure_(m);
    }
    int mine = failed ? rank : INT_MAX, first = INT_MAX, done = 0;
    MPI_Request request = MPI_REQUEST_NULL;
    pto_mpi_lock_();
    const int started = MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm, &request);
    pto_mpi_unlock_();
    if (started != MPI_SUCCESS)
        pto_mpi_abort(1);
    const double deadline = now_seconds() + fail_wait_seconds();
    for (unsigned polls = 0;; ++polls) {
        pto_mpi_lock_();
        const int tested = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        pto_mpi_unlock_();
        if (tested != MPI_SUCCESS)
            pto_mpi_abort(1);
        if (done)
            break;
        /* A failed rank does not wait for ever for one that may never come. */
        if (failed && now_seconds() > deadline)
            pto_mpi_abort(1);
        if (polls >= 64) {
            const struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
    }
    if (m != NULL) {
        pto_mpi_lock_();
        MPI_Win_sync(m->win);
        pto_mpi_unlock_();
    }
    return first == INT_MAX ? -1 : first;
}

int pto_mpi_window_stopped_by(pto_mpi *m) {
    if (m == NULL || !__atomic_load_n(&m->stopped, __ATOMIC_SEQ_CST))
        return -1;
    return pto_mpi_failed_peer_(m);
}
