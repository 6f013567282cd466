/* libpto-mpi's bottom layer: the thread's error sentence, MPI's error
 * strings and the lock that serialises MPI calls below
 * MPI_THREAD_MULTIPLE. transport.c and pto_mpi.c build on it; it calls
 * neither. */
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "pto_mpi_internal.h"

static int g_rank = -1;
static int g_multiple = 0;
/* Held around every MPI call where MPI is below MPI_THREAD_MULTIPLE. */
static pthread_mutex_t g_mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local char g_error[512];

void pto_mpi_base_set_(int world_rank, int multiple) {
    g_rank = world_rank;
    g_multiple = multiple;
}

int pto_mpi_base_rank_(void) { return g_rank; }
int pto_mpi_base_multiple_(void) { return g_multiple; }

pto_status pto_mpi_fail_(pto_status status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(g_error, sizeof(g_error), format, args);
    va_end(args);
    return status;
}

pto_status pto_mpi_check_(int code, const char *call) {
    if (code == MPI_SUCCESS)
        return PTO_OK;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    return pto_mpi_fail_(PTO_ERR_INVALID_ARGUMENT, "%s failed on rank %d: %.*s", call, g_rank, len, text);
}

void pto_mpi_lock_(void) {
    if (!g_multiple)
        pthread_mutex_lock(&g_mpi_lock);
}
void pto_mpi_unlock_(void) {
    if (!g_multiple)
        pthread_mutex_unlock(&g_mpi_lock);
}

const char *pto_mpi_last_error(void) { return g_error; }
