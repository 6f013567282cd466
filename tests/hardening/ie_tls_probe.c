/* A library with 1 KiB of initial-exec thread-local data, as libraries that
 * Python loads after libpto have (torch's libgomp: 120 bytes): glibc places
 * such data in the static TLS surplus left when it is dlopen'ed, and refuses
 * the library where that surplus is used up (test_static_tls.c). */
__thread char probe_block[1024] __attribute__((tls_model("initial-exec")));

char *probe_block_of(void);
char *probe_block_of(void) { return probe_block; }
