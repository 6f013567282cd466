/* libpto's multi-card boundary: the transport through which a program's
 * pto.comm.* operations (tput, tget, tnotify, twait, ttest, tbroadcast,
 * tscatter, tgather, treduce) reach other ranks.
 *
 * One process is one card (a rank); a launch's blocks are its cores. Every
 * rank holds a window: memory laid out alike on every rank (the same buffers
 * at the same offsets), which the other ranks read and write. libpto itself
 * has no network code and no MPI dependency: a transport library
 * (libpto-mpi, pto_mpi.h, on MPI-3 one-sided windows) fills a
 * pto_comm_transport and registers it here. Without one, a process is rank 0
 * of 1 and every address is its own memory: the comm operations run within
 * the process (their signals through atomic operations), which is how a
 * single-card program that synchronises its blocks through signals runs.
 *
 * Addresses. A program's pointers are plain addresses. The transport says
 * which addresses belong to which rank's window (locate): its own window's
 * memory, or addresses it reserved to stand for a peer's window (pto_mpi.h's
 * pto_mpi_peer_address), which no instruction may read or write directly. A
 * comm operation on an address that no window touches works on the
 * process's own memory; a range that touches a window without lying inside
 * it is refused, never taken for the process's own memory (locate's -2, or,
 * from a transport that answers -1 for it, found by its first and last
 * bytes). Plain pto.tload /
 * pto.tstore / pto.load_scalar / pto.store_scalar on a peer's address are
 * refused (PTO_ERR_INVALID_ARGUMENT). With a transport registered,
 * pto_program_launch refuses a pointer binding that touches a window
 * without lying inside one for its whole byte length
 * (PTO_ERR_OUT_OF_RANGE, naming the parameter).
 *
 * Waits. pto.comm.twait polls its signal until every element satisfies the
 * comparison; after PTO_COMM_TIMEOUT seconds (the environment variable, read
 * at each launch: a positive number of seconds, default 60; decimals allowed)
 * it fails with PTO_ERR_INVALID_ARGUMENT and the sentence
 * "FILE:LINE:COL: error: pto.comm.twait: no notify after S s on rank R, block
 * B: signal element E is V, waiting for V CMP X". Another block's failure stops a
 * waiting block at its next poll.
 *
 * Launches. A launch whose program has a comm operation runs every block at
 * once, each on a thread of its own (blocks synchronise through signals:
 * an earlier block may wait for a later one), however many CPUs there are.
 *
 * Threads. The transport's functions are called from the blocks' threads,
 * several at once; a transport whose engine allows one thread at a time
 * serialises them itself. */
#ifndef PTO_COMM_H_
#define PTO_COMM_H_

#include <stddef.h>
#include <stdint.h>

#include "pto_c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of pto_comm_transport this header describes (its `version`). */
#define PTO_COMM_TRANSPORT_VERSION 1

/* A transport: a context and its functions. Each function returns PTO_OK,
 * or an error status with its sentence in `error`'s result. Offsets count
 * bytes from the start of the target rank's window; rank is in 0..ranks-1
 * (the caller's own rank included: its window is reached through the
 * transport as well, so that every access to a signal is one of the
 * transport's atomic operations). */
typedef struct pto_comm_transport {
    uint32_t version; /* PTO_COMM_TRANSPORT_VERSION */
    void *context;
    int32_t rank;  /* this process's rank */
    int32_t ranks; /* the number of ranks, at least 1 */
    /* The rank whose window holds [address, address + bytes), and the
     * offset of address in it; -1 if no window holds the whole range; -2
     * (or any value below -1) if the range is refused: it touches a
     * window, or addresses the transport keeps for windows, without lying
     * inside one, or its end wraps around; the reason is then error()'s
     * sentence. A transport that never returns -2 is checked by the first
     * and last bytes of the range instead. */
    int32_t (*locate)(void *context, const void *address, size_t bytes, uint64_t *offset);
    /* Writes bytes from src at (rank, offset); complete at the target after
     * flush(rank). */
    pto_status (*put)(void *context, int32_t rank, uint64_t offset, const void *src,
                      size_t bytes);
    /* Reads bytes at (rank, offset) into dst; complete on return. */
    pto_status (*get)(void *context, int32_t rank, uint64_t offset, void *dst, size_t bytes);
    /* Adds count elements of dtype from src to those at (rank, offset), each
     * element atomically; complete at the target after flush(rank). Called
     * for float32 and the integer dtypes (libpto adds float16 and bfloat16
     * itself with compare_swap). */
    pto_status (*add)(void *context, int32_t rank, uint64_t offset, const void *src,
                      size_t count, pto_dtype dtype);
    /* The 32-bit signal at (rank, offset) set to value (add 0) or added
     * value to (add 1), atomically; complete at the target on return. */
    pto_status (*signal)(void *context, int32_t rank, uint64_t offset, int32_t value, int add);
    /* The 32-bit signal at (rank, offset), read atomically. Also keeps the
     * engine progressing for a rank that waits. */
    pto_status (*read_signal)(void *context, int32_t rank, uint64_t offset, int32_t *value);
    /* The 32-bit word at (rank, offset), offset a multiple of 4, replaced by
     * desired if it equals expected, atomically; *old its value before.
     * Complete at the target on return. (libpto's adds of float16 and
     * bfloat16 elements, which no engine adds: a read and this, until no
     * other add came between.) */
    pto_status (*compare_swap)(void *context, int32_t rank, uint64_t offset, uint32_t expected,
                               uint32_t desired, uint32_t *old);
    /* Completes at rank every put and add the calling thread issued there. */
    pto_status (*flush)(void *context, int32_t rank);
    /* The sentence of the calling thread's last error. */
    const char *(*error)(void *context);
} pto_comm_transport;

/* Registers the transport the comm operations of every later launch use
 * (the structure is copied; its context must live until it is replaced);
 * NULL returns to the built-in one (rank 0 of 1). Not to be called while a
 * launch runs.
 * Errors: PTO_ERR_INVALID_ARGUMENT if version is not
 * PTO_COMM_TRANSPORT_VERSION, ranks < 1, rank outside 0..ranks-1 or a
 * function is NULL (the previous transport stays). */
PTO_API pto_status pto_comm_set_transport(const pto_comm_transport *transport);

#ifdef __cplusplus
}
#endif

#endif /* PTO_COMM_H_ */
