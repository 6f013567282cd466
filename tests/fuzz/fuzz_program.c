/*
 * Fuzz harness of the PTO assembly front end: any bytes as program text, under
 * the profile the first byte picks. A text is either refused — with a status
 * and a "NAME:LINE:COL: error: " diagnostic, nothing created — or verified;
 * a verified program then runs once (a snippet on zero tiles, a kernel on
 * zero arrays; loops limited to 16 turns, PTO_LOOP_LIMIT), which must
 * succeed or fail with a located diagnostic. Crashes, leaks,
 * hangs and sanitizer reports are the findings.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_c.h"

static void require(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "fuzz_program: %s\n", what);
        abort();
    }
}

static int located(const char *diagnostic) {
    unsigned line = 0, col = 0;
    return strncmp(diagnostic, "f.pto:", 6) == 0 && sscanf(diagnostic + 6, "%u:%u: error: ", &line, &col) == 2 &&
           line >= 1 && col >= 1;
}

/* The arrays a kernel's pointers are bound to. */
static _Alignas(64) unsigned char kernel_memory[65536];

/* Runs a verified program once: a snippet with zero tiles in and its results
 * bound, a kernel with its pointers on 64 KiB of zeros (shared), its
 * integers 16 (an i1 1) and its floats 1.0. */
static void run_snippet(const pto_program *p) {
    memset(kernel_memory, 0, sizeof kernel_memory);
    const size_t n = pto_program_param_count(p);
    pto_args *args = NULL;
    require(pto_args_create(p, &args) == PTO_OK, "pto_args_create failed");
    pto_tile **tiles = calloc(n ? n : 1, sizeof *tiles);
    require(tiles != NULL, "out of memory");
    int runnable = 1;
    for (size_t i = 0; i < n; ++i) {
        const pto_param_kind kind = pto_program_param_kind(p, i);
        if (kind == PTO_PARAM_POINTER) {
            /* A kernel's array: 64 KiB of zeros, shared by its pointers. */
            require(pto_args_set_pointer(args, i, kernel_memory, sizeof kernel_memory) == PTO_OK,
                    "binding an array failed");
            continue;
        }
        if (kind == PTO_PARAM_INT) {
            /* 16, or 1 for an i1, which takes 0 or 1 only. */
            const pto_status status = pto_args_set_int(args, i, 16);
            require(status == PTO_OK ||
                        (status == PTO_ERR_OUT_OF_RANGE && pto_args_set_int(args, i, 1) == PTO_OK),
                    "binding an integer failed");
            continue;
        }
        if (kind == PTO_PARAM_FLOAT) {
            require(pto_args_set_float(args, i, 1.0) == PTO_OK, "binding a float failed");
            continue;
        }
        const uint32_t rows = pto_program_param_rows(p, i), cols = pto_program_param_cols(p, i);
        if ((uint64_t)rows * cols > 65536) {
            runnable = 0;
            break;
        }
        if (pto_tile_create(pto_program_param_dtype(p, i), rows, cols, &tiles[i]) != PTO_OK) {
            runnable = 0;
            break;
        }
        /* The declared region where the type gives it; a `?` dimension keeps
         * the tile's whole extent (rows or cols), which any run accepts. */
        const int64_t vr = pto_program_param_valid_rows(p, i), vc = pto_program_param_valid_cols(p, i);
        require(pto_tile_set_valid(tiles[i], vr >= 0 ? (uint32_t)vr : rows, vc >= 0 ? (uint32_t)vc : cols) == PTO_OK,
                "declared region");
        require(pto_args_set_tile(args, i, tiles[i]) == PTO_OK, "binding a tile of the declared type failed");
    }
    if (runnable) {
        const pto_status s = pto_program_run(p, args);
        require(s == PTO_OK || located(pto_last_error()), "a run-time error without a location");
    }
    for (size_t i = 0; i < n; ++i) pto_tile_destroy(tiles[i]);
    free(tiles);
    pto_args_destroy(args);
}

/* Loops may turn as often as their constants say, or forever (scf.while):
 * each block stops with a located error after 16 turns (16 turns of
 * instructions on tiles of up to 65536 elements stay well inside a run's
 * 30 s under the sanitizers). */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    setenv("PTO_LOOP_LIMIT", "16", 1);
    /* A pto.comm.twait on zeros that is never satisfied ends at once. */
    setenv("PTO_COMM_TIMEOUT", "0.001", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const pto_profile profile = (pto_profile)(data[0] % 3);
    const char *text = (const char *)data + 1;
    const size_t length = size - 1;
    require(pto_set_profile(profile) == PTO_OK, "pto_set_profile");
    pto_program *p = (pto_program *)&size; /* must stay as it is on failure */
    const pto_status s = pto_program_create(text, length, "f.pto", &p);
    require(pto_set_profile(PTO_PROFILE_HOST) == PTO_OK, "pto_set_profile");
    if (s != PTO_OK) {
        require(p == (pto_program *)&size, "a refused text wrote *out");
        require(located(pto_last_error()), "a refusal without a located diagnostic");
        return 0;
    }
    require(pto_program_param_count(p) <= length, "more parameters than bytes");
    for (size_t i = 0; i < pto_program_param_count(p); ++i)
        require(pto_program_param_name(p, i) != NULL && pto_program_param_name(p, i)[0] != '\0', "parameter name");
    run_snippet(p);
    pto_program_destroy(p);
    return 0;
}
