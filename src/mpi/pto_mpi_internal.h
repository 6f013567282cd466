/* What libpto-mpi's files share (not installed): the window, the thread's
 * error sentence, MPI's lock below MPI_THREAD_MULTIPLE, and the two
 * transports of transport.c, as pto_comm_set_transport takes them. */
#ifndef PTO_MPI_INTERNAL_H_
#define PTO_MPI_INTERNAL_H_

#include <mpi.h>
#include <stddef.h>

#include "pto_comm.h"
#include "pto_mpi.h"

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

/* The thread's error sentence from a printf format; returns status. */
pto_status pto_mpi_fail_(pto_status status, const char *format, ...);
/* An MPI call's result: PTO_OK, or its error string as the sentence. */
pto_status pto_mpi_check_(int code, const char *call);
/* Held around every MPI call where MPI is below MPI_THREAD_MULTIPLE. */
void pto_mpi_lock_(void);
void pto_mpi_unlock_(void);

/* m's transport: MPI RMA on its window, or (m->shared) copies and atomic
 * operations on one node's shared memory. */
pto_comm_transport pto_mpi_transport_(pto_mpi *m);

#endif  /* PTO_MPI_INTERNAL_H_ */
