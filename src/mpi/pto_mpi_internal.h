/* What libpto-mpi's files share (not installed). Three layers, each calling
 * only the ones below it:
 *   base.c       the thread's error sentence and MPI's lock below
 *                MPI_THREAD_MULTIPLE;
 *   transport.c  the window's two transports (pto_comm.h) and the word
 *                through which a rank tells the others it failed;
 *   pto_mpi.c    pto_mpi.h's functions: MPI's start, the windows, the
 *                agreement between ranks. */
#ifndef PTO_MPI_INTERNAL_H_
#define PTO_MPI_INTERNAL_H_

#include <mpi.h>
#include <stddef.h>

#include "pto_comm.h"
#include "pto_mpi.h"

/* Bytes past every rank's window that libpto-mpi keeps for itself: the
 * failure word (an int32 at offset size: 0, or the failed rank + 1). */
#define PTO_MPI_CONTROL_BYTES 64

/* Peer addresses reserved for at least this many ranks (the context's 64
 * windowsIn entries): an address standing for a rank the window does not
 * have is refused by name instead of being some other memory. */
#define PTO_MPI_RESERVED_RANKS 64

struct pto_mpi {
    MPI_Comm comm;  /* a duplicate of the window's communicator */
    int rank, ranks; /* in comm */
    MPI_Win win;
    char *base;     /* this rank's window (then its PTO_MPI_CONTROL_BYTES) */
    size_t size;    /* every rank's window size */
    char *reserved; /* slices x size bytes standing for the peers' windows */
    size_t reserved_bytes;
    size_t slices;  /* max(ranks, PTO_MPI_RESERVED_RANKS) */
    int shared;     /* the window is MPI_Win_allocate_shared's, all on one node */
    char **bases;   /* shared: every rank's window as this process maps it */
    int stopped;    /* a signal read was refused because a peer failed (atomic) */
};

/* ---- base.c --------------------------------------------------------------- */

/* pto_mpi_init's findings: the rank in MPI_COMM_WORLD (for messages) and
 * whether MPI calls may come from several threads at once. */
void pto_mpi_base_set_(int world_rank, int multiple);
int pto_mpi_base_rank_(void);
int pto_mpi_base_multiple_(void);
/* The thread's error sentence from a printf format; returns status. */
pto_status pto_mpi_fail_(pto_status status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* An MPI call's result: PTO_OK, or its error string as the sentence. */
pto_status pto_mpi_check_(int code, const char *call);
/* Held around every MPI call where MPI is below MPI_THREAD_MULTIPLE. */
void pto_mpi_lock_(void);
void pto_mpi_unlock_(void);

/* ---- transport.c ---------------------------------------------------------- */

/* m's transport: MPI RMA on its window, or (m->shared) copies and atomic
 * operations on one node's shared memory. */
pto_comm_transport pto_mpi_transport_(pto_mpi *m);
/* Writes this rank's failure word (rank + 1) into every peer's window. */
pto_status pto_mpi_tell_failure_(pto_mpi *m);
/* The rank whose failure reached this rank's failure word, or -1. */
int pto_mpi_failed_peer_(pto_mpi *m);

#endif  /* PTO_MPI_INTERNAL_H_ */
