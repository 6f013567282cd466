/* libpto-runtime: the host runtime of PyPTO programs (pkg-config module
 * pto-runtime). PyPTO emits a program as PTO-assembly kernels (the .pto
 * files under kernels/) and an orchestration C++ file (a .cpp file under
 * orchestration/) written against the PTO2 orchestration API: its entry
 * aicpu_orchestration_entry submits kernel tasks with their tensors and
 * scalars. This library runs such a program on libpto:
 *
 *  - the orchestration is compiled with the system C++ compiler (the
 *    compiler named by the environment variable CXX, else c++) against
 *    <pto/runtime/pto_orchestration_api.h> (this library's own copy of it,
 *    so the two always agree) into a shared object, kept in a cache
 *    directory under the hash of its source, the header and the compiler
 *    command, reused only while every file the source includes from
 *    outside the system directories is unchanged, and loaded;
 *  - each kernel is verified once per session (pto_program_create_entry)
 *    and each task is a pto_program_launch of it on the task's blocks, its
 *    tensors bound first (each the view's first byte and the bytes the view
 *    spans), then its scalars, then the trailing index parameters the kernel
 *    table describes; the launch binds __pypto_spmd_block_idx/num and the
 *    sub-block id;
 *  - tasks run when their dependencies are met (set_dependencies, scopes,
 *    and every earlier task whose tensor bytes overlap the task's with a
 *    write on either side), independent tasks at once on the session's
 *    workers; a program gives the same bytes for any number of workers.
 *
 * The work directory holds what PyPTO's export writes (kernels/,
 * orchestration/) and the kernel table, a text file kernel_table.txt the
 * front end writes (or pto_runtime_add_kernel calls), one entry a line,
 * '#' starting a comment:
 *
 *   orchestration orchestration/NAME.cpp
 *   kernel ID aic|aiv PATH [FUNCTION]
 *   dims ID EXPR...
 *
 * `kernel`: the kernel id the orchestration submits, its core type, the
 * .pto file (relative to the work directory) and the func.func to run (by
 * default the one pto_program_create_entry chooses). A mixed task
 * (rt_submit_task with an AIC and an AIV kernel) runs the module of its AIC
 * kernel's file as one block's cube and vector cores (both kernels must be
 * in that file): two vector cores when both of its vector lanes name the
 * kernel, one (sub-block id 0, sub-block count 1) when one lane does, as
 * PTO2 dispatches a lone AIV beside the cube. `dims`: the values of kernel ID's parameters that follow
 * its scalars (PyPTO's dynamic dimensions, recovered from tensor shapes),
 * one expression each, without spaces: integers, shape(T,D) (dimension D of
 * the task's tensor T), + - * / (integer, / rounding toward zero) and
 * parentheses, e.g. shape(0,1)/2. `orchestration` may be left out when
 * orchestration/ holds exactly one .cpp file.
 *
 * Errors: each function returns a pto_status; its sentence, for the calling
 * thread, in pto_runtime_last_error(). A failure while a program runs names
 * where it happened: the orchestration's file and line of the submission,
 * the task, the kernel and its file, and libpto's own
 * "FILE:LINE:COL: error: ..." for a kernel's error. Compiler errors are
 * reported with the compiler's first error line. Nothing in this library
 * aborts, prints or exits on bad input.
 */
#ifndef PTO_RUNTIME_H_
#define PTO_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>

#include "pto_c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A session: one program (orchestration + kernels) ready to run any number
 * of times. Not for use by two threads at once; sessions are independent. */
typedef struct pto_runtime pto_runtime;

/* The orchestration entry's arguments for one run: tensors (host memory,
 * dtype, shape), then scalars, in the orchestration's order. */
typedef struct pto_runtime_args pto_runtime_args;

/* Opens a session on work_dir: reads work_dir/kernel_table.txt if it
 * exists. Nothing is compiled or verified yet (pto_runtime_prepare).
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT if work_dir is
 * not a directory or the kernel table has a malformed line (the sentence
 * gives its file and line); PTO_ERR_OUT_OF_MEMORY. */
PTO_API pto_status pto_runtime_open(const char *work_dir, pto_runtime **out);

/* Closes the session and unloads its orchestration. NULL is a no-op. */
PTO_API void pto_runtime_close(pto_runtime *rt);

/* Reads a kernel table file (the format above; relative paths in it are
 * relative to the work directory), adding its entries. */
PTO_API pto_status pto_runtime_load_table(pto_runtime *rt, const char *path);

/* Adds kernel id: core_type "aic" or "aiv", pto_path (relative to the work
 * directory, or absolute), function (NULL or "": the entry
 * pto_program_create_entry chooses). Errors: PTO_ERR_NULL_ARGUMENT;
 * PTO_ERR_INVALID_ARGUMENT for a negative or repeated id or another core
 * type. Only before pto_runtime_prepare. */
PTO_API pto_status pto_runtime_add_kernel(pto_runtime *rt, int32_t id, const char *core_type,
                                          const char *pto_path, const char *function);

/* Sets kernel id's trailing index parameters (the `dims` line: count
 * expressions). Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for
 * an unknown id or an expression that does not parse. */
PTO_API pto_status pto_runtime_set_kernel_dims(pto_runtime *rt, int32_t id, const char *const *exprs,
                                               size_t count);

/* Names the orchestration source (relative to the work directory, or
 * absolute). Errors: PTO_ERR_NULL_ARGUMENT. */
PTO_API pto_status pto_runtime_set_orchestration(pto_runtime *rt, const char *cpp_path);

/* The number of worker threads that run tasks (default: the number of
 * online CPUs; 1 runs every task on the calling thread, in an order its
 * dependencies allow). Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_OUT_OF_RANGE
 * for 0 or above 1024. */
PTO_API pto_status pto_runtime_set_workers(pto_runtime *rt, uint32_t workers);

/* Board mode for the session (libpto's board mode, pto_set_board_mode and
 * docs/profiles.md "Board mode"): 1 on, 0 off (the default: every rule
 * checked, a kernel that breaks one refused with its located error). On,
 * the session's kernels are verified (pto_runtime_prepare, and the variants
 * a task's lanes need) and every task of its runs launched in board mode,
 * whichever thread runs it: under A2A3 and A5 a rule that pto-isa's
 * implementation leaves unchecked runs as that implementation runs it, each
 * occurrence a warning. The runtime sets the mode on threads of its own
 * (the workers; with one worker a worker thread runs the tasks instead of
 * the calling thread; the verifications on a thread that takes the calling
 * thread's profile), so the calling thread's own board mode and warning
 * handler are never changed. Each warning is counted
 * (pto_runtime_board_warnings) and goes to the session's warning handler
 * (pto_runtime_set_warning_handler), else to stderr as one line
 * "libpto warning: MESSAGE", libpto's default. Errors:
 * PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for on other than 0 or 1,
 * or after pto_runtime_prepare (the kernels are verified in one mode). */
PTO_API pto_status pto_runtime_set_board_mode(pto_runtime *rt, int on);

/* pto_runtime_set_order's orders. */
#define PTO_RUNTIME_ORDER_ALL 0u
#define PTO_RUNTIME_ORDER_PTO2 1u

/* Which orders a session's tasks take from their tensors (docs/pypto.md,
 * "Dependencies and workers"); set_dependencies and dummy tasks order in
 * both.
 * PTO_RUNTIME_ORDER_ALL (the default): a task waits for every earlier task
 * that writes a byte it reads or writes, or reads a byte it writes, whatever
 * the tags (written: the tag or the kernel says so), so a run's bytes are
 * those of its tasks run one after another in submission order, on any
 * number of workers.
 * PTO_RUNTIME_ORDER_PTO2: the orders simpler's PTO2 runtime keeps. A task
 * waits for the earlier writers of the bytes it reads (an input, inout or
 * no-dep tensor, a dispatch predicate's element, memory behind a pointer
 * scalar) and for the task whose OUTPUT allocated a tensor it uses; a
 * tensor given to add_output (an existing one) waits for nothing else.
 * Tasks that each write a slice of a tensor they all declare whole then
 * run at once, as on an NPU; a program whose unordered tasks write the same
 * bytes, or write bytes another task still reads, gives bytes that depend
 * on the workers, as it would on an NPU.
 * Errors: PTO_ERR_NULL_ARGUMENT; PTO_ERR_INVALID_ARGUMENT for another
 * order. */
PTO_API pto_status pto_runtime_set_order(pto_runtime *rt, uint32_t order);

/* Where the session's board-mode warnings go: handler(message, user) with
 * libpto's sentence ("function: board mode: ...", or a program's
 * "FILE:LINE:COL: warning: board mode: ..."), called on the thread that ran
 * the operation (a worker, or a block thread of a launch), one call at a
 * time across threads; message is valid during the call. NULL (the
 * default): one line on stderr each. Errors: PTO_ERR_NULL_ARGUMENT (rt). */
PTO_API pto_status pto_runtime_set_warning_handler(pto_runtime *rt, pto_warning_fn handler, void *user);

/* The board-mode warnings the session has reported so far (its
 * verifications and every run). Errors: PTO_ERR_NULL_ARGUMENT. */
PTO_API pto_status pto_runtime_board_warnings(const pto_runtime *rt, uint64_t *count);

/* Where compiled orchestrations are kept (default: $PTO_RUNTIME_CACHE, else
 * $XDG_CACHE_HOME/pto-runtime, else $HOME/.cache/pto-runtime, else
 * /tmp/pto-runtime-UID). Created if missing. */
PTO_API pto_status pto_runtime_set_cache_dir(pto_runtime *rt, const char *dir);

/* Compiles (or finds in the cache) and loads the orchestration, and
 * verifies every kernel of the table. Called by the first pto_runtime_run
 * if not before. Errors: PTO_ERR_INVALID_ARGUMENT for a missing or
 * ambiguous orchestration, a compiler error (its first error line, e.g. an
 * API name this runtime lacks), a missing kernel file or a kernel libpto
 * refuses (libpto's located sentence, with the kernel id), kernels of one
 * session verified under different profiles; a kernel's own status where
 * libpto gives one. */
PTO_API pto_status pto_runtime_prepare(pto_runtime *rt);

/* Creates an empty argument set. Errors: PTO_ERR_NULL_ARGUMENT;
 * PTO_ERR_OUT_OF_MEMORY. */
PTO_API pto_status pto_runtime_args_create(pto_runtime_args **out);

/* Frees an argument set (never the tensors' memory). NULL is a no-op. */
PTO_API void pto_runtime_args_destroy(pto_runtime_args *args);

/* Appends a tensor: nbytes of host memory at data (the caller keeps it
 * alive through the run; the program reads and writes it in place), of
 * dtype, row-major with shape[0..ndims-1]. dtype is a name: float32,
 * float16, bfloat16, int8, int16, int32, int64, uint8, uint16, uint32,
 * uint64, bool, float8_e4m3fn, float8_e8m0fnu, float4_e2m1fn_x2 (torch's
 * names; "torch." in front is accepted). Errors: PTO_ERR_NULL_ARGUMENT
 * (args, data with nbytes > 0, shape with ndims > 0, dtype);
 * PTO_ERR_INVALID_ARGUMENT for an unknown dtype, ndims 0 or above 5, a
 * scalar appended before, or nbytes other than the shape's bytes;
 * PTO_ERR_OUT_OF_RANGE for a dimension above 2^32 - 1 or a size that
 * overflows. */
PTO_API pto_status pto_runtime_args_add_tensor(pto_runtime_args *args, void *data, size_t nbytes,
                                               const char *dtype, const uint64_t *shape,
                                               uint32_t ndims);

/* Appends a scalar: its 64 bits as the orchestration reads them
 * (orch_args.scalar(i); a float's bits in the low 32, an integer
 * sign-extended). Errors: PTO_ERR_NULL_ARGUMENT. */
PTO_API pto_status pto_runtime_args_add_scalar(pto_runtime_args *args, uint64_t bits);

/* Declares nbytes of host memory at data that the program may reach
 * through a scalar instead of a tensor: a scalar whose kernel parameter is a
 * pointer (PyPTO's CommCtx, the multi-card context a kernel reads, e.g.
 * pto_mpi_context's) is bound to the address its 64 bits give, which must lie
 * in one of the run's tensors or such memories, with the bytes from it to
 * that memory's end. Not an argument of the orchestration. Errors:
 * PTO_ERR_NULL_ARGUMENT (args, or data with nbytes > 0);
 * PTO_ERR_INVALID_ARGUMENT for nbytes 0. */
PTO_API pto_status pto_runtime_args_add_memory(pto_runtime_args *args, void *data, size_t nbytes);

/* Runs the orchestration once on args and waits for every task it
 * submitted. Errors: those of pto_runtime_prepare; PTO_ERR_INVALID_ARGUMENT
 * if the orchestration's expected argument count differs from args', for
 * a task that names an unknown kernel id, a kernel whose parameters do not
 * take the task's tensors and scalars (count, pointer or scalar kind,
 * dtype), a view outside its tensor, a scalar bound to a pointer that lies
 * in no tensor or memory of the run, a dependency on a task that is never
 * submitted or a cycle of dependencies (the tasks named); a kernel's own
 * status for an error in a kernel (the first one; no new task starts after
 * it). */
PTO_API pto_status pto_runtime_run(pto_runtime *rt, const pto_runtime_args *args);

/* What the last run did: the tasks it ran (kernel launches; dummy tasks
 * not counted) and the most tasks that ran at once. Either pointer may be
 * NULL. Errors: PTO_ERR_NULL_ARGUMENT (rt). */
PTO_API pto_status pto_runtime_last_run_stats(const pto_runtime *rt, uint64_t *tasks,
                                              uint32_t *max_concurrent);

/* The tap: a caller's function the runtime calls around each task whose
 * kernel runs (a task its dispatch predicate skips and a dummy task are not
 * tapped), with the task's kernel, its tensors as views, its scalars and
 * the time its kernel took. It lets a caller see what a program keeps
 * inside the run (the tensors the orchestration allocates) as the tasks
 * read and write them: check each kernel against a reference on the very
 * inputs it read, or time the program by kernel.
 *
 * `events` says when: PTO_RUNTIME_TAP_BEFORE, just before the kernel runs
 * (its inputs ready, its outputs not yet written), PTO_RUNTIME_TAP_AFTER,
 * just after (start_ns and end_ns set), or both. The tap runs on the thread
 * that runs the task, while the task still holds its tensors: no task that
 * depends on it starts, so neither the task's inputs nor its outputs change
 * until the tap returns, and every view (runtime-allocated tensors
 * included) may be read through its data pointer then, not after. With
 * several workers, taps of independent tasks may run at once, each on its
 * own worker. A tap that writes a view changes what later tasks read (the
 * runtime does not look). The tap must not call this library on the same
 * session. Returning nonzero stops the run: no new task starts and
 * pto_runtime_run returns PTO_ERR_INVALID_ARGUMENT naming the task. The
 * task and everything it points to are valid during the call only. */

/* One tensor of a tapped task: a strided view of a tensor. Element
 * (i0, ..., in-1) lies at data + (i0 * strides[0] + ... ) * element_size
 * bytes. */
typedef struct pto_runtime_view {
    void *data;               /* element (0, ..., 0) */
    const char *dtype;        /* pto_runtime_args_add_tensor's name: "float32", "bfloat16", ... */
    uint32_t element_size;    /* bytes of one element */
    uint32_t ndims;           /* 1..5 */
    uint64_t shape[5];        /* the first ndims are the view's */
    uint64_t strides[5];      /* in elements */
    const void *tensor;       /* the first byte of the tensor the view lies in (a caller's or the run's) */
    uint64_t tensor_bytes;    /* that tensor's bytes */
    uint32_t written;         /* nonzero if the task may write it (an output by its tag or its kernel) */
} pto_runtime_view;

/* A tapped task. */
typedef struct pto_runtime_task {
    uint32_t event;             /* PTO_RUNTIME_TAP_BEFORE or PTO_RUNTIME_TAP_AFTER */
    uint64_t id;                /* the task's submission number in the run, from 0 */
    int32_t kernel_id;          /* the kernel table's id (a mixed task's: its cube kernel's) */
    const char *kernel;         /* the kernel table's function, else the .pto file's name without
                                 * directory and extension */
    const char *kernel_file;    /* the .pto file, as the kernel table gives it */
    const char *site_file;      /* the orchestration's submission: file ("" if unknown) */
    int32_t site_line;          /* and line */
    uint32_t blocks;            /* the blocks the kernel runs on */
    uint32_t tensor_count;
    const pto_runtime_view *tensors;  /* in the task's order (the kernel's first parameters) */
    uint32_t scalar_count;
    const uint64_t *scalars;    /* the 64 bits the orchestration passed, in order */
    uint64_t start_ns, end_ns;  /* PTO_RUNTIME_TAP_AFTER: CLOCK_MONOTONIC when the kernel started
                                 * and ended (both its lanes for a two-lane vector task); else 0 */
} pto_runtime_task;

#define PTO_RUNTIME_TAP_BEFORE 1u
#define PTO_RUNTIME_TAP_AFTER 2u

typedef int (*pto_runtime_tap_fn)(const pto_runtime_task *task, void *user);

/* Sets the session's tap for the runs that follow: tap (NULL: none) called
 * with user at the events named (a bitwise or of PTO_RUNTIME_TAP_BEFORE and
 * PTO_RUNTIME_TAP_AFTER). Without a tap a run records nothing for it.
 * Errors: PTO_ERR_NULL_ARGUMENT (rt); PTO_ERR_INVALID_ARGUMENT for a tap
 * with no event or an unknown event bit. */
PTO_API pto_status pto_runtime_set_tap(pto_runtime *rt, uint32_t events, pto_runtime_tap_fn tap, void *user);

/* The compiled orchestration's path (valid while the session exists), or
 * "" before pto_runtime_prepare. */
PTO_API const char *pto_runtime_orchestration_library(const pto_runtime *rt);

/* The sentence of the calling thread's last failed call of this library
 * ("" if none). */
PTO_API const char *pto_runtime_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PTO_RUNTIME_H_ */
