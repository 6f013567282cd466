/* The Python wheel's libpto.so on glibc 2.28 (manylinux_2_28, see
 * docs/install.md): built with -Dstatic_cxx_runtime=true only (src/meson.build
 * links it in then, with --wrap for each symbol below).
 *
 * Debian 12 (glibc 2.36) binds a few references to versions newer than
 * 2.28: pow to GLIBC_2.29 (the kernels' scalar fallback), pthread_create and
 * pthread_join to GLIBC_2.34 (std::thread in the static libstdc++), and
 * libstdc++'s atomicity checks read __libc_single_threaded (GLIBC_2.32).
 * Each reference goes to a __wrap_ function here that calls the symbol's
 * first version, which every glibc since the architecture's first one still
 * exports (for pthread_*, libpthread.so.0 before 2.34, libc.so.6 since):
 * pow@GLIBC_2.2.5 returns the same values as pow@GLIBC_2.29 (it also sets
 * errno, which libpto never reads). __libc_single_threaded is replaced by a
 * constant 0 ("threads may exist"): libstdc++ then always takes the atomic
 * path, which is what it does anyway once a thread has started. */
#include <pthread.h>

#if defined(__x86_64__)
#define PTO_GLIBC_FIRST "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define PTO_GLIBC_FIRST "GLIBC_2.17"
#else
#error "static_cxx_runtime: the first glibc symbol version of this architecture is not known"
#endif

#define PTO_WRAPPER __attribute__((visibility("hidden")))

double pto_glibc_pow(double x, double y);
__asm__(".symver pto_glibc_pow, pow@" PTO_GLIBC_FIRST);
PTO_WRAPPER double __wrap_pow(double x, double y);
double __wrap_pow(double x, double y) { return pto_glibc_pow(x, y); }

int pto_glibc_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*start)(void *), void *arg);
__asm__(".symver pto_glibc_pthread_create, pthread_create@" PTO_GLIBC_FIRST);
PTO_WRAPPER int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                      void *(*start)(void *), void *arg);
int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                          void *(*start)(void *), void *arg) {
  return pto_glibc_pthread_create(thread, attr, start, arg);
}

int pto_glibc_pthread_join(pthread_t thread, void **result);
__asm__(".symver pto_glibc_pthread_join, pthread_join@" PTO_GLIBC_FIRST);
PTO_WRAPPER int __wrap_pthread_join(pthread_t thread, void **result);
int __wrap_pthread_join(pthread_t thread, void **result) {
  return pto_glibc_pthread_join(thread, result);
}

PTO_WRAPPER extern char __wrap___libc_single_threaded;
char __wrap___libc_single_threaded = 0;
