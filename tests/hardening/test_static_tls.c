/* libpto leaves the static TLS surplus to the libraries loaded after it:
 * Python loads libpto with dlopen, and glibc then puts the whole of libpto's
 * thread-local block in the surplus (its current_profile is initial-exec), a
 * space of about 1.6 KiB that every later library with initial-exec data needs
 * too. With 1.2 KiB of libpto's own there, `import pto` before `import torch`
 * failed ("libgomp.so.1: cannot allocate memory in static TLS block"). Here:
 * libpto dlopen'ed, then a library with 1 KiB of initial-exec data
 * (ie_tls_probe.c); both must load, and the thread's error sentence works.
 *
 * Usage: test_static_tls LIBPTO_SO PROBE_SO */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "pto_c.h"

typedef const char *(*last_error_fn)(void);
typedef pto_status (*tile_create_fn)(pto_dtype, uint32_t, uint32_t, pto_tile **);

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s LIBPTO_SO PROBE_SO\n", argv[0]);
        return 2;
    }
    void *pto = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (pto == NULL) {
        fprintf(stderr, "dlopen(%s): %s\n", argv[1], dlerror());
        return 1;
    }
    void *probe = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (probe == NULL) {
        fprintf(stderr, "a library with 1 KiB of initial-exec TLS cannot be loaded after libpto: %s\n", dlerror());
        return 1;
    }
    /* The sentence lives on the heap now: a failing call still records it. */
    last_error_fn last_error = (last_error_fn)dlsym(pto, "pto_last_error");
    tile_create_fn tile_create = (tile_create_fn)dlsym(pto, "pto_tile_create");
    if (last_error == NULL || tile_create == NULL) {
        fprintf(stderr, "libpto lacks pto_last_error or pto_tile_create: %s\n", dlerror());
        return 1;
    }
    if (strcmp(last_error(), "") != 0) {
        fprintf(stderr, "a new thread's pto_last_error() is \"%s\", not empty\n", last_error());
        return 1;
    }
    if (tile_create(PTO_FLOAT32, 0, 1, NULL) == PTO_OK || strstr(last_error(), "pto_tile_create") == NULL) {
        fprintf(stderr, "a refused pto_tile_create left \"%s\" as the last error\n", last_error());
        return 1;
    }
    printf("libpto and a library with 1 KiB of initial-exec TLS loaded one after the other; last error: %s\n",
           last_error());
    dlclose(probe);
    dlclose(pto);
    return 0;
}
