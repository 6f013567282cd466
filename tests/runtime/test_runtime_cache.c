/* libpto-runtime's orchestration cache: a compiled orchestration is reused
 * only while everything that made it is unchanged, the files it includes
 * from its own directory among them. A scratch work directory holds an
 * orchestration that includes "count.h" (how many axpy tasks it submits)
 * and links to the suite's kernels; the same cache directory serves every
 * run. After count.h changes, the next session must run the new count, and
 * a run with it unchanged must reuse the library (the same file, not one
 * compiled again and renamed into place). */
#define _DEFAULT_SOURCE /* mkdtemp, symlink, ino_t under -std=c11 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pto_runtime.h"

#define N 256 /* a 16 x 16 float32 matrix */

static int failures;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "FAIL: %s (%s)\n", what, pto_runtime_last_error());
        failures++;
    }
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* Libraries (orch-*.so) in the cache directory; the last one's inode in
 * *inode. */
static int libraries(const char *cache, ino_t *inode) {
    int n = 0;
    DIR *d = opendir(cache);
    if (d == NULL) return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "orch-", 5) == 0 && len > 3 && strcmp(e->d_name + len - 3, ".so") == 0) {
            char path[4096];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", cache, e->d_name);
            if (stat(path, &st) == 0) *inode = st.st_ino;
            n++;
        }
    }
    closedir(d);
    return n;
}

/* Runs the scratch orchestration once; out = 2^count out + (2^count - 1) y
 * is checked for the count expected. */
static void run(const char *work, const char *cache, int count) {
    float y[N], out[N], start[N];
    for (int i = 0; i < N; i++) {
        y[i] = (float)(i % 5 - 2);
        out[i] = start[i] = (float)(i % 3 - 1);
    }
    pto_runtime *rt = NULL;
    pto_runtime_args *a = NULL;
    const uint64_t shape[2] = {16, 16};
    check(pto_runtime_open(work, &rt) == PTO_OK, "open");
    if (rt == NULL) exit(1);
    check(pto_runtime_set_cache_dir(rt, cache) == PTO_OK, "set_cache_dir");
    check(pto_runtime_set_orchestration(rt, "orchestration/counted.cpp") == PTO_OK, "set_orchestration");
    check(pto_runtime_args_create(&a) == PTO_OK, "args_create");
    check(pto_runtime_args_add_tensor(a, y, sizeof y, "float32", shape, 2) == PTO_OK, "add y");
    check(pto_runtime_args_add_tensor(a, out, sizeof out, "float32", shape, 2) == PTO_OK, "add out");
    check(pto_runtime_run(rt, a) == PTO_OK, "run");
    uint64_t tasks = 0;
    check(pto_runtime_last_run_stats(rt, &tasks, NULL) == PTO_OK, "stats");
    if (tasks != (uint64_t)count) {
        fprintf(stderr, "FAIL: %llu tasks ran, count.h says %d\n", (unsigned long long)tasks, count);
        failures++;
    }
    const float scale = (float)(1 << count);
    for (int i = 0; i < N; i++)
        if (out[i] != scale * start[i] + (scale - 1) * y[i]) {
            fprintf(stderr, "FAIL: count %d: out[%d] = %g, expected %g\n", count, i, (double)out[i],
                    (double)(scale * start[i] + (scale - 1) * y[i]));
            failures++;
            break;
        }
    pto_runtime_args_destroy(a);
    pto_runtime_close(rt);
}

static void write_count(const char *work, int count) {
    char path[4096], text[64];
    snprintf(path, sizeof path, "%s/orchestration/count.h", work);
    snprintf(text, sizeof text, "#define COUNT %d\n", count);
    write_text(path, text);
}

int main(void) {
    const char *suite = getenv("PTO_RUNTIME_WORK");
    if (suite == NULL) {
        fprintf(stderr, "PTO_RUNTIME_WORK is not set\n");
        return 1;
    }
    char work[] = "/tmp/pto-runtime-cache-XXXXXX";
    if (mkdtemp(work) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    char path[4096], cache[4096], kernels[4096];
    snprintf(cache, sizeof cache, "%s/cache", work);
    snprintf(kernels, sizeof kernels, "%s/kernels", suite);
    snprintf(path, sizeof path, "%s/kernels", work);
    if (symlink(kernels, path) != 0) {
        perror("symlink");
        return 1;
    }
    snprintf(path, sizeof path, "%s/kernel_table.txt", work);
    write_text(path, "kernel 0 aiv kernels/axpy.pto\ndims 0 shape(0,0)\n");
    snprintf(path, sizeof path, "%s/orchestration", work);
    if (mkdir(path, 0700) != 0) {
        perror(path);
        return 1;
    }
    snprintf(path, sizeof path, "%s/orchestration/counted.cpp", work);
    write_text(path,
               "// axpy COUNT times in order (count.h): out = 2^COUNT out + (2^COUNT - 1) y.\n"
               "#include <stdint.h>\n"
               "#include \"pto_orchestration_api.h\"\n"
               "#include \"count.h\"\n"
               "extern \"C\" {\n"
               "__attribute__((visibility(\"default\")))\n"
               "void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {\n"
               "    const ChipTensor& y = orch_args.tensor(0).ref();\n"
               "    const ChipTensor& out = orch_args.tensor(1).ref();\n"
               "    for (int64_t i = 0; i < COUNT; i += 1) {\n"
               "        CoreTaskArgs p;\n"
               "        p.add_input(out);\n"
               "        p.add_input(y);\n"
               "        p.add_output(out);\n"
               "        p.add_scalar(to_u64(2.0f));\n"
               "        p.add_scalar((uint64_t)16);\n"
               "        rt_submit_aiv_task(0, p);\n"
               "    }\n"
               "}\n"
               "}\n");

    write_count(work, 1);
    run(work, cache, 1);
    ino_t before = 0, after = 0;
    const int first = libraries(cache, &before);
    run(work, cache, 1); /* unchanged: the same library */
    const int second = libraries(cache, &after);
    if (first != 1 || second != 1 || before != after) {
        fprintf(stderr, "FAIL: two runs of one unchanged orchestration: %d then %d libraries, %s file\n", first,
                second, before == after ? "the same" : "another");
        failures++;
    }
    write_count(work, 3); /* an included file changes: compiled again */
    run(work, cache, 3);
    write_count(work, 2);
    run(work, cache, 2);
    printf("runtime-cache: an unchanged orchestration reused its library; after its included count.h "
           "changed (1, 3, 2) each run submitted the new count: %s\n", failures == 0 ? "ok" : "FAILED");
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", work);
    return failures == 0 ? 0 : 1;
}
