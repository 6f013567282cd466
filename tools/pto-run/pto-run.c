/* pto-run: verifies a PTO assembly file and runs it, with .npy files as its
 * global-memory arrays and tiles, literals as its scalars, and --out to save
 * arrays and tiles after the run.
 *
 * Exit status: 0 success; 1 the program did not verify or failed at run time
 * (pto_last_error() on stderr, "FILE:LINE:COL: error: ..."); 2 a usage error
 * (bad option or argument, unreadable file, bad value, unknown name, dtype or
 * shape mismatch). pto-run-mpi (-DPTO_RUN_MPI): the same on the rank that
 * failed, each message one whole write prefixed "rank R: "; 1 on every rank
 * stopped by another's failure, which prints "pto-run-mpi: rank R: stopped:
 * rank F failed" (pto_mpi_agree, docs/multi-card.md). */
#define _POSIX_C_SOURCE 200809L /* setenv, open_memstream */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "pto_c.h"
#ifdef PTO_RUN_MPI
#include <signal.h>

#include "pto_mpi.h"
#endif

#define EXIT_RUN_ERROR 1
#define EXIT_USAGE 2

#ifdef PTO_RUN_MPI
#define PTO_RUN_NAME "pto-run-mpi"
#else
#define PTO_RUN_NAME "pto-run"
#endif

static const char kUsage[] =
#ifdef PTO_RUN_MPI
    "Usage: mpiexec -n N pto-run-mpi FILE.pto [pto-run's options] [NAME=VALUE[@RANK]]...\n"
    "\n"
    "pto-run on every rank of an MPI job (docs/multi-card.md). Each array\n"
    "(NAME=FILE.npy or zeros:...) lies in the rank's window, at the same offset on\n"
    "every rank; NAME=VALUE@RANK binds NAME to rank RANK's copy of that array\n"
    "(every rank holds one), NAME=VALUE to its own; NAME=OTHER@RANK rank RANK's\n"
    "copy of pointer parameter OTHER's array; NAME=context PyPTO's 1056-byte\n"
    "CommDeviceContext (an i64 pointer). {rank} and {size} in any\n"
    "argument are this rank and the number of ranks (--out y=y{rank}.npy,\n"
    "r={rank}). --out writes this rank's copy. PTO_COMM_TIMEOUT (seconds,\n"
    "default 60) ends a pto.comm.twait that is never satisfied. A rank that\n"
    "fails prints its error and ends every rank (the others print one line\n"
    "naming it; within PTO_MPI_FAIL_WAIT seconds, default 5, plus MPI_Abort's\n"
    "time where a rank does not answer); every rank then exits non-zero.\n"
    "\n"
#endif
    "Usage: pto-run FILE.pto [--profile HOST|A2A3|A5] [--board] [--blocks N] [--check]\n"
    "               [--entry NAME] [--trace[=BLOCK]] [--out NAME=FILE.npy]... [NAME=VALUE]...\n"
    "\n"
    "Verifies the PTO assembly in FILE.pto and runs it.\n"
    "\n"
    "  NAME=VALUE          binds the entry parameter or snippet tile NAME (no '%'):\n"
    "                        FILE.npy            an array (pointer) or a tile's contents\n"
    "                                            (rows x cols, or rows*cols in 1-D)\n"
    "                        42, -7, 0x1f        an integer scalar\n"
    "                        1.5, -2e-3, inf, nan  a float scalar\n"
    "                        zeros:DTYPE:SHAPE   zeros, e.g. zeros:f32:1024x1024\n"
    "                      DTYPE: f32 f16 bf16 i8 i16 i32 ui8 ui16 ui32 (si8 si16 si32)\n"
    "  --out NAME=FILE.npy writes, after the run, a pointer's array (its shape as\n"
    "                      given) or a tile's valid region as FILE.npy\n"
    "  --profile P         the target profile to verify and run under (HOST, A2A3, A5)\n"
    "  --board             board mode (pto_set_board_mode): under A2A3 and A5 a rule\n"
    "                      the NPU implementation leaves unchecked in a release\n"
    "                      build runs as that implementation does, with a warning\n"
    "                      on stderr per occurrence, instead of an error\n"
    "  --blocks N          runs blocks 0..N-1 (default 1)\n"
    "  --entry NAME        the func.func to run (default: the one marked pto.entry,\n"
    "                      else the module's only public function)\n"
    "  --trace[=BLOCK]     prints to stderr, after each instruction that writes a tile\n"
    "                      (or stores one), its FILE:LINE:COL, name and tile and the\n"
    "                      first 4 rows x 8 columns of that tile's valid region, in\n"
    "                      tprint's format; every block, or block BLOCK only (the\n"
    "                      environment variable PTO_TRACE=all|BLOCK does the same for\n"
    "                      any program a process runs)\n"
    "  --check             parses and verifies only, every function of a module\n"
    "                      (no entry needed); lists the functions, the parameters\n"
    "                      and every tile's place in the unified buffer\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 success, 1 verifier or run-time error, 2 usage error.\n";

/* ---- messages ----------------------------------------------------------- */

/* text (len bytes) to stderr in as few write(2) calls as the pipe takes:
 * one for a message up to PIPE_BUF bytes, so that another process's
 * messages on the same stderr (an MPI job's other ranks) never land inside
 * it. */
static void write_whole(const char *text, size_t len) {
    fflush(stderr);
    while (len > 0) {
        const ssize_t n = write(STDERR_FILENO, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        text += n;
        len -= (size_t)n;
    }
}

/* One message, whole: the prefix (pto-run-mpi: "rank R: "), the text, a
 * newline, in one write. */
static void vsay(const char *prefix, const char *format, va_list args) {
    char line[4096];
    const size_t cap = sizeof(line) - 1; /* room for the newline */
#ifdef PTO_RUN_MPI
    int n = snprintf(line, cap, "%srank %d: ", prefix, pto_mpi_rank());
#else
    int n = snprintf(line, cap, "%s", prefix);
#endif
    if (n < 0 || (size_t)n >= cap)
        n = 0;
    const int m = vsnprintf(line + n, cap - (size_t)n, format, args);
    size_t len = (size_t)n;
    if (m > 0)
        len += (size_t)m < cap - (size_t)n ? (size_t)m : cap - (size_t)n - 1;
    line[len++] = '\n';
    write_whole(line, len);
}

static void say(const char *prefix, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void say(const char *prefix, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsay(prefix, format, args);
    va_end(args);
}

static int usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsay(PTO_RUN_NAME ": ", format, args);
    va_end(args);
    return EXIT_USAGE;
}

static int run_error(void) {
    say("", "%s", pto_last_error());
    return EXIT_RUN_ERROR;
}

/* ---- element types -------------------------------------------------------- */

/* PTOAS spellings, the front end's table; the first of each dtype is the one
 * printed. */
static const struct {
    const char *name;
    pto_dtype dtype;
} kDtypeNames[] = {
#define PTO_DTYPE_SPELLING(spelling, dtype) {spelling, dtype},
#include "../../src/program/ir/dtype_spellings.def"
#undef PTO_DTYPE_SPELLING
};
#define DTYPE_NAME_COUNT (sizeof(kDtypeNames) / sizeof(kDtypeNames[0]))

static const char *dtype_name(pto_dtype dtype) {
    for (size_t i = 0; i < DTYPE_NAME_COUNT; ++i)
        if (kDtypeNames[i].dtype == dtype)
            return kDtypeNames[i].name;
    return "?";
}

static int parse_dtype_name(const char *text, size_t len, pto_dtype *out) {
    for (size_t i = 0; i < DTYPE_NAME_COUNT; ++i) {
        if (strlen(kDtypeNames[i].name) == len && strncmp(kDtypeNames[i].name, text, len) == 0) {
            *out = kDtypeNames[i].dtype;
            return 0;
        }
    }
    return -1;
}

/* The .npy and libpto enums list the eighteen types in the same order
 * (NPY_BYTE, a file's unnamed 1-byte type, comes after them). */
_Static_assert((int)NPY_FLOAT32 == (int)PTO_FLOAT32 && (int)NPY_UINT64 == (int)PTO_UINT64 &&
                   (int)NPY_INT4X2 == (int)PTO_INT4X2,
               "npy_dtype follows pto_dtype");
static pto_dtype pto_dtype_of(npy_dtype dtype) { return (pto_dtype)dtype; }
static npy_dtype npy_dtype_of(pto_dtype dtype) { return (npy_dtype)dtype; }

/* Whether an array of dtype may be bound where want is declared; a file's
 * "<u2" may hold bfloat16 bits (how they are saved without ml_dtypes), its
 * "|u1" or unnamed 1-byte type a low-precision type's bytes. */
static int dtype_fits(npy_dtype have, pto_dtype want, int from_file) {
    const int low_precision = want >= PTO_FLOAT8_E4M3 && want <= PTO_INT4X2;
    return (have != NPY_BYTE && pto_dtype_of(have) == want) ||
           (from_file && have == NPY_UINT16 && want == PTO_BFLOAT16) ||
           (from_file && low_precision && (have == NPY_UINT8 || have == NPY_BYTE));
}

/* ---- the command line ----------------------------------------------------- */

typedef struct name_value {
    const char *name; /* up to '=' (not NUL-terminated there: see name_len) */
    size_t name_len;
    const char *value;
} name_value;

typedef struct options {
    const char *file;
    int has_profile;
    pto_profile profile;
    int board;
    uint32_t blocks;
    int check;
    const char *entry; /* --entry NAME, or NULL */
    name_value *outs;
    size_t out_count;
    name_value *values;
    size_t value_count;
} options;

enum { PARSE_OK = 0, PARSE_EXIT_OK = -1 };

static int split_name_value(const char *arg, name_value *out) {
    const char *eq = strchr(arg, '=');
    if (eq == NULL || eq == arg)
        return -1;
    out->name = arg[0] == '%' ? arg + 1 : arg;
    out->name_len = (size_t)(eq - out->name);
    out->value = eq + 1;
    return out->name_len == 0 ? -1 : 0;
}

static int parse_profile(const char *text, pto_profile *out) {
    static const struct {
        const char *name;
        pto_profile profile;
    } kProfiles[] = {{"HOST", PTO_PROFILE_HOST}, {"host", PTO_PROFILE_HOST},
                     {"A2A3", PTO_PROFILE_A2A3}, {"a2a3", PTO_PROFILE_A2A3},
                     {"A5", PTO_PROFILE_A5},     {"a5", PTO_PROFILE_A5}};
    for (size_t i = 0; i < sizeof(kProfiles) / sizeof(kProfiles[0]); ++i) {
        if (strcmp(text, kProfiles[i].name) == 0) {
            *out = kProfiles[i].profile;
            return 0;
        }
    }
    return -1;
}

static int parse_blocks(const char *text, uint32_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0 || v < 1 || v > 65536)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* The value of option `name` at argv[*i]: after '=' in the same argument, or
 * the next argument. NULL if there is none. */
static const char *option_value(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int is_option(const char *arg, const char *name) {
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static int parse_command_line(int argc, char **argv, options *o) {
    memset(o, 0, sizeof(*o));
    o->blocks = 1;
    o->outs = calloc((size_t)argc, sizeof(name_value));
    o->values = calloc((size_t)argc, sizeof(name_value));
    if (o->outs == NULL || o->values == NULL)
        return usage_error("out of memory");
    int options_done = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (!options_done && arg[0] == '-' && arg[1] == '-') {
            if (strcmp(arg, "--") == 0) {
                options_done = 1;
            } else if (strcmp(arg, "--help") == 0) {
                fputs(kUsage, stdout);
                return PARSE_EXIT_OK;
            } else if (strcmp(arg, "--version") == 0) {
                printf(PTO_RUN_NAME " (libpto) %s\n", pto_version_string());
                return PARSE_EXIT_OK;
            } else if (strcmp(arg, "--check") == 0) {
                o->check = 1;
            } else if (strcmp(arg, "--board") == 0) {
                o->board = 1;
            } else if (strcmp(arg, "--trace") == 0) {
                if (setenv("PTO_TRACE", "all", 1) != 0) return usage_error("out of memory");
            } else if (strncmp(arg, "--trace=", 8) == 0) {
                const char *v = arg + 8;
                char *end;
                errno = 0;
                const unsigned long block = strtoul(v, &end, 10);
                if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno != 0 || block > 65535)
                    return usage_error("--trace=%s: BLOCK is a block number, 0..65535", v);
                if (setenv("PTO_TRACE", arg + 8, 1) != 0) return usage_error("out of memory");
            } else if (is_option(arg, "--profile")) {
                const char *v = option_value(argc, argv, &i, "--profile");
                if (v == NULL)
                    return usage_error("--profile needs a value: HOST, A2A3 or A5");
                if (parse_profile(v, &o->profile) != 0)
                    return usage_error("unknown profile '%s' (HOST, A2A3 or A5)", v);
                o->has_profile = 1;
            } else if (is_option(arg, "--entry")) {
                o->entry = option_value(argc, argv, &i, "--entry");
                if (o->entry == NULL || o->entry[0] == '\0')
                    return usage_error("--entry needs a function name");
            } else if (is_option(arg, "--blocks")) {
                const char *v = option_value(argc, argv, &i, "--blocks");
                if (v == NULL)
                    return usage_error("--blocks needs a value");
                if (parse_blocks(v, &o->blocks) != 0)
                    return usage_error("--blocks '%s' is not an integer in 1..65536", v);
            } else if (is_option(arg, "--out")) {
                const char *v = option_value(argc, argv, &i, "--out");
                if (v == NULL)
                    return usage_error("--out needs NAME=FILE.npy");
                if (split_name_value(v, &o->outs[o->out_count]) != 0 ||
                    o->outs[o->out_count].value[0] == '\0')
                    return usage_error("--out '%s' is not NAME=FILE.npy", v);
                ++o->out_count;
            } else {
                return usage_error("unknown option '%s' (see " PTO_RUN_NAME " --help)", arg);
            }
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option '%s' (see " PTO_RUN_NAME " --help)", arg);
        } else if (o->file == NULL) {
            o->file = arg;
        } else if (split_name_value(arg, &o->values[o->value_count]) == 0) {
            ++o->value_count;
        } else {
            return usage_error("extra argument '%s' (arguments after FILE.pto are NAME=VALUE)",
                               arg);
        }
    }
    if (o->file == NULL)
        return usage_error("missing FILE.pto (see " PTO_RUN_NAME " --help)");
    return PARSE_OK;
}

/* ---- reading the program -------------------------------------------------- */

static char *read_text(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *text = malloc(cap);
    while (text != NULL) {
        n += fread(text + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *grown = realloc(text, cap * 2);
        if (grown == NULL) {
            free(text);
            text = NULL;
            errno = ENOMEM;
        }
        text = grown;
        cap *= 2;
    }
    if (text != NULL && ferror(f)) {
        free(text);
        text = NULL;
    }
    int saved = errno;
    fclose(f);
    errno = saved;
    *length = n;
    return text;
}

/* ---- parameters ----------------------------------------------------------- */

/* What the command line gave one parameter. */
typedef struct param_state {
    const char *value;    /* NAME=VALUE's VALUE, or NULL */
    const char *out_path; /* --out NAME=FILE, or NULL */
    npy_array array;      /* a pointer's memory or a tile's initial contents */
    pto_tile *tile;
#ifdef PTO_RUN_MPI
    int peer;             /* VALUE@RANK's rank, or -1 for the rank's own copy */
    size_t alias;         /* OTHER@RANK: OTHER's index + 1 (its array), else 0 */
    int context;          /* NAME=context: PyPTO's CommDeviceContext, outside the window */
    char *window_data;    /* the rank's own copy in its window */
#endif
} param_state;

typedef struct run {
    const pto_program *program;
    pto_args *args;
    param_state *params;
    size_t count;
} run;

/* "a tile 16x16xf32", "a pointer to f32", "an integer (i32)". */
static const char *describe(const pto_program *p, size_t i, char *buf, size_t cap) {
    pto_dtype dtype = pto_program_param_dtype(p, i);
    switch (pto_program_param_kind(p, i)) {
    case PTO_PARAM_POINTER:
        snprintf(buf, cap, "a pointer to %s", dtype_name(dtype));
        break;
    case PTO_PARAM_TILE:
        snprintf(buf, cap, "a tile %ux%ux%s", pto_program_param_rows(p, i),
                 pto_program_param_cols(p, i), dtype_name(dtype));
        break;
    case PTO_PARAM_INT:
        snprintf(buf, cap, "an integer scalar");
        break;
    case PTO_PARAM_FLOAT:
        snprintf(buf, cap, "a float scalar (%s)", dtype_name(dtype));
        break;
    }
    return buf;
}

static void list_parameters(const pto_program *p, FILE *out) {
    size_t count = pto_program_param_count(p);
    for (size_t i = 0; i < count; ++i) {
        char what[64];
        unsigned access = pto_program_param_access(p, i);
        fprintf(out, "  %-12s %s%s%s\n", pto_program_param_name(p, i),
                describe(p, i, what, sizeof(what)), access & PTO_PARAM_READ ? ", read" : "",
                access & PTO_PARAM_WRITE ? ", written" : "");
    }
}

static int find_param(const pto_program *p, const name_value *nv, size_t *index) {
    char name[256];
    if (nv->name_len >= sizeof(name))
        return usage_error("unknown parameter '%.*s'", (int)nv->name_len, nv->name);
    memcpy(name, nv->name, nv->name_len);
    name[nv->name_len] = '\0';
    if (pto_program_param_find(p, name, index) == PTO_OK)
        return 0;
    /* The sentence and the list, one message. */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out == NULL)
        return usage_error("unknown parameter '%s'", name);
    list_parameters(p, out);
    fclose(out);
    if (len > 0 && text[len - 1] == '\n')
        text[len - 1] = '\0';
    usage_error("unknown parameter '%s'; the program's parameters are:\n%s", name, text);
    free(text);
    return EXIT_USAGE;
}

/* An integer: decimal or 0x hexadecimal, optionally negative. */
static int parse_int(const char *text, int64_t *out) {
    const char *digits = text[0] == '-' || text[0] == '+' ? text + 1 : text;
    int hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    const char *first = hex ? digits + 2 : digits;
    if (!(first[0] >= '0' && first[0] <= '9') &&
        !(hex && strchr("abcdefABCDEF", first[0]) && first[0] != '\0'))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, hex ? 16 : 10);
    if (*end != '\0' || errno != 0)
        return -1;
    *out = v;
    return 0;
}

/* A float: what strtod reads (decimal, hexadecimal, inf, nan), whole. */
static int parse_float(const char *text, double *out) {
    char *end;
    if (text[0] == '\0' || text[0] == ' ')
        return -1;
    *out = strtod(text, &end);
    return *end == '\0' ? 0 : -1;
}

/* zeros:DTYPE:SHAPE into a zero-filled array. */
static int make_zeros(const char *name, const char *value, npy_array *out) {
    const char *spec = value + strlen("zeros:");
    const char *colon = strchr(spec, ':');
    pto_dtype dtype;
    if (colon == NULL || parse_dtype_name(spec, (size_t)(colon - spec), &dtype) != 0) {
        char names[512] = "";
        size_t used = 0;
        for (size_t i = 0; i < DTYPE_NAME_COUNT && used < sizeof names; ++i) {
            const int n = snprintf(names + used, sizeof names - used, " %s", kDtypeNames[i].name);
            if (n < 0) break;
            used += (size_t)n;
        }
        return usage_error("%s=%s: expected zeros:DTYPE:SHAPE with DTYPE one of%s", name, value,
                           names);
    }
    size_t shape[NPY_MAX_DIMS];
    int ndim = 0;
    const char *p = colon + 1;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long long dim = strtoull(p, &end, 10);
        if (p[0] < '0' || p[0] > '9' || errno != 0 || dim > SIZE_MAX || ndim == NPY_MAX_DIMS ||
            (*end != 'x' && *end != '\0'))
            return usage_error(
                "%s=%s: SHAPE must be dimensions separated by 'x', e.g. 16x16 or 1024", name,
                value);
        shape[ndim++] = (size_t)dim;
        if (*end == '\0')
            break;
        p = end + 1;
    }
    char err[256];
    if (npy_array_zeros(out, npy_dtype_of(dtype), ndim, shape, err, sizeof(err)) != 0)
        return usage_error("%s=%s: %s", name, value, err);
    return 0;
}

static void shape_text(const npy_header *h, char *buf, size_t cap) {
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < h->ndim && n < cap; ++i)
        n += (size_t)snprintf(buf + n, cap - n, i == 0 ? "%zu" : ", %zu", h->shape[i]);
    if (n < cap)
        snprintf(buf + n, cap - n, "%s)", h->ndim == 1 ? "," : "");
}

/* An array for a pointer or tile parameter: a .npy file or zeros:..., with
 * the parameter's dtype. */
static int load_array(const run *r, size_t index, const char *name, const char *value,
                      npy_array *out) {
    int rc;
    int from_file = strncmp(value, "zeros:", 6) != 0;
    if (!from_file) {
        rc = make_zeros(name, value, out);
    } else {
        double number;
        char err[512];
        if (parse_float(value, &number) == 0) {
            char what[64];
            return usage_error("%s=%s: %s is %s; give a .npy file or zeros:DTYPE:SHAPE", name,
                               value, name, describe(r->program, index, what, sizeof(what)));
        }
        rc = npy_read_file(value, out, err, sizeof(err)) == 0
                 ? 0
                 : usage_error("%s=%s: %s", name, value, err);
    }
    if (rc != 0)
        return rc;
    pto_dtype want = pto_program_param_dtype(r->program, index);
    if (!dtype_fits(out->header.dtype, want, from_file)) {
        char what[64];
        return usage_error("%s=%s: the array's dtype %s does not match %s, %s", name, value,
                           dtype_name(pto_dtype_of(out->header.dtype)), name,
                           describe(r->program, index, what, sizeof(what)));
    }
    return 0;
}

/* Binds tile to parameter index, with the declared valid region where the
 * type gives one statically. */
static int set_tile_with_declared_region(const pto_program *program, pto_args *args, size_t index,
                                         pto_tile *tile, const char *what) {
    const int64_t rows = pto_program_param_valid_rows(program, index);
    const int64_t cols = pto_program_param_valid_cols(program, index);
    if (rows >= 0 && cols >= 0 &&
        pto_tile_set_valid(tile, (uint32_t)rows, (uint32_t)cols) != PTO_OK)
        return usage_error("%s: %s", what, pto_last_error());
    if (pto_args_set_tile(args, index, tile) != PTO_OK)
        return usage_error("%s: %s", what, pto_last_error());
    return 0;
}

static int bind_tile(run *r, size_t index, const char *name, const char *value) {
    param_state *s = &r->params[index];
    uint32_t rows = pto_program_param_rows(r->program, index),
             cols = pto_program_param_cols(r->program, index);
    const npy_header *h = &s->array.header;
    int shape_ok = (h->ndim == 2 && h->shape[0] == rows && h->shape[1] == cols) ||
                   (h->ndim == 1 && h->shape[0] == (size_t)rows * cols);
    if (!shape_ok) {
        char shape[128], what[64];
        shape_text(h, shape, sizeof(shape));
        return usage_error(
            "%s=%s: shape %s does not match %s, %s (give %ux%u, or %zu elements in 1-D)", name,
            value, shape, name, describe(r->program, index, what, sizeof(what)), rows, cols,
            (size_t)rows * cols);
    }
    char what[512];
    snprintf(what, sizeof(what), "%s=%s", name, value);
    if (pto_tile_create(pto_program_param_dtype(r->program, index), rows, cols, &s->tile) !=
            PTO_OK ||
        pto_tile_write(s->tile, s->array.data, h->nbytes) != PTO_OK)
        return usage_error("%s: %s", what, pto_last_error());
    return set_tile_with_declared_region(r->program, r->args, index, s->tile, what);
}

/* An INT or FLOAT parameter from a literal. */
static int bind_scalar(run *r, size_t index, const char *name, const char *value) {
    int is_int = pto_program_param_kind(r->program, index) == PTO_PARAM_INT;
    int64_t int_value = 0;
    double float_value = 0;
    if ((is_int ? parse_int(value, &int_value) : parse_float(value, &float_value)) != 0) {
        char what[64];
        return usage_error("%s=%s: %s is %s; give %s", name, value, name,
                           describe(r->program, index, what, sizeof(what)),
                           is_int ? "a decimal or 0x hexadecimal integer"
                                  : "a number (e.g. 1.5, -2e-3, inf, nan)");
    }
    pto_status status = is_int ? pto_args_set_int(r->args, index, int_value)
                               : pto_args_set_float(r->args, index, float_value);
    return status == PTO_OK ? 0 : usage_error("%s=%s: %s", name, value, pto_last_error());
}

static int bind_value(run *r, size_t index, const char *name, const char *value) {
    param_state *s = &r->params[index];
    pto_param_kind kind = pto_program_param_kind(r->program, index);
    if (kind == PTO_PARAM_INT || kind == PTO_PARAM_FLOAT)
        return bind_scalar(r, index, name, value);
#ifdef PTO_RUN_MPI
    char plain[400];
    s->peer = -1;
    if (kind == PTO_PARAM_POINTER && strcmp(value, "context") == 0) {
        if (pto_program_param_dtype(r->program, index) != PTO_INT64)
            return usage_error("%s=context: the context is a !pto.ptr<i64>", name);
        s->context = 1;
        value = "zeros:i64:132"; /* PTO_MPI_CONTEXT_BYTES */
    }
    const char *at = strrchr(value, '@');
    if (kind == PTO_PARAM_POINTER && at != NULL) {
        int64_t rank;
        if (parse_int(at + 1, &rank) != 0 || rank < 0 || rank >= pto_mpi_size())
            return usage_error("%s=%s: @%s is not a rank (0..%d)", name, value, at + 1,
                               pto_mpi_size() - 1);
        if ((size_t)(at - value) >= sizeof(plain))
            return usage_error("%s=%s: the value is too long", name, value);
        memcpy(plain, value, (size_t)(at - value));
        plain[at - value] = '\0';
        s->peer = (int)rank;
        value = plain;
        /* OTHER@RANK: the array of pointer parameter OTHER, rank RANK's copy. */
        size_t other;
        if (pto_program_param_find(r->program, plain, &other) == PTO_OK) {
            if (pto_program_param_kind(r->program, other) != PTO_PARAM_POINTER || other == index)
                return usage_error("%s=%s: %s is not another pointer parameter", name, value,
                                   plain);
            s->alias = other + 1;
            return 0;
        }
    }
#endif
    int rc = load_array(r, index, name, value, &s->array);
    if (rc != 0)
        return rc;
    if (kind == PTO_PARAM_TILE)
        return bind_tile(r, index, name, value);
    /* Zero-copy: the program works on the array, which --out then writes. */
    if (pto_args_set_pointer(r->args, index, s->array.data, s->array.header.nbytes) != PTO_OK)
        return usage_error("%s=%s: %s", name, value, pto_last_error());
    return 0;
}

/* A tile the program only writes, named by --out and given no value: a fresh
 * one of the declared shape to receive the result. */
static int bind_result_tile(run *r, size_t index, const char *name) {
    param_state *s = &r->params[index];
    char what[512];
    snprintf(what, sizeof(what), "--out %s", name);
    if (pto_tile_create(pto_program_param_dtype(r->program, index),
                        pto_program_param_rows(r->program, index),
                        pto_program_param_cols(r->program, index), &s->tile) != PTO_OK)
        return usage_error("%s: %s", what, pto_last_error());
    return set_tile_with_declared_region(r->program, r->args, index, s->tile, what);
}

static int bind_all(run *r, const options *o) {
    for (size_t v = 0; v < o->value_count; ++v) {
        size_t index;
        int rc = find_param(r->program, &o->values[v], &index);
        if (rc != 0)
            return rc;
        if (r->params[index].value != NULL)
            return usage_error("%s is given twice", pto_program_param_name(r->program, index));
        r->params[index].value = o->values[v].value;
    }
    for (size_t v = 0; v < o->out_count; ++v) {
        size_t index;
        int rc = find_param(r->program, &o->outs[v], &index);
        if (rc != 0)
            return rc;
        const char *name = pto_program_param_name(r->program, index);
        pto_param_kind kind = pto_program_param_kind(r->program, index);
        if (r->params[index].out_path != NULL)
            return usage_error("--out %s is given twice", name);
        if (kind == PTO_PARAM_INT || kind == PTO_PARAM_FLOAT)
            return usage_error("--out %s: %s is a scalar; only pointers and tiles can be written",
                               name, name);
        if (kind == PTO_PARAM_POINTER && r->params[index].value == NULL)
            return usage_error(
                "--out %s: give %s an array to run on (%s=FILE.npy or %s=zeros:DTYPE:SHAPE)", name,
                name, name, name);
        r->params[index].out_path = o->outs[v].value;
    }
    for (size_t i = 0; i < r->count; ++i) {
        const char *name = pto_program_param_name(r->program, i);
        param_state *s = &r->params[i];
        int rc = 0;
        if (s->value != NULL)
            rc = bind_value(r, i, name, s->value);
        else if (s->out_path != NULL && !(pto_program_param_access(r->program, i) & PTO_PARAM_READ))
            rc = bind_result_tile(r, i, name);
        if (rc != 0)
            return rc;
    }
    int missing = 0;
    for (size_t i = 0; i < r->count; ++i) {
        if (r->params[i].value == NULL &&
            (pto_program_param_access(r->program, i) & PTO_PARAM_READ)) {
            char what[64];
            usage_error("missing value for %s, %s read by the program (%s=VALUE)",
                        pto_program_param_name(r->program, i),
                        describe(r->program, i, what, sizeof(what)),
                        pto_program_param_name(r->program, i));
            missing = 1;
        }
    }
    return missing ? EXIT_USAGE : 0;
}

/* ---- results -------------------------------------------------------------- */

static int write_outputs(const run *r) {
    for (size_t i = 0; i < r->count; ++i) {
        const param_state *s = &r->params[i];
        if (s->out_path == NULL)
            continue;
        char err[512];
        int rc;
        if (s->tile == NULL) {
            const npy_header *h = &s->array.header;
            npy_dtype dtype = h->dtype == NPY_BFLOAT16 ? NPY_UINT16 : h->dtype == NPY_BYTE ? NPY_UINT8 : h->dtype;
            const void *data = s->array.data;
#ifdef PTO_RUN_MPI
            if (s->window_data != NULL)
                data = s->window_data;
#endif
            rc = npy_write_file(s->out_path, dtype, h->ndim, h->shape, data, err, sizeof(err));
        } else {
            /* The valid region, rows of valid_cols out of the row-major tile. */
            size_t cols = pto_tile_cols(s->tile), size = pto_dtype_size(pto_tile_dtype(s->tile));
            size_t shape[2] = {pto_tile_valid_rows(s->tile), pto_tile_valid_cols(s->tile)};
            const unsigned char *data = pto_tile_data(s->tile);
            unsigned char *region = malloc(shape[0] * shape[1] * size + 1);
            if (region == NULL)
                return usage_error("out of memory");
            for (size_t row = 0; row < shape[0]; ++row)
                memcpy(region + row * shape[1] * size, data + row * cols * size, shape[1] * size);
            rc = npy_write_file(s->out_path, npy_dtype_of(pto_tile_dtype(s->tile)), 2, shape,
                                region, err, sizeof(err));
            free(region);
        }
        if (rc != 0)
            return usage_error("--out %s: %s", pto_program_param_name(r->program, i), err);
    }
    return 0;
}

#ifdef PTO_RUN_MPI
/* ---- ranks ---------------------------------------------------------------- */

/* Every pointer's array moved into the rank's window (collective: the same
 * arrays, in parameter order, at the same offsets on every rank) and bound
 * to its own copy or, for VALUE@RANK, that rank's. */
static int bind_windows(run *r, pto_mpi **window) {
    size_t total = 0;
    for (size_t i = 0; i < r->count; ++i)
        if (r->params[i].array.data != NULL && r->params[i].tile == NULL && !r->params[i].context)
            total += (r->params[i].array.header.nbytes + 63) / 64 * 64;
    if (pto_mpi_window_create(total, window) != PTO_OK)
        return usage_error("%s", pto_mpi_last_error());
    /* Every rank holds a window from here on (a failed creation fails on
     * every rank), and meets the others in pto_mpi_agree. */
    char *base = pto_mpi_window_base(*window);
    size_t at = 0;
    for (size_t i = 0; i < r->count; ++i) {
        param_state *s = &r->params[i];
        if (s->context) {
            if (pto_mpi_context(*window, s->array.data) != PTO_OK)
                return usage_error("%s", pto_mpi_last_error());
            continue;
        }
        if (s->array.data == NULL || s->tile != NULL)
            continue;
        const size_t bytes = s->array.header.nbytes;
        s->window_data = base + at;
        memcpy(s->window_data, s->array.data, bytes);
        at += (bytes + 63) / 64 * 64;
        void *bound = s->peer < 0 ? s->window_data
                                  : pto_mpi_peer_address(*window, s->peer, s->window_data);
        if (pto_args_set_pointer(r->args, i, bound, bytes) != PTO_OK)
            return usage_error("%s: %s", pto_program_param_name(r->program, i), pto_last_error());
    }
    for (size_t i = 0; i < r->count; ++i) {
        const param_state *s = &r->params[i];
        if (s->alias == 0)
            continue;
        const param_state *other = &r->params[s->alias - 1];
        if (other->window_data == NULL)
            return usage_error("%s=%s: %s has no array (give it FILE.npy or zeros:...)",
                               pto_program_param_name(r->program, i), s->value,
                               pto_program_param_name(r->program, s->alias - 1));
        void *bound = pto_mpi_peer_address(*window, s->peer, other->window_data);
        if (pto_args_set_pointer(r->args, i, bound, other->array.header.nbytes) != PTO_OK)
            return usage_error("%s: %s", pto_program_param_name(r->program, i), pto_last_error());
    }
    return 0;
}

/* Whether this rank met the others in the agreement before the window. */
static int g_agreed = 0;

/* The line of a rank that did not fail, once another did. */
static int stopped_by(int failed) {
    say(PTO_RUN_NAME ": ", "stopped: rank %d failed", failed);
    return EXIT_RUN_ERROR;
}

/* The launch between two agreements (pto_mpi_agree, each a barrier too):
 * every rank's window is ready and bound before any block starts, and every
 * transfer is complete before any rank writes its results (a third
 * agreement after writing them: a rank that cannot fails the job). A rank that
 * fails prints its own message and says so in the agreement, which ends
 * the other ranks' waits at their next poll (not after PTO_COMM_TIMEOUT);
 * they print one line naming it. A rank whose launch failed only because a
 * peer failed (pto_mpi_window_stopped_by) prints that line, not the wait's
 * error. */
static int launch_on_ranks(const options *o, run *r) {
    pto_mpi *window = NULL;
    int rc = bind_windows(r, &window);
    if (window == NULL) /* the creation failed on every rank, each said why */
        return rc;
    int failed = pto_mpi_agree(window, rc != 0);
    if (failed >= 0) {
        if (rc == 0)
            rc = stopped_by(failed);
    } else {
        int own = 0;
        if (pto_program_launch(r->program, o->blocks, r->args) != PTO_OK) {
            rc = EXIT_RUN_ERROR;
            own = pto_mpi_window_stopped_by(window) < 0;
            if (own)
                run_error();
        }
        failed = pto_mpi_agree(window, own);
        if (failed >= 0 && !own)
            rc = stopped_by(failed);
        if (rc == 0) {
            /* A rank that cannot write its results fails the job as well. */
            rc = write_outputs(r);
            failed = pto_mpi_agree(window, rc != 0);
            if (failed >= 0 && rc == 0)
                rc = stopped_by(failed);
        }
    }
    /* Results written from the window before it goes. */
    for (size_t i = 0; i < r->count; ++i)
        r->params[i].window_data = NULL;
    pto_mpi_window_destroy(window);
    return rc;
}

/* A rank ended by a signal says so, one whole line, before the signal's
 * own action (MPI's handler where it installed one, else the default), so
 * that the job's output names the rank that crashed or was stopped as well
 * as the launcher's report does. The lines are made before any signal
 * comes: the handler only writes. */
static const int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM};
static const char *const kFatalNames[] = {"SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT", "SIGTERM"};
#define FATAL_SIGNALS (sizeof(kFatalSignals) / sizeof(kFatalSignals[0]))
static char g_fatal_lines[FATAL_SIGNALS][96];
static size_t g_fatal_lengths[FATAL_SIGNALS];
static struct sigaction g_fatal_before[FATAL_SIGNALS];

static void on_fatal_signal(int sig, siginfo_t *info, void *context) {
    for (size_t i = 0; i < FATAL_SIGNALS; ++i) {
        if (kFatalSignals[i] != sig)
            continue;
        const ssize_t written = write(STDERR_FILENO, g_fatal_lines[i], g_fatal_lengths[i]);
        (void)written;
        const struct sigaction *before = &g_fatal_before[i];
        if ((before->sa_flags & SA_SIGINFO) != 0 && before->sa_sigaction != NULL) {
            before->sa_sigaction(sig, info, context);
        } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN &&
                   before->sa_handler != NULL) {
            before->sa_handler(sig);
        }
        break;
    }
    /* Then the default action: the process ends by the signal. */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_fatal_signals(void) {
    for (size_t i = 0; i < FATAL_SIGNALS; ++i) {
        const int n = snprintf(g_fatal_lines[i], sizeof(g_fatal_lines[i]),
                               "pto-run-mpi: rank %d: ended by signal %s\n", pto_mpi_rank(),
                               kFatalNames[i]);
        g_fatal_lengths[i] = n > 0 && (size_t)n < sizeof(g_fatal_lines[i]) ? (size_t)n : 0;
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(kFatalSignals[i], &action, &g_fatal_before[i]);
    }
}

/* The actions from before catch_fatal_signals: once a rank's outcome is
 * printed, a signal while MPI finishes (Open MPI's launcher ends the other
 * ranks of a job that one left non-zero) adds no line. */
static void release_fatal_signals(void) {
    for (size_t i = 0; i < FATAL_SIGNALS; ++i)
        sigaction(kFatalSignals[i], &g_fatal_before[i], NULL);
}

/* arg with {rank} and {size} replaced (a new string), or NULL for no memory. */
static char *expand_rank(const char *arg) {
    char rank[16], size[16];
    snprintf(rank, sizeof(rank), "%d", pto_mpi_rank());
    snprintf(size, sizeof(size), "%d", pto_mpi_size());
    char *out = malloc(strlen(arg) * 8 + 1);
    if (out == NULL)
        return NULL;
    char *w = out;
    for (const char *p = arg; *p != '\0';) {
        if (strncmp(p, "{rank}", 6) == 0) {
            w += sprintf(w, "%s", rank);
            p += 6;
        } else if (strncmp(p, "{size}", 6) == 0) {
            w += sprintf(w, "%s", size);
            p += 6;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    return out;
}
#endif

/* ---- main ----------------------------------------------------------------- */

static int verify_and_run(const options *o, const char *text, size_t length) {
    pto_program *program = NULL;
    if (o->has_profile)
        pto_set_profile(o->profile);
    if (o->board)
        pto_set_board_mode(1);
    /* --check verifies every function of a module, and needs no entry unless one is named. */
    const pto_status created =
        o->check && o->entry == NULL
            ? pto_program_check(text, length, o->file, &program)
            : pto_program_create_entry(text, length, o->file, o->entry, &program);
    if (created != PTO_OK)
        return run_error();
    if (o->check) {
        printf("%s: verified under profile %s\n", o->file,
               pto_profile_string(pto_program_profile(program)));
        printf("parameters:\n");
        list_parameters(program, stdout);
        fputs(pto_program_describe(program), stdout);
        pto_program_destroy(program);
        return 0;
    }
    run r = {program, NULL, NULL, pto_program_param_count(program)};
    int rc = 0;
    r.params = calloc(r.count + 1, sizeof(param_state));
    if (r.params == NULL || pto_args_create(program, &r.args) != PTO_OK)
        rc = usage_error("out of memory");
    if (rc == 0)
        rc = bind_all(&r, o);
#ifdef PTO_RUN_MPI
    /* Every rank read and bound its program: the window and the launch
     * only if every rank did (else each says why, or whom it stops for). */
    g_agreed = 1;
    int failed = pto_mpi_agree(NULL, rc != 0);
    if (failed >= 0 && rc == 0)
        rc = stopped_by(failed);
    /* Every rank launches, or none: a rank given --check, --help or
     * --version says so in this second agreement. */
    if (failed < 0 && (failed = pto_mpi_agree(NULL, 0)) >= 0) {
        say(PTO_RUN_NAME ": ", "stopped: rank %d does not launch (--check, --help or --version)",
            failed);
        rc = EXIT_RUN_ERROR;
    }
    if (rc == 0)
        rc = launch_on_ranks(o, &r);
#else
    if (rc == 0 && pto_program_launch(program, o->blocks, r.args) != PTO_OK)
        rc = run_error();
    if (rc == 0)
        rc = write_outputs(&r);
#endif
    for (size_t i = 0; r.params != NULL && i < r.count; ++i) {
        pto_tile_destroy(r.params[i].tile);
        npy_array_free(&r.params[i].array);
    }
    free(r.params);
    pto_args_destroy(r.args);
    pto_program_destroy(program);
    return rc;
}

int main(int argc, char **argv) {
    options o;
#ifdef PTO_RUN_MPI
    if (pto_mpi_init(&argc, &argv) != PTO_OK) {
        fprintf(stderr, "pto-run-mpi: %s\n", pto_mpi_last_error());
        return EXIT_RUN_ERROR;
    }
    catch_fatal_signals();
    char **expanded = calloc((size_t)argc + 1, sizeof(char *));
    for (int i = 0; expanded != NULL && i < argc; ++i)
        if ((expanded[i] = expand_rank(argv[i])) == NULL) {
            fputs("pto-run-mpi: out of memory\n", stderr);
            pto_mpi_abort(EXIT_USAGE);
        }
    if (expanded == NULL) {
        fputs("pto-run-mpi: out of memory\n", stderr);
        pto_mpi_abort(EXIT_USAGE);
    }
    argv = expanded;
#endif
    int rc = parse_command_line(argc, argv, &o);
    if (rc == PARSE_OK) {
        size_t length = 0;
        char *text = read_text(o.file, &length);
        if (text == NULL) {
            rc = usage_error("cannot read %s: %s", o.file, strerror(errno));
        } else {
            rc = verify_and_run(&o, text, length);
            free(text);
        }
    }
    free(o.outs);
    free(o.values);
#ifdef PTO_RUN_MPI
    /* A rank that stopped before binding its program (a usage error, a
     * parse or verifier error, --check, --help) meets the others in the
     * same agreement, so none of them is left waiting for it in the window. */
    if (!g_agreed) {
        const int failed = pto_mpi_agree(NULL, rc != 0 && rc != PARSE_EXIT_OK);
        if (failed >= 0 && (rc == 0 || rc == PARSE_EXIT_OK))
            rc = stopped_by(failed);
        /* --check, --help, --version: none of the ranks launches (a rank
         * that would stops, instead of waiting for this one in the window). */
        if (failed < 0)
            pto_mpi_agree(NULL, 1);
    }
    for (int i = 0; i < argc; ++i)
        free(argv[i]);
    free(argv);
    release_fatal_signals();
    pto_mpi_finalize();
#endif
    return rc == PARSE_EXIT_OK ? 0 : rc;
}
