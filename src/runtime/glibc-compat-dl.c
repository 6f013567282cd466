/* libpto-runtime in the Python wheel (-Dstatic_cxx_runtime=true), on glibc
 * 2.28 as libpto itself (bindings/python/glibc-compat.c, which it links too):
 * Debian 12 binds dlopen, dlsym, dlclose and dlerror to GLIBC_2.34 (when
 * libdl moved into libc); each reference goes to a __wrap_ function here
 * that calls the symbol's first version, which libdl.so.2 exports on every
 * glibc (and libc.so.6 too since 2.34). */
#include <dlfcn.h>

#if defined(__x86_64__)
#define PTO_GLIBC_FIRST "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define PTO_GLIBC_FIRST "GLIBC_2.17"
#else
#error "static_cxx_runtime: the first glibc symbol version of this architecture is not known"
#endif

#define PTO_WRAPPER __attribute__((visibility("hidden")))

void *pto_glibc_dlopen(const char *file, int mode);
__asm__(".symver pto_glibc_dlopen, dlopen@" PTO_GLIBC_FIRST);
PTO_WRAPPER void *__wrap_dlopen(const char *file, int mode);
void *__wrap_dlopen(const char *file, int mode) { return pto_glibc_dlopen(file, mode); }

void *pto_glibc_dlsym(void *handle, const char *name);
__asm__(".symver pto_glibc_dlsym, dlsym@" PTO_GLIBC_FIRST);
PTO_WRAPPER void *__wrap_dlsym(void *handle, const char *name);
void *__wrap_dlsym(void *handle, const char *name) { return pto_glibc_dlsym(handle, name); }

int pto_glibc_dlclose(void *handle);
__asm__(".symver pto_glibc_dlclose, dlclose@" PTO_GLIBC_FIRST);
PTO_WRAPPER int __wrap_dlclose(void *handle);
int __wrap_dlclose(void *handle) { return pto_glibc_dlclose(handle); }

char *pto_glibc_dlerror(void);
__asm__(".symver pto_glibc_dlerror, dlerror@" PTO_GLIBC_FIRST);
PTO_WRAPPER char *__wrap_dlerror(void);
char *__wrap_dlerror(void) { return pto_glibc_dlerror(); }
