/* libpto-mpi: the multi-card transport of pto_comm.h on MPI-3 one-sided
 * windows (pkg-config module pto-mpi; built where MPI is found, MPICH or
 * Open MPI). One MPI process is one card (rank of MPI_COMM_WORLD).
 *
 * Use: pto_mpi_init (or MPI initialised by the caller, e.g. mpi4py), then
 * pto_mpi_window_create on every rank (collective), placing the buffers the
 * ranks share at the same offsets of their windows (pto_mpi_window_base);
 * pto_mpi_peer_address gives the address that stands for a peer's copy of a
 * buffer, to bind to a program's pointer; pto_mpi_barrier around each
 * launch (it completes every transfer and lines up the ranks); then
 * pto_mpi_window_destroy and pto_mpi_finalize.
 *
 * Where every rank of the window's communicator shares one node
 * (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED gives the whole
 * communicator), the window is allocated with MPI_Win_allocate_shared and
 * every rank's part mapped through MPI_Win_shared_query: puts and gets are
 * memory copies, signals atomic stores and adds (release) and atomic loads
 * (acquire), adds of float32 compare-and-swap loops and of the integers
 * atomic adds, one element at a time (the bytes MPI_SUM gives; an element
 * not aligned to its size goes through MPI's atomic operations on the same
 * window instead), and no MPI call is made between barriers. The environment variable PTO_MPI_SHARED=0
 * on any rank keeps MPI RMA instead, the path of windows spanning nodes:
 * the window is allocated with MPI_Win_allocate and opened for passive-target
 * access (MPI_Win_lock_all) once; puts are MPI_Put, adds MPI_Accumulate
 * (MPI_SUM), signals MPI_Accumulate (MPI_REPLACE / MPI_SUM) on MPI_INT32_T
 * followed by MPI_Win_flush, reads of signals MPI_Fetch_and_op (MPI_NO_OP)
 * then MPI_Win_sync: a waiting rank keeps calling MPI, which drives the
 * progress of implementations whose one-sided operations need it. Where
 * MPI's thread level (`provided`) is below MPI_THREAD_MULTIPLE, or the
 * environment variable PTO_MPI_SERIALIZE is 1, one lock serialises every
 * MPI call of the process.
 *
 * Peer addresses are addresses this library reserved (never readable: a
 * PROT_NONE mapping of ranks x window size bytes; on either path); libpto's comm operations
 * turn them into (rank, offset), and plain loads and stores on them are
 * refused. The addresses of one peer's window stand for it only within
 * that window's bytes: a range running past a window, across two, or
 * standing for a rank the window does not have (the context's entries past
 * the last rank) is refused by name, with nothing written, and never taken
 * for the process's own memory; a pointer bound to a program lies inside
 * one window for its whole byte length (else pto_program_launch refuses
 * it, naming the parameter), or touches none.
 *
 * Failures: a rank that fails says so in pto_mpi_agree, which every rank
 * calls at the same points (pto-run-mpi: after reading and binding the
 * program, and after the launch); the failed rank's word in every peer's
 * window ends their pto.comm.twait and ttest at the next poll, and every
 * rank learns the lowest failed rank. See pto_mpi_agree for the time
 * limits.
 *
 * Errors: each function returns a pto_status, its sentence in
 * pto_mpi_last_error(). */
#ifndef PTO_MPI_H_
#define PTO_MPI_H_

#include <stddef.h>

#include "pto_c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pto_mpi pto_mpi;

/* Initialises MPI with MPI_THREAD_MULTIPLE asked (MPI_Init_thread) unless it
 * is initialised already; argc and argv may be NULL. Records the thread
 * level MPI provides. Errors: PTO_ERR_INVALID_ARGUMENT if MPI_Init_thread
 * fails or provides less than MPI_THREAD_SERIALIZED. */
PTO_API pto_status pto_mpi_init(int *argc, char ***argv);

/* This process's rank in MPI_COMM_WORLD and the number of ranks (-1 before
 * pto_mpi_init). */
PTO_API int pto_mpi_rank(void);
PTO_API int pto_mpi_size(void);

/* Whether MPI provides MPI_THREAD_MULTIPLE (else every MPI call of this
 * library is serialised by one lock). */
PTO_API int pto_mpi_thread_multiple(void);

/* Collective: creates every rank's window of the largest `bytes` any rank
 * asks for (at least 1, rounded up to pages), zero-filled, and registers the
 * transport with libpto (pto_comm_set_transport). One window at a time.
 * Peer addresses are reserved for max(ranks, 64) ranks (address space only,
 * never memory).
 * Errors: PTO_ERR_NULL_ARGUMENT for out; PTO_ERR_INVALID_ARGUMENT before
 * pto_mpi_init, with a window open already, or where MPI's window model is
 * not MPI_WIN_UNIFIED; PTO_ERR_OUT_OF_RANGE (on every rank) where the
 * largest size, rounded, times the reserved ranks does not fit the address
 * space; PTO_ERR_OUT_OF_MEMORY if MPI or the reservation of the peers'
 * addresses fails (on every rank). */
PTO_API pto_status pto_mpi_window_create(size_t bytes, pto_mpi **out);

/* pto_mpi_window_create over the ranks of one communicator instead of
 * MPI_COMM_WORLD, collective over them: `comm` is its Fortran handle
 * (MPI_Comm_c2f(comm) in C, comm.py2f() in mpi4py), so this header needs no
 * MPI header. The window keeps a duplicate of the communicator. Its ranks
 * are the communicator's: pto_mpi_peer_address, pto_mpi_context, the comm
 * operations' peers and pto_mpi_barrier number and reach them, and
 * pto_mpi_window_rank / pto_mpi_window_ranks give them. Errors as
 * pto_mpi_window_create's, and PTO_ERR_INVALID_ARGUMENT for MPI_COMM_NULL or
 * an intercommunicator. */
PTO_API pto_status pto_mpi_window_create_on(int comm, size_t bytes, pto_mpi **out);

/* The calling rank's rank among the window's ranks and their number (-1
 * for NULL). */
PTO_API int pto_mpi_window_rank(const pto_mpi *m);
PTO_API int pto_mpi_window_ranks(const pto_mpi *m);

/* The calling rank's window and its size in bytes. */
PTO_API void *pto_mpi_window_base(const pto_mpi *m);
PTO_API size_t pto_mpi_window_size(const pto_mpi *m);

/* The address standing for rank's copy of the window byte at `local` (an
 * address in the calling rank's window); local itself for the calling
 * rank; NULL if rank is not a rank or local is outside the window. */
PTO_API void *pto_mpi_peer_address(const pto_mpi *m, int rank, const void *local);

/* Bytes of PyPTO's CommDeviceContext (pto_mpi_context). */
#define PTO_MPI_CONTEXT_BYTES 1056

/* Writes the 1056-byte CommDeviceContext that PyPTO's kernels take (an
 * !pto.ptr<i64> argument they read with pto.load_scalar) into out:
 * workSpace and workSpaceSize 0 (bytes 0-15), rankId (u32 at 16), rankNum
 * (u32 at 20), winSize (u64 at 24), windowsIn[64] (u64 at 32) and
 * windowsOut[64] (u64 at 544) each rank's window base as this rank
 * addresses it (its own window, or pto_mpi_peer_address of it), so that a
 * kernel's `windowsIn[peer] - windowsIn[rankId]` moves a pointer from a
 * buffer of its window to the peer's copy (pto.addptr). Entries past the
 * last rank hold the reserved address of that rank number, which the comm
 * operations and pto.addptr refuse naming the rank and the number of
 * ranks.
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for more than 64
 * ranks. */
PTO_API pto_status pto_mpi_context(const pto_mpi *m, void *out);

/* Collective: completes every transfer this rank issued, then waits for
 * every rank (MPI_Barrier); afterwards each rank's window holds what every
 * rank wrote before its call. */
PTO_API pto_status pto_mpi_barrier(pto_mpi *m);

/* Collective: unregisters the transport and frees the window; NULL is a
 * no-op. */
PTO_API void pto_mpi_window_destroy(pto_mpi *m);

/* Finalises MPI if pto_mpi_init initialised it. */
PTO_API pto_status pto_mpi_finalize(void);

/* Ends every rank of the job (MPI_Abort) with the exit status code, after
 * flushing this process's stdio streams (what it printed reaches the
 * launcher first). */
PTO_API void pto_mpi_abort(int code);

/* Collective over the window's ranks (m NULL: MPI_COMM_WORLD's, for a
 * failure before any window exists): every rank says whether it failed
 * (failed non-zero); returns the lowest rank that did, or -1 if none did.
 * With a window it first completes every transfer this rank issued, as
 * pto_mpi_barrier does, so it can stand for the barrier after a launch.
 * A rank that failed first writes its failure word into every peer's
 * window: a peer's pto.comm.twait or ttest then fails at its next poll
 * ("rank R failed (its own message says why); rank P stops") instead of
 * waiting out PTO_COMM_TIMEOUT. It then waits for the others at most
 * PTO_MPI_FAIL_WAIT seconds (environment variable; default 5, at most
 * 3600) and otherwise ends the job (pto_mpi_abort(1)): so the job ends
 * within that time after a failure plus MPI_Abort's own (a second or two
 * here), 10 s by default. A rank that did not fail waits as long as the
 * others take (a slow rank is not a failed one). Before pto_mpi_init: -1.
 * An MPI error ends the job (pto_mpi_abort(1)). */
PTO_API int pto_mpi_agree(pto_mpi *m, int failed);

/* The rank whose failure (pto_mpi_agree) ended one of this rank's signal
 * reads through window m (a pto.comm.twait or ttest), or -1: a launch that
 * failed because of it failed because of that rank, not on its own. */
PTO_API int pto_mpi_window_stopped_by(pto_mpi *m);

/* The calling thread's last error sentence of this library ("" for none). */
PTO_API const char *pto_mpi_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* PTO_MPI_H_ */
